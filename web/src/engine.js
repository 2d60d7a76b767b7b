// The one module that talks to the `mettle` npm package (crates/mettle-wasm): everything the
// worker does with the engine goes through here. It keeps the ruleset loaded from the editor's
// latest text and the game the Play panel is playing.
import { init, Ruleset, Session } from 'mettle';

let ready = null;
let rules = null; // the Ruleset of the last text that loaded, or null
let files = null; // { main, scripts } of that text
let variants = new Map(); // the same text loaded with house-rule options chosen, by options
let session = null;
const outlines = new WeakMap(); // each loaded Ruleset's export, asked once

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
// The values a sweep runs an input through: `[lo, hi]` for numbers, else every value of its type.
function valuesOf(input, range) {
  if (range) {
    const [lo, hi] = range;
    if (!(Number.isInteger(lo) && Number.isInteger(hi)) || hi < lo) throw new Error(`${input.name}: sweep from a whole number to one at least as big`);
    return Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
  }
  if (input.type === 'flag') return [false, true];
  if (input.type.includes('|')) return input.type.split('|').map((s) => s.trim());
  const r = /^(-?\d+)\s*\.\.\s*(-?\d+)$/.exec(input.type);
  if (r) return valuesOf(input, [Number(r[1]), Number(r[2])]);
  throw new Error(`${input.name}: give a range to sweep`);
}

/** The odds over every combination of the inputs in `over` (`{ name: [lo, hi] | null }`), a row
 *  each, in the shape `mettle odds --sweep --json` gives (schemas/odds-sweep.json). The package
 *  has no sweep of its own yet: each row is one `odds` call. */
export function sweep({ check, over, inputs, options, with: stand }) {
  const rules = withOptions(options);
  if (!outlines.has(rules)) outlines.set(rules, rules.export());
  const decl = outlines.get(rules).checks.find((c) => c.name === check);
  if (!decl) throw new Error(`no check called ${check}`);
  const axes = Object.entries(over).map(([name, range]) => {
    const input = decl.inputs.find((i) => i.name === name);
    if (!input) throw new Error(`check ${check} has no input called ${name}`);
    return [name, valuesOf(input, range)];
  });
  const count = axes.reduce((n, [, vs]) => n * vs.length, 1);
  if (count > 10000) throw new Error(`a sweep of ${count} rows is too many: narrow the ranges (at most 10,000)`);
  let rows = [{}];
  for (const [name, values] of axes) rows = rows.flatMap((set) => values.map((v) => ({ ...set, [name]: v })));
  return {
    check,
    question: `check ${check}, sweeping ${axes.map(([n, vs]) => `${n} ${vs[0]}..${vs[vs.length - 1]}`).join(' × ')}`,
    rows: rows.map((set) => ({ set, ...rules.odds(check, { inputs: { ...inputs, ...set }, with: stand }) })),
  };
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
