// The `mettle` package: a friendly face on the WebAssembly layer (crates/mettle-wasm). It parses the
// JSON documents the layer returns and turns its failures into MettleError; the rules all live in
// the engine. Types: mettle.d.ts.

import * as glue from "./mettle_core.js";

let ready = false;
let wasmSource = null;

export class MettleError extends Error {
  constructor(kind, diagnostics) {
    const first = diagnostics[0] ?? { code: "mettle::wasm::unknown", message: "unknown error", help: null };
    super(first.message);
    this.name = "MettleError";
    this.kind = kind;
    this.code = first.code;
    this.help = first.help ?? null;
    this.diagnostics = diagnostics;
  }
}

function plain(kind, code, message, help = null) {
  return new MettleError(kind, [
    { severity: "error", code, message, help, file: null, line: null, column_utf8: null, column_utf16: null, span: null, labels: [] },
  ]);
}

// Each instance of the module has a generation; objects made on an older one are lost after a panic.
let generation = 0;

async function readDefault() {
  const url = new URL("./mettle_bg.wasm", import.meta.url);
  if (url.protocol === "file:") {
    const { readFile } = await import("node:fs/promises");
    return readFile(url);
  }
  return url;
}

export async function init(source) {
  if (ready) return;
  wasmSource = source === undefined ? await readDefault() : await source;
  if (wasmSource instanceof URL || typeof wasmSource === "string") wasmSource = await fetch(wasmSource);
  if (typeof Response !== "undefined" && wasmSource instanceof Response) wasmSource = await wasmSource.arrayBuffer();
  wasmSource = wasmSource instanceof WebAssembly.Module ? wasmSource : new WebAssembly.Module(wasmSource);
  glue.initSync({ module: wasmSource });
  ready = true;
}

export function initSync(source) {
  if (ready) return;
  wasmSource = source instanceof WebAssembly.Module ? source : new WebAssembly.Module(source);
  glue.initSync({ module: wasmSource });
  ready = true;
}

/** Calls into the module: parses what it returns, and turns what it throws into a MettleError. A
 *  trap (a panic aborts the module) starts a new instance, and the call throws `mettle::wasm::panic`. */
function call(f, parse = true) {
  if (!ready) throw plain("nothing", "mettle::wasm::not_ready", "the module is not loaded", "call `await init()` first");
  try {
    const out = f();
    return parse && typeof out === "string" ? JSON.parse(out) : out;
  } catch (e) {
    if (typeof e === "string") {
      const { kind, errors } = JSON.parse(e);
      throw new MettleError(kind, errors);
    }
    if (e instanceof WebAssembly.RuntimeError) {
      const key = Symbol.for("mettle.panic");
      const why = globalThis[key] ?? e.message;
      delete globalThis[key];
      // Objects made on the old instance are lost: the glue's finalizers ignore them from now on
      // (wasm-bindgen's reset, scripts/build.mjs), and so does `free`.
      glue.__wbg_reset_state();
      generation += 1;
      throw plain("panic", "mettle::wasm::panic", `the engine failed and has been started again: ${why}`, "this is a bug in mettle: please report it with the ruleset and the call");
    }
    throw e;
  }
}

function seedOf(seed) {
  return BigInt(seed ?? 0);
}

export function version() {
  return call(() => glue.version(), false);
}

export function format(text) {
  return call(() => glue.format(text), false);
}

function diceArgs({ seed, budget } = {}) {
  return JSON.stringify({ seed: Number(seedOf(seed)), budget: budget ?? {} });
}

export function diceOdds(expr, options = {}) {
  return call(() => glue.diceOdds(expr, diceArgs(options)));
}

export function rollDice(expr, options = {}) {
  return call(() => glue.rollDice(expr, diceArgs(options)));
}

// For the package's own tests: makes the engine panic (see mettle.d.ts).
export function __mettleTestPanic(message = "a panic for the tests") {
  return call(() => glue.__mettleTestPanic(message), false);
}

function loadOptions(options = {}) {
  return JSON.stringify({ ...options, options: options.options ?? {} });
}

export class Ruleset {
  #inner;
  #generation;
  #options;

  constructor(inner, options) {
    this.#inner = inner;
    this.#options = options;
    this.#generation = generation;
    this.name = call(() => inner.name(), false);
    this.text = call(() => inner.text(), false);
  }

  /** The ruleset on the module now: loaded again after a panic started a new one. */
  get inner() {
    if (this.#generation !== generation) {
      this.#inner = call(() => glue.Rules.load(this.text, loadOptions(this.#options)), false);
      this.#generation = generation;
    }
    return this.#inner;
  }

  static load(text, options = {}) {
    return new Ruleset(call(() => glue.Rules.load(text, loadOptions(options)), false), options);
  }

  static check(text, options = {}) {
    return call(() => glue.Rules.check(text, loadOptions(options)));
  }

  info() {
    return call(() => this.inner.info());
  }

  roll(check, args = {}) {
    const { seed, ...rest } = args;
    return call(() => this.inner.roll(check, JSON.stringify({ ...rest, seed: Number(seedOf(seed)) })));
  }

