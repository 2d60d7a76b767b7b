// The Web Worker that runs mettle, so that a long or runaway computation never freezes the page:
// the page can always end this worker (Stop) and start another.
import * as engine from './engine.js';

const wasmUrl = new URL('./mettle_bg.wasm', import.meta.url);

self.onmessage = async ({ data: { id, op, args } }) => {
  try {
    await engine.start(wasmUrl);
    const fn = engine[op];
    if (typeof fn !== 'function' || op === 'start') throw new Error(`no such operation: ${op}`);
    const t0 = performance.now();
    const value = fn(args);
    self.postMessage({ id, ok: true, value, ms: performance.now() - t0 });
  } catch (e) {
    self.postMessage({
      id, ok: false,
      error: {
        message: String(e?.message ?? e),
        code: e?.code ?? null,
        help: e?.help ?? null,
        kind: e?.kind ?? null,
        diagnostics: e?.diagnostics ?? [],
      },
    });
  }
};
