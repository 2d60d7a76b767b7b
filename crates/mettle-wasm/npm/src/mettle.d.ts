// The public API of the `mettle` npm package: mettle's rules engine compiled to WebAssembly.
//
// Every document a method returns is the JSON document the `mettle` command prints with `--json`
// (or `mettle serve` replies with): their types are generated from `schemas/*.json` into
// `schemas.d.ts` and re-exported here, so JavaScript and the command read the same fields.
//
// Numbers in the rules are whole numbers; they cross as JS numbers (exact up to 2^53, far beyond any
// ruleset's range). Seeds may be given as numbers or BigInts. Chances come as `probability` numbers
// and, when exact, as `exact` fractions in lowest terms ("1/6").

import type * as S from "./schemas.js";

export type * from "./schemas.js";

/** Loads the WebAssembly module. Call once before anything else (later calls do nothing).
 *  With no argument the module is read next to this file (`mettle_bg.wasm`), by `fetch` in a
 *  browser or a worker and from the file system in Node; or pass the bytes, a compiled module, a URL
 *  or a `Response`. */
export function init(source?: BufferSource | WebAssembly.Module | URL | string | Response | Promise<Response>): Promise<void>;

/** Loads the module from its bytes or a compiled module, at once. */
export function initSync(source: BufferSource | WebAssembly.Module): void;

/** The version of the mettle engine inside. */
export function version(): string;

/** What went wrong, always with a code such as `mettle::resolve::unknown_kind`. */
export class MettleError extends Error {
  /** The first error's code; `mettle::wasm::panic` when the engine itself failed (the module was
   *  started again, and the next call works), `mettle::wasm::lost` for an object made before that. */
  readonly code: string;
  /** What kind of failure, as `mettle serve`'s error codes say it: the ruleset did not load, the
   *  rules refused, the parameters were wrong, there was nothing to do it on, a budget ran out, an
   *  action waits on a question, or the engine panicked. */
  readonly kind: "load" | "rules" | "params" | "nothing" | "waiting" | "panic";
  /** Every error, as `--json` gives them: code, message, help, file, line, UTF-8 and UTF-16
   *  columns, span and labels. */
  readonly diagnostics: S.ErrorInfo[];
  /** The help of the first error, when it has one. */
  readonly help: string | null;
}

/** The budget names `mettle --budget NAME=VALUE` takes (docs/security.md). */
export type BudgetName =
  | "ruleset_bytes" | "script_bytes" | "save_bytes" | "line_bytes" | "steps" | "log_entries"
  | "script_operations" | "odds_work" | "odds_states" | "data_values" | "undo_steps";

/** Limits on every call of a script function. */
export interface ScriptLimits {
  /** Steps one call may take (default 200,000). */
  operations?: number;
  /** How deeply script functions may call each other (default 32). */
  callDepth?: number;
  /** How deeply expressions may nest (default 64). */
  exprDepth?: number;
  /** Longest string, in bytes (default 10,000). */
  stringLen?: number;
  /** Longest array (default 1,000). */
  arrayLen?: number;
  /** Most entries in a map (default 500). */
  mapLen?: number;
  /** Wall-clock time one call may take, in milliseconds (default 50), read on `performance.now()`. */
  timeMs?: number;
  /** `"host"` (default): `performance.now()`; `"off"`: operations limits only. */
  clock?: "host" | "off";
}

/** How a ruleset is loaded. */
export interface LoadOptions {
  /** The file name diagnostics show (default `"ruleset.mettle"`). */
  name?: string;
  /** Script files by the name the ruleset writes (`script "reactions.rhai"`): there is no file system. */
  scripts?: Record<string, string>;
  /** Budgets, by name; the rest keep their defaults. */
  budget?: Partial<Record<BudgetName, number>>;
  /** Limits on script calls. */
  limits?: ScriptLimits;
  /** House-rule options chosen, as on the command line's `--option NAME=VALUE`. */
  options?: Record<string, string>;
}

/** A value given to the rules: a number, yes/no as a boolean, a state or an entity by name, `null`
 *  for none, or any JSON for `data`. */
export type Value = number | boolean | string | null | S.Val | unknown;

/** Named values: a check's inputs, an event's facts, an entity's attributes. */
export type Values = Record<string, Value>;

/** A die the host is asked to roll (`diceFrom`). */
export interface DieRequest {
  /** The dice term as written (`2d6`, `d[1,1,2,3]`). */
  notation: string;
  /** Sides of a `dN` die; `null` for custom faces. */
  sides: number | null;
  /** The faces it can show, for custom dice (`d[…]`); `null` for `dN`. */
  faces: number[] | null;
}

/** A change to the game, as observers receive it. */
export type Change =
  | { type: "attribute"; entity: string; attribute: string; from: S.Val; to: S.Val; span: S.Span }
  | { type: "created"; entity: string; kind: string; span: S.Span }
  | { type: "removed"; entity: string };

