// Where the WebAssembly module leaves a panic's message before it traps (its panic hook calls this):
// the wrapper (mettle.js) reads it to say what went wrong, then starts the module again. wasm-bindgen
// copies this file under a hashed path, so the two meet on a global symbol rather than an import.

export function panicked(message) {
  globalThis[Symbol.for("mettle.panic")] = message;
}
