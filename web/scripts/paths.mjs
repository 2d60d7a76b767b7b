// Where the playground's inputs and outputs are, in one place for the build, the server and the test.
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const root = path.resolve(web, '..');
export const dist = path.join(web, 'dist');
export const rulesets = path.join(root, 'rulesets');
/** The npm package wrapping the engine; METTLE_WASM_DIR points elsewhere while developing both. */
export const wasmPackage = process.env.METTLE_WASM_DIR
  ? path.resolve(process.env.METTLE_WASM_DIR)
  : path.join(root, 'crates', 'mettle-wasm', 'npm');