/** Options of a check's roll or odds. */
export interface CheckArgs {
  /** Who makes the check (an entity in play, by name; sessions only). */
  for?: string;
  /** The check's inputs, by name. */
  inputs?: Values;
}

/** What `Ruleset.sweep` runs through: `mettle odds FILE CHECK --sweep … --option-sweep …`. */
export interface SweepArgs {
  /** Each an input (`"spi=0..6"`, or `"spi"` alone for a short declared range, a yes/no or a set of
   *  names), an attribute of the stand-in who makes the check (`"unit.leadership"`), or a house-rule
   *  option, as `--sweep` takes them. Every combination is a row, the last sweep changing fastest;
   *  at most 10,000 rows. */
  sweep?: string[];
  /** House-rule options run through every reading, as `--option-sweep` takes them. */
  options?: string[];
  /** The inputs that stay the same in every row. */
  inputs?: Values;
  /** The stand-in's attributes that stay the same in every row (the others at their defaults). */
  with?: Values;
  /** Seed of the estimate of a row whose exact odds are out of reach. */
  seed?: number | bigint;
}

/** Options of a dice expression's roll or odds. */
export interface DiceArgs {
  /** The dice's seed (of the estimate, for odds out of exact reach). */
  seed?: number | bigint;
  /** Budgets, by name (`odds_work` bounds the exact odds and the estimate). */
  budget?: Partial<Record<BudgetName, number>>;
}

/** What `Ruleset.test` reports: each scenario played, and the counts. */
export interface TestReport {
  passed: number;
  failed: number;
  /** One document per scenario, as `mettle play --json` prints it. */
  scenarios: S.PlayDoc[];
}

/** What `Session.create` gives: the reply, and the new entity's id. */
export type Created = S.StateReply & { id: number };

/** A loaded, checked and compiled ruleset. Immutable; many sessions may share it. */
export class Ruleset {
  /** Loads `text`; throws a `MettleError` (kind `"load"`) with every error of the file. */
  static load(text: string, options?: LoadOptions): Ruleset;
  /** Checks `text` without throwing for its errors: the report `mettle check --json` gives for one
   *  file (errors and warnings with UTF-16 columns). */
  static check(text: string, options?: LoadOptions): S.CheckDoc;

  /** The name diagnostics use. */
  readonly name: string;
  /** The ruleset's text. */
  readonly text: string;
  /** What it holds: kinds, events, checks, choices, scenarios, and its warnings (`serve`'s `load`). */
  info(): S.Loaded;

  /** Rolls `check` once in a fresh session with `seed` (`mettle roll --json`); `dice` forces faces.
   *  A check made by someone is made by a stand-in of that kind with attributes `with` (the others
   *  at their defaults), and `rolled_by` says who, as the command does. */
  roll(check: string, args?: Omit<CheckArgs, "for"> & { seed?: number | bigint; dice?: number[]; with?: Values }): S.RollDoc;
  /** The exact odds of `check` (`mettle odds --json`), or an estimate when over the `odds_work`
   *  budget; made by a stand-in `with` attributes as `roll` is (the question ends with
   *  " (made by …)"). */
  odds(check: string, args?: Omit<CheckArgs, "for"> & { seed?: number | bigint; with?: Values }): S.OddsDoc;
  /** The odds of `check` for every combination of the values swept (`mettle odds --sweep … --json`):
   *  one row each, its values in `set` and its report beside them. All the rows share the budget of
   *  one question; a row out of exact reach is estimated and says why. One call replaces a loop of
   *  `odds` calls, and names the rows as the command does. */
  sweep(check: string, args: SweepArgs): S.SweepDoc;
  /** How scenario `name` ends (`mettle odds FILE --scenario NAME --json`): each end state's exact
   *  chance over every way its rolls can go, or, when they are too many, an estimate from as many
   *  seeded runs as the `odds_work` budget allows, each end with its 95% interval, saying why.
   *  `report` (`"winner, turn <= 6"`, as `--report`) chooses what each row shows instead of the
   *  scenario's own `report` line; its errors point into that text. */
  scenarioOdds(name: string, args?: { seed?: number | bigint; report?: string }): S.OddsDoc;
  /** Plays one scenario (`mettle play --json`). */
  play(scenario: string, args?: { seed?: number | bigint }): S.PlayDoc;
  /** Plays every scenario (`mettle test`). */
  test(args?: { seed?: number | bigint }): TestReport;
  /** Simulates a scenario, or a check made by a fresh entity `with` attributes, on one thread
   *  (`mettle sim --json`). */
  simulate(target: { scenario: string } | { check: string; inputs?: Values; with?: Values }, args?: { runs?: number; seed?: number | bigint }): S.SimDoc;
  /** The rules card, as HTML (a whole page) or Markdown (`mettle card`). */
  card(format?: "html" | "markdown"): string;
  /** The ruleset's outline (`mettle export`). */
  export(): S.ExportDoc;
  /** A game on these rules. `choices: "ask"` (default) stops an action at a choice with no answer
   *  waiting and returns its `question`; `"default"` takes each choice's default. */
  session(options?: { seed?: number | bigint; choices?: "ask" | "default" }): Session;
  /** Frees the ruleset's memory now rather than when it is collected. */
  free(): void;
}