  odds(check, args = {}) {
    const { seed, ...rest } = args;
    return call(() => this.inner.odds(check, JSON.stringify({ ...rest, seed: Number(seedOf(seed)) })));
  }

  sweep(check, args = {}) {
    const { seed, ...rest } = args;
    return call(() => this.inner.sweep(check, JSON.stringify({ ...rest, seed: Number(seedOf(seed)) })));
  }

  scenarioOdds(scenario, { seed, report } = {}) {
    return call(() => this.inner.scenario_odds(scenario, seedOf(seed), report));
  }

  play(scenario, { seed } = {}) {
    return call(() => this.inner.play(scenario, seedOf(seed)));
  }

  test({ seed } = {}) {
    return call(() => this.inner.test(seedOf(seed)));
  }

  simulate(target, { runs = 1000, seed } = {}) {
    return call(() => this.inner.simulate(JSON.stringify(target), BigInt(runs), seedOf(seed)));
  }

  card(format = "html") {
    return call(() => this.inner.card(format), false);
  }

  export() {
    return call(() => this.inner.export());
  }

  session({ seed, choices = "ask" } = {}) {
    return new Session(this, call(() => new glue.Game(this.inner, seedOf(seed), choices === "ask"), false));
  }

  free() {
    // One made on an instance that has since trapped is gone with it.
    if (this.#generation === generation) this.#inner.free();
  }
}

export class Session {
  #inner;
  #generation;
  #observers = new Map();
  #nextObserver = 1;

  constructor(rules, inner) {
    this.rules = rules;
    this.#inner = inner;
    this.#generation = generation;
  }

  static restore(rules, save, { adapt = false, choices = "ask" } = {}) {
    const text = typeof save === "string" ? save : JSON.stringify(save);
    return new Session(rules, call(() => glue.Game.restore(rules.inner, text, adapt, choices === "ask"), false));
  }

  get #game() {
    if (this.#generation !== generation) {
      throw plain("panic", "mettle::wasm::lost", "this session was lost when the engine failed and was started again", "restore it from a save");
    }
    return this.#inner;
  }

  /** A call that may change the game: observers hear of the changes after it. */
  #act(f) {
    try {
      return call(f);
    } finally {
      if (this.#observers.size > 0 && this.#generation === generation) {
        const changes = call(() => this.#inner.take_changes());
        for (const change of changes) for (const fn of this.#observers.values()) fn(change);
      }
    }
  }

  create(kind, name, attributes = {}) {
    return this.#act(() => this.#game.create(kind, name, JSON.stringify(attributes)));
  }
  apply(event, facts = {}, { dice = [] } = {}) {
    return this.#act(() => this.#game.apply(event, JSON.stringify(facts), BigInt64Array.from(dice.map(BigInt))));
  }
  roll(check, args = {}) {
    return this.#act(() => this.#game.roll(check, JSON.stringify(args)));
  }
  set(entity, attribute, value) {
    return this.#act(() => this.#game.set(entity, attribute, JSON.stringify(value)));
  }
  setOption(option, value) {
    return this.#act(() => this.#game.set_option(option, JSON.stringify(value)));
  }
  remove(entity) {
    return this.#act(() => this.#game.remove(entity));
  }
  answer(...args) {
    const [choice, value] = args.length >= 2 ? args : ["", args[0]];
    return this.#act(() => this.#game.answer(choice, JSON.stringify(value ?? null)));
  }
  cancel() {
    return this.#act(() => this.#game.cancel());
  }
  question() {
    return call(() => this.#game.question());
  }
  answers() {
    return call(() => this.#game.answers());
  }
  clearAnswers() {
    return call(() => this.#game.clear_answers());
  }
  forceDice(faces) {
    call(() => this.#game.force_dice(BigInt64Array.from(faces.map(BigInt))), false);
  }
  diceFrom(fn) {
    const wrapped = fn === null ? undefined : (text) => fn(JSON.parse(text));
    call(() => this.#game.dice_from(wrapped), false);
  }
  observe(fn) {
    call(() => this.#game.watch(), false);
    const id = this.#nextObserver++;
    this.#observers.set(id, fn);
    return id;
  }
  unobserve(id) {
    return this.#observers.delete(id);
  }
  save({ log = true } = {}) {
    return call(() => this.#game.save(log));
  }
  undo() {
    return call(() => this.#game.undo());
  }
  state() {
    return call(() => this.#game.state());
  }
  log({ from = 0 } = {}) {
    return call(() => this.#game.log(from));
  }
  logText() {
    return call(() => this.#game.log_text(), false);
  }
  trimLog(keep) {
    return call(() => this.#game.trim_log(keep));
  }
  odds(check, args = {}) {
    const { seed, ...rest } = args;
    return call(() => this.#game.odds(check, JSON.stringify({ ...rest, seed: Number(seedOf(seed)) })));
  }
  free() {
    if (this.#generation === generation) this.#inner.free();
  }
}
