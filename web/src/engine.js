// The one module that talks to the `mettle` npm package (crates/mettle-wasm): everything the
// worker does with the engine goes through here. It keeps the ruleset loaded from the editor's
// latest text and the game the Play panel is playing.
import { init, Ruleset, Session } from 'mettle';

let ready = null;
let rules = null; // the Ruleset of the last text that loaded, or null
let files = null; // { main, scripts } of that text
let variants = new Map(); // the same text loaded with house-rule options chosen, by options
let session = null;

/** Loads the WebAssembly module, once. */
export function start(wasmUrl) {
  ready ??= init(wasmUrl);
  return ready;
}

function scriptsOf(f) {
  return Object.fromEntries(Object.entries(f.files).filter(([name]) => name !== f.main));
}

/** Loads the editor's files; gives every diagnostic, and the outline when the ruleset loaded
 *  (`quiet`: only whether it loaded, for the worker that answers the tools). */
export function load(f) {
  const text = f.files[f.main];
  const options = { name: f.main, scripts: scriptsOf(f) };
  for (const v of variants.values()) v.free();
  variants = new Map();
  try {
    const next = Ruleset.load(text, options);
    rules?.free();
    rules = next;
    files = f;
    if (f.quiet) return { ok: true };
    return { ok: true, diagnostics: next.info().warnings, outline: next.export() };
  } catch (e) {
    if (e.kind !== 'load') throw e;
    rules?.free();
    rules = null;
    files = f;
    return { ok: false, diagnostics: e.diagnostics, outline: null };
  }
}

function loaded() {
  if (!rules) throw Object.assign(new Error('the ruleset has errors: fix them first'), { code: 'playground::not_loaded' });
  return rules;
}

// The ruleset with house-rule `options` chosen (loaded once per choice).
function withOptions(options) {
  const set = Object.entries(options ?? {}).filter(([, v]) => v != null && v !== '');
  if (!set.length) return loaded();
  loaded();
  const key = JSON.stringify(set);
  if (!variants.has(key)) {
    variants.set(key, Ruleset.load(files.files[files.main], {
      name: files.main, scripts: scriptsOf(files), options: Object.fromEntries(set),
    }));
  }
  return variants.get(key);
}

export const odds = ({ check, inputs, options, with: stand }) =>
  withOptions(options).odds(check, { inputs, with: stand });
/** The odds over every combination of the inputs in `over` (`{ name: [lo, hi] | null }`: a range for
 *  a number, or null for every value its type allows), a row each, as `mettle odds --sweep --json`
 *  gives them (schemas/odds-sweep.json): one call of the package, which runs the library's sweep
 *  (its limit on rows, its words for the question). */
export function sweep({ check, over, inputs, options, with: stand }) {
  const sweep = Object.entries(over).map(([name, range]) => (range ? `${name}=${range[0]}..${range[1]}` : name));
  return withOptions(options).sweep(check, { sweep, inputs, with: stand });
}
export const test = ({ seed } = {}) => loaded().test({ seed });
export const card = () => loaded().card('html');

// ------------------------------------------------------------------ the Play panel's game

function game() {
  if (!session) throw Object.assign(new Error('no game: start one first'), { code: 'playground::no_game' });
  return session;
}

export function newGame({ seed }) {
  session?.free();
  session = loaded().session({ seed, choices: 'ask' });
  return { state: session.state(), question: null };
}

// What the Play panel shows after each action: the lines it added, the state and the question.
function reply(r) {
  return { log: r.log, state: r.state ?? session.state(), question: session.question(), outcome: r.outcome ?? null };
}

export const create = ({ kind, name, attributes }) => reply(game().create(kind, name, attributes));
export const apply = ({ event, facts, dice }) => reply(game().apply(event, facts, dice?.length ? { dice } : undefined));
export const answer = ({ value }) => reply(game().answer(value));
export const cancel = () => reply(game().cancel());
export const undo = () => reply(game().undo());
export const rollCheck = ({ check, for: who, inputs, dice }) => reply(game().roll(check, { for: who, inputs, dice: dice?.length ? dice : undefined }));
/** The game as a save, for the page to keep across a Stop. */
export const save = () => game().save();
export function restore({ save }) {
  session?.free();
  session = Session.restore(loaded(), save, { adapt: true, choices: 'ask' });
  return { state: session.state(), question: session.question() };
}
