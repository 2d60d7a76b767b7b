// Builds the engine's npm package from source with the package's own build script.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { wasmPackage } from './paths.mjs';

if (!fs.existsSync(path.join(wasmPackage, 'package.json'))) {
  console.error(`build-wasm: no package at ${wasmPackage} (crates/mettle-wasm/npm)`);
  process.exit(1);
}
const run = (...args) => execFileSync('npm', args, { cwd: wasmPackage, stdio: 'inherit' });
if (!fs.existsSync(path.join(wasmPackage, 'node_modules'))) run('ci', '--no-audit', '--no-fund');
run('run', 'build');
