// `npm run build`: the engine for wasm32 (cargo, profile `wasm`), its JavaScript glue
// (wasm-bindgen, --target web: browsers, workers and Node alike), optimised for size (wasm-opt from
// the `binaryen` package), and the wrapper and types beside it, all in dist/.
// wasm-opt runs only with `--opt`: measured on this engine, -Oz takes ~3 minutes and makes the module
// 11% smaller raw but 4% larger gzipped (3418 → 3043 KiB raw, 1031 → 1069 KiB gzipped), and gzipped
// is what a page downloads. Prints the sizes, raw and gzipped.

import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, appendFileSync, rmSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const root = here("../../../../");
const dist = here("../dist/");
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { stdio: "inherit", ...opts });
const size = (f) => {
  const bytes = readFileSync(f);
  return `${(bytes.length / 1024).toFixed(0)} KiB raw, ${(gzipSync(bytes, { level: 9 }).length / 1024).toFixed(0)} KiB gzipped`;
};

const started = Date.now();
run("cargo", ["build", "-p", "mettle-wasm", "--target", "wasm32-unknown-unknown", "--profile", "wasm"], { cwd: root });
console.log(`cargo build: ${((Date.now() - started) / 1000).toFixed(0)} s`);
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist);
const built = root + "target/wasm32-unknown-unknown/wasm/mettle_wasm.wasm";
run("wasm-bindgen", [built, "--target", "web", "--out-dir", dist, "--out-name", "mettle_core"]);
// The glue starts an instance once; after a trap the wrapper needs a new one on the same module.
appendFileSync(
  dist + "mettle_core.js",
  "\n// Added by scripts/build.mjs: a new instance after the old one trapped.\n" +
    "export function __restart(module) { wasm = undefined; return initSync({ module }); }\n",
);
const bg = dist + "mettle_core_bg.wasm";
console.log(`before wasm-opt: ${size(bg)}`);
if (process.argv.includes("--opt")) {
  const wasmOpt = here("../node_modules/.bin/wasm-opt");
  run(wasmOpt, [bg, "-Oz", "--enable-bulk-memory", "--enable-nontrapping-float-to-int", "--enable-sign-ext", "--enable-mutable-globals", "-o", bg]);
  console.log(`after wasm-opt:  ${size(bg)}`);
}
copyFileSync(bg, dist + "mettle_bg.wasm");
rmSync(bg);
for (const f of ["mettle.js", "mettle.d.ts", "schemas.d.ts"]) copyFileSync(here("../src/" + f), dist + f);
console.log(`dist/: ${statSync(dist + "mettle_bg.wasm").size} bytes of WebAssembly; done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
