// Builds the engine's npm package from source with the package's own build script. All it needs is
// Rust, installed by rustup, and Node: the WebAssembly target is added here when it is missing (the
// JavaScript glue is written by a small binary of the workspace, and wasm-opt is not run).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { wasmPackage } from './paths.mjs';

const TARGET = 'wasm32-unknown-unknown';
const fail = (why) => {
  console.error(`build-wasm: ${why}`);
  process.exit(1);
};
// The output of a command, or null when it is not installed or fails.
const output = (cmd, args) => {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  return r.status === 0 ? r.stdout : null;
};

if (!fs.existsSync(path.join(wasmPackage, 'package.json'))) {
  fail(`no package at ${wasmPackage} (crates/mettle-wasm/npm)`);
}
if (output('cargo', ['--version']) == null) {
  fail('cargo is not installed. The engine is written in Rust: install it with rustup (https://rustup.rs), then run this again.');
}
const installed = output('rustup', ['target', 'list', '--installed']);
if (installed == null) {
  // Rust without rustup (a distribution's package, say) may still have the target's standard library.
  const sysroot = output('rustc', ['--print', 'sysroot'])?.trim();
  if (!sysroot || !fs.existsSync(path.join(sysroot, 'lib', 'rustlib', TARGET))) {
    fail(`the engine builds for the ${TARGET} target, which this Rust does not have, and rustup, `
      + `which adds it, is not installed. Install Rust with rustup (https://rustup.rs), or add the `
      + `target's standard library by the means your Rust came with, then run this again.`);
  }
} else if (!installed.split('\n').includes(TARGET)) {
  console.log(`build-wasm: adding the ${TARGET} target to Rust, once (rustup target add ${TARGET})`);
  try {
    execFileSync('rustup', ['target', 'add', TARGET], { stdio: 'inherit' });
  } catch {
    fail(`\`rustup target add ${TARGET}\` failed (see above); run it yourself, then run this again.`);
  }
}
// The package's build needs nothing from its node_modules (those are for its tests, its types and the
// optional wasm-opt), so none are installed here.
execFileSync('npm', ['run', 'build'], { cwd: wasmPackage, stdio: 'inherit' });
