// Where the WebAssembly module leaves a panic's message before it traps: the wrapper reads it to
// say what went wrong, then starts the module again.
let last = null;

export function panicked(message) {
  last = message;
}

export function takePanic() {
  const m = last;
  last = null;
  return m;
}