/** Formats a ruleset's text (`mettle fmt`); throws a `MettleError` when it does not parse. */
export function format(text: string): string;

/** The odds of a bare dice expression (`"4d6kh3"`, `"d20 + 5 >= 15"`), as `mettle odds --dice EXPR
 *  --json` gives them: a number's distribution under `values` ("value"), or a comparison's `yes` and
 *  `no` under `outcomes`; exact within the `odds_work` budget, else estimated from seeded rolls. An
 *  expression that does not parse throws, its errors located in the expression. */
export function diceOdds(expr: string, args?: DiceArgs): S.OddsDoc;

/** Rolls a bare dice expression once (`mettle roll --dice EXPR --json`): each roll of dice in it
 *  with its faces, and the value. */
export function rollDice(expr: string, args?: DiceArgs): S.DiceRollDoc;

/** For the package's own tests only, not for use: makes the engine panic with `message`, to show
 *  that a panic throws a `MettleError` (`mettle::wasm::panic`, carrying the message) and that the
 *  next call works on a new instance. */
export function __mettleTestPanic(message?: string): never;

/** A game in progress: the whole host API of `mettle serve` (docs/protocol.md), one method each.
 *  A call that fails throws a `MettleError` and leaves the game exactly as it was. */
export class Session {
  /** A session from a save (`save()`'s document or its text) made on `rules`. A save made on other
   *  rules is refused (`mettle::save::changed_rules`) unless `adapt` is true. */
  static restore(rules: Ruleset, save: S.Saved["save"] | string, options?: { adapt?: boolean; choices?: "ask" | "default" }): Session;

  /** The ruleset it plays. */
  readonly rules: Ruleset;

  /** Creates an entity of `kind` called `name`; attributes not given take their defaults. */
  create(kind: string, name: string, attributes?: Values): Created;
  /** Applies an event with its facts; `dice` forces the next faces. When a choice waits for the
   *  host, `outcome.question` says what it asks: `answer` runs the action on, `cancel` drops it. */
  apply(event: string, facts?: Values, options?: { dice?: number[] }): S.StateReply;
  /** Rolls a check, as a rule's `roll` does (its outcome's statements run). */
  roll(check: string, args?: CheckArgs & { dice?: number[] }): S.Rolled;
  /** Sets an attribute as the host, checked and logged like a rule's change. */
  set(entity: string, attribute: string, value: Value): S.StateReply;
  /** Chooses a house-rule option's reading. */
  setOption(option: string, value: Value): S.StateReply;
  /** Takes an entity out of play. */
  remove(entity: string): S.StateReply;
  /** Answers the question waiting (and runs its action on), or, with a choice's name, queues an
   *  answer for when that choice is next asked. */
  answer(value: Value): S.StateReply;
  answer(choice: string, value: Value): S.StateReply;
  /** Drops the action waiting on a question. */
  cancel(): S.StateReply;
  /** The question an action waits on, if any. */
  question(): S.QuestionView | null;
  /** The answers queued for their choices. */
  answers(): S.AnswerView[];
  /** Drops every queued answer. */
  clearAnswers(): S.AnswerView[];
  /** The next dice show these faces (the table's own dice). */
  forceDice(faces: number[]): void;
  /** Every die from now on is asked of `fn` (a face it can show; throwing stops the action, which
   *  is undone); `null` goes back to the seeded dice. `fn` must not call this session. */
  diceFrom(fn: ((die: DieRequest) => number) | null): void;
  /** Calls `fn` with each change to the game, in order, once the call that made it has returned
   *  (unlike the Rust API, not while the action runs). Two reasons: the change's values are read
   *  through the session, which the action holds until it ends, and an observer that called back
   *  into the session mid-action could not be let in. The gain: a call that fails is undone, and
   *  observers never hear of its changes. */
  observe(fn: (change: Change) => void): number;
  /** Stops calling an observer; false when there was none with that id. */
  unobserve(id: number): boolean;
  /** The game as a document `Session.restore` reads; `log: false` leaves the log out. */
  save(options?: { log?: boolean }): S.Saved["save"];
  /** Takes back the last step (up to the `undo_steps` budget). */
  undo(): S.StateReply;
  /** The state: entities, round, options, orders, forced dice, and whether the game is over. */
  state(): S.StateView;
  /** The log from line `from` (numbered from the game's first line). */
  log(options?: { from?: number }): S.LogReply;
  /** The log in words, as `mettle play` prints it: each step with the line of the rule behind it. */
  logText(): string;
  /** Lets go of all but the last `keep` lines of the log. */
  trimLog(keep: number): S.Trimmed;
  /** The odds of a check from here, leaving the game as it was. */
  odds(check: string, args?: CheckArgs & { seed?: number | bigint }): S.Odds;
  /** Frees the session's memory now rather than when it is collected. */
  free(): void;
}
