// `npm run build`: the engine for wasm32 (cargo, profile `wasm`), its JavaScript glue
// (wasm-bindgen's `--target web`: browsers, workers and Node alike, written by crates/mettle-bindgen,
// which runs wasm-bindgen's library in-process and builds far quicker than wasm-bindgen-cli
// installs), optionally optimised for size (wasm-opt from the `binaryen` package), and the wrapper
// and types beside it, all in dist/. Honours CARGO_TARGET_DIR.
// wasm-opt runs only with `--opt`: measured on this engine, -Oz takes ~3 minutes and makes the module
// 11% smaller raw but 4% larger gzipped (3418 → 3043 KiB raw, 1031 → 1069 KiB gzipped), and gzipped
// is what a page downloads. Prints the sizes, raw and gzipped.

import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
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
const target = process.env.CARGO_TARGET_DIR ? process.env.CARGO_TARGET_DIR.replace(/\/?$/, "/") : root + "target/";
const built = target + "wasm32-unknown-unknown/wasm/mettle_wasm.wasm";
// The glue gets `__wbg_reset_state()`, which the wrapper calls
// after a trap (a panic aborts the module) to start a new instance on the same module; the glue's
// own state (heap, caches) starts again with it, and the finalizers of objects made on the old
// instance are ignored, so that they cannot free memory of the new one.
run("cargo", ["run", "--quiet", "-p", "mettle-bindgen", "--", built, dist, "mettle_core"], { cwd: root });
if (!readFileSync(dist + "mettle_core.js", "utf8").includes("__wbg_reset_state")) {
  throw new Error("scripts/build.mjs: the glue has no __wbg_reset_state export; did wasm-bindgen change?");
}
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
