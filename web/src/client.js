// The page's side of the Web Worker that runs mettle: calls as promises, and Stop, which ends the
// worker (and whatever runaway ruleset it was stuck in) and starts a fresh one.

export class Engine {
  /** `onBusy(bool)` is told when a call has been running long enough to offer Stop. */
  constructor({ onBusy = () => {}, onRestart = () => {} } = {}) {
    this.onBusy = onBusy;
    this.onRestart = onRestart;
    this.nextId = 1;
    this.pending = new Map();
    this.start();
  }

  start() {
    this.worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    this.worker.onmessage = ({ data }) => {
      const p = this.pending.get(data.id);
      if (!p) return;
      this.pending.delete(data.id);
      clearTimeout(p.timer);
      this.updateBusy();
      if (data.ok) p.resolve(data.value);
      else p.reject(Object.assign(new Error(data.error.message), data.error));
    };
    this.worker.onerror = (e) => {
      const err = new Error(`the engine failed to start: ${e.message || 'unknown error'}`);
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
      this.updateBusy();
    };
  }

  /** Ask the worker to run `op` with `args`. */
  call(op, args = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.updateBusy(), 400);
      this.pending.set(id, { resolve, reject, timer, since: performance.now(), op });
      this.worker.postMessage({ id, op, args });
    });
  }

  updateBusy() {
    const now = performance.now();
    const busy = [...this.pending.values()].some((p) => now - p.since >= 390);
    this.onBusy(busy);
  }

  /** End whatever runs now: every pending call fails with `stopped`, and a new worker starts. */
  stop() {
    this.worker.terminate();
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(Object.assign(new Error('stopped'), { stopped: true }));
    }
    this.pending.clear();
    this.onBusy(false);
    this.start();
    this.onRestart();
  }
}
