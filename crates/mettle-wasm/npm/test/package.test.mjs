// The package against the native command: every shipped ruleset loads and passes its scenarios,
// odds and seeded rolls equal `mettle … --json`, a question is asked and answered, hostile inputs
// get coded errors, and every document fits its schema. Needs `npm run build` and
// `cargo build` (target/debug/mettle).

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";
import { init, Ruleset, Session, MettleError, format, version, diceOdds, rollDice, __mettleTestPanic } from "../dist/mettle.js";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const native = root + "target/debug/mettle";
const rulesetDir = root + "rulesets/";
const files = readdirSync(rulesetDir).filter((f) => f.endsWith(".mettle")).sort();
const scriptsOf = (text) =>
  Object.fromEntries([...text.matchAll(/script "([^"]+)"/g)].map(([, n]) => [n, readFileSync(rulesetDir + n, "utf8")]));
const load = (f) => {
  const text = readFileSync(rulesetDir + f, "utf8");
  return Ruleset.load(text, { name: f, scripts: scriptsOf(text) });
};
const mettle = (...args) => {
  try {
    return { ok: true, doc: JSON.parse(execFileSync(native, args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })) };
  } catch (e) {
    return { ok: false, stderr: String(e.stderr) };
  }
};
const throwsCode = (f, code) =>
  assert.throws(f, (e) => e instanceof MettleError && e.code === code && e.diagnostics.length > 0, `expected ${code}`);

// Every document against the definition of its type in the repository's schemas.
const ajv = new Ajv2020({ strict: false, allErrors: true });
for (const f of readdirSync(root + "schemas")) {
  const s = JSON.parse(readFileSync(root + "schemas/" + f, "utf8"));
  ajv.addSchema(s, f);
}
const fits = (doc, schema, def) => {
  const validate = ajv.getSchema(def ? `${schema}#/$defs/${def}` : schema);
  assert.ok(validate(doc), `${schema} ${def ?? ""}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
};

await init();

test("the module loads and knows its version", () => {
  assert.equal(version(), "0.1.0");
});

test("every shipped ruleset loads and passes its scenarios", () => {
  assert.ok(files.length >= 5);
  for (const f of files) {
    const report = load(f).test();
    assert.equal(report.failed, 0, `${f}: ${report.scenarios.filter((s) => !s.ok).map((s) => s.scenario)}`);
    assert.ok(report.passed > 0, f);
    for (const doc of report.scenarios) fits(doc, "play.json");
  }
});

test("odds equal the native command's for every shipped check at its default inputs", () => {
  let compared = 0;
  for (const f of files) {
    const rules = load(f);
    for (const check of rules.info().checks) {
      const want = mettle("odds", "rulesets/" + f, check, "--json");
      if (!want.ok) continue;
      const got = rules.odds(check);
      fits(got, "odds.json");
      assert.deepEqual(got.outcomes, want.doc.outcomes, `${f} ${check}`);
      assert.deepEqual(got.values, want.doc.values, `${f} ${check}`);
      compared += 1;
    }
  }
  assert.ok(compared >= 5, `only ${compared} checks compared`);
});

test("seeded rolls equal the native command's", () => {
  let compared = 0;
  for (const f of files) {
    const rules = load(f);
    for (const check of rules.info().checks) {
      for (const seed of [1, 7]) {
        const want = mettle("roll", "rulesets/" + f, check, "--json", "--seed", String(seed));
        if (!want.ok) continue;
        const got = rules.roll(check, { seed });
        fits(got, "roll.json");
        assert.deepEqual([got.pool, got.total, got.outcome], [want.doc.pool, want.doc.total, want.doc.outcome], `${f} ${check} ${seed}`);
        compared += 1;
      }
    }
  }
  assert.ok(compared >= 10, `only ${compared} rolls compared`);
});

const MORALE = `kind unit { spi: 0..6 = 3  morale: steady | shaken = steady }
event hit(unit: unit)
check morale for unit {
  input spi: 0..6
  roll d6
  modifier "Spirit" +spi
  target 7
  outcome steady when total >= target
  otherwise shaken { set unit.morale to shaken }
}
on hit { roll morale for unit with spi: unit.spi }
`;

test("a session plays, observes, saves, restores and undoes", () => {
  const rules = Ruleset.load(MORALE, { name: "morale.mettle" });
  const s = rules.session({ seed: 7 });
  const seen = [];
  s.observe((c) => seen.push(c));
  const made = s.create("unit", "alpha", { spi: 2 });
  assert.equal(typeof made.id, "number");
  fits(made, "serve-reply.json", "StateReply");
  const hit = s.apply("hit", { unit: "alpha" }, { dice: [4] });
  fits(hit, "serve-reply.json", "StateReply");
  assert.equal(hit.outcome.checks[0].outcome, "shaken");
  assert.deepEqual(seen.at(-1), { type: "attribute", entity: "alpha", attribute: "morale", from: "steady", to: "shaken", span: seen.at(-1).span });
  // The log in the engine's own words, each step with its rule's line.
  const words = s.logText();
  assert.match(words, /^event hit\(unit: alpha\)$/m);
  assert.match(words, /alpha\.morale: steady -> shaken {2}\(line \d+\)/);
  const save = s.save();
  const back = Session.restore(rules, save);
  assert.deepEqual(back.state(), s.state());
  assert.equal(s.undo().state.entities[0].attributes[1].value, "steady");
  const rolled = s.roll("morale", { for: "alpha", inputs: { spi: 6 }, dice: [1] });
  fits(rolled, "serve-reply.json", "Rolled");
  assert.equal(rolled.result.total, 7);
  throwsCode(() => s.set("alpha", "morale", "shakn"), "mettle::value::unknown_name");
  throwsCode(() => s.apply("hti", {}), "mettle::value::unknown_event");
});

test("the host's dice decide, and a face a die cannot show is refused", () => {
  const rules = Ruleset.load(MORALE);
  const s = rules.session();
  s.create("unit", "a");
  s.diceFrom((die) => (assert.equal(die.sides, 6), 6));
  assert.equal(s.apply("hit", { unit: "a" }).outcome.checks[0].pool.dice[0].face, 6);
  s.diceFrom(() => 9);
  throwsCode(() => s.apply("hit", { unit: "a" }), "mettle::wasm::dice");
  s.diceFrom(null);
});

test("a question is asked, and answered", () => {
  // The ruleset of tests/drive/questions.jsonl, which `mettle serve` plays the same way.
  const drive = readFileSync(root + "tests/drive/questions.jsonl", "utf8").split("\n")[0];
  const r = Ruleset.load(JSON.parse(drive).params.text);
  const g = r.session({ seed: 7 });
  g.create("side", "b");
  g.create("unit", "x", { side: "b" });
  g.create("unit", "y", { side: "b" });
  const asked = g.apply("assign_ap", { side: "b" });
  assert.equal(asked.outcome.question.choice, "holder");
  assert.deepEqual(g.question().options, ["x", "y"]);
  throwsCode(() => g.apply("assign_ap", { side: "b" }), "mettle::wasm::waiting");
  const done = g.answer("y");
  assert.equal(done.outcome.changes.at(-1).entity, "y");
  assert.equal(g.question(), null);
});

test("hostile inputs get coded errors, and the module goes on", () => {
  const big = "kind unit { spi: 0..6 = 3 }\n" + "# filler\n".repeat(1_200_000);
  assert.ok(big.length > 10_000_000);
  assert.throws(() => Ruleset.load(big), (e) => e instanceof MettleError && e.code.startsWith("mettle::"));
  const loop = Ruleset.load(
    `kind unit { spi: 0..6 = 3 }\nevent spin(unit: unit)\nscript { fn forever(u) { let n = 0; loop { n += 1; } } }\non spin { follow forever(unit) }\n`,
  );
  const s = loop.session();
  s.create("unit", "a");
  assert.throws(() => s.apply("spin", { unit: "a" }), (e) => e instanceof MettleError && /script/.test(e.code));
  assert.throws(() => Session.restore(loop, "{not a save"), (e) => e instanceof MettleError && /save/.test(e.code));
  const timed = Ruleset.load(loop.text, { limits: { operations: 1e12, timeMs: 20 } }).session();
  timed.create("unit", "a");
  const t0 = performance.now();
  assert.throws(() => timed.apply("spin", { unit: "a" }), (e) => e instanceof MettleError);
  assert.ok(performance.now() - t0 < 5000, "the time limit holds");
  assert.equal(Ruleset.load(MORALE).info().checks[0], "morale");
});

test("check, format, card and export give the command's documents", () => {
  const doc = Ruleset.check("kind unit { spi: 0..6 = 3 }\ncheck c for unti { roll d6 outcome ok when total > 3 otherwise fail }\n", { name: "bad.mettle" });
  fits(doc, "check.json");
  assert.equal(doc.files[0].ok, false);
  const e = doc.files[0].diagnostics[0];
  assert.equal(typeof e.column_utf16, "number");
  assert.ok(e.code.startsWith("mettle::"));
  assert.equal(format("kind unit {spi:0..6=3}"), format(format("kind unit {spi:0..6=3}")));
  const rules = load("traveller_morale.mettle");
  assert.match(rules.card("html"), /<html/i);
  assert.match(rules.card("markdown"), /^# /m);
  fits(rules.export(), "export.json");
  const sim = rules.simulate({ scenario: rules.info().scenarios[0] }, { runs: 50, seed: 3 });
  fits(sim, "sim.json");
  assert.equal(sim.runs, 50);
});

// MORALE as a file, for the native command.
const moraleFile = mkdtempSync(tmpdir() + "/mettle-npm-") + "/morale.mettle";
writeFileSync(moraleFile, MORALE);

test("a check made by someone is made by the library's stand-in, worded as the command words it", () => {
  const rules = Ruleset.load(MORALE, { name: "morale.mettle" });
  const rolled = rules.roll("morale", { inputs: { spi: 2 }, with: { spi: 2 }, seed: 3 });
  const want = mettle("roll", moraleFile, "morale", "--set", "spi=2", "--with", "spi=2", "--seed", "3", "--json");
  assert.ok(want.ok, want.stderr);
  assert.equal(rolled.rolled_by, "a stand-in unit with spi = 2, its other attributes at their defaults");
  assert.equal(rolled.rolled_by, want.doc.rolled_by);
  assert.deepEqual([rolled.total, rolled.outcome], [want.doc.total, want.doc.outcome]);
  const odds = rules.odds("morale", { inputs: { spi: 2 }, with: { spi: 2 } });
  const wantOdds = mettle("odds", moraleFile, "morale", "--set", "spi=2", "--with", "spi=2", "--json");
  assert.equal(odds.question, wantOdds.doc.question);
  assert.match(odds.question, / \(made by a stand-in unit with spi = 2/);
  throwsCode(() => rules.odds("morale", { with: { spii: 2 } }), "mettle::value::unknown_field");
});

test("sweeps equal the command's, inputs, a stand-in's attributes and options alike", () => {
  const rules = Ruleset.load(MORALE, { name: "morale.mettle" });
  const got = rules.sweep("morale", { sweep: ["spi=0..6", "unit.morale"] });
  fits(got, "odds-sweep.json");
  const want = mettle("odds", moraleFile, "morale", "--sweep", "spi=0..6", "--sweep", "unit.morale", "--json");
  assert.ok(want.ok, want.stderr);
  assert.deepEqual(got, want.doc);
  assert.equal(got.rows.length, 14);
  const frontiers = load("infinite_frontiers.mettle");
  const opt = frontiers.sweep("morale", { sweep: ["leadership"], options: ["bonus_die"], inputs: { spi: 3 } });
  const wantOpt = mettle("odds", "rulesets/infinite_frontiers.mettle", "morale", "--sweep", "leadership", "--option-sweep", "bonus_die", "--set", "spi=3", "--json");
  assert.ok(wantOpt.ok, wantOpt.stderr);
  assert.deepEqual(opt, wantOpt.doc);
  throwsCode(() => rules.sweep("morale", { sweep: ["spi=9..12"] }), "mettle::odds::bad_sweep");
});

test("dice expressions: odds and a seeded roll equal the command's", () => {
  for (const expr of ["4d6kh3", "2d6 + 3 >= 8", "d20"]) {
    const got = diceOdds(expr);
    fits(got, "odds.json");
    assert.deepEqual(got, mettle("odds", "--dice", expr, "--json").doc, expr);
  }
  for (const seed of [1, 5]) {
    const got = rollDice("3d6kh2 + 1", { seed });
    fits(got, "dice-roll.json");
    assert.deepEqual(got, mettle("roll", "--dice", "3d6kh2 + 1", "--seed", String(seed), "--json").doc);
  }
  assert.throws(() => diceOdds("2d"), (e) => e instanceof MettleError && e.diagnostics[0].column_utf16 !== null);
});

test("scenario odds equal the command's, exact or estimated", () => {
  // morale_race has too many ways to go to list: it is exact by merging equal game states.
  for (const [f, name] of [["dice_pool_morale.mettle", "base_morale"], ["combat_hq.mettle", "draw"], ["combat_hq.mettle", "morale_race"]]) {
    const got = load(f).scenarioOdds(name, { seed: 2 });
    fits(got, "odds.json");
    const want = mettle("odds", "rulesets/" + f, "--scenario", name, "--seed", "2", "--json");
    assert.ok(want.ok, want.stderr);
    // The whole document, the number of states merged included: merging keys only what a later
    // statement reads, so the count is the same in every build (native debug or release, wasm).
    assert.deepEqual(got, want.doc, `${f} ${name}`);
    assert.equal(got.method.kind, "exact", `${f} ${name}`);
  }
  assert.throws(() => load("combat_hq.mettle").scenarioOdds("nope"), (e) => e instanceof MettleError && /no scenario called `nope`/.test(e.message));
});

test("a simulation on one thread, without rayon, counts as the native command's threads do", () => {
  // The module is built without the library's `parallel` feature; the native command with it,
  // here on two threads. The same seed gives the same counts (tests/sim_threads.rs pins them).
  const got = load("combat_hq.mettle").simulate({ scenario: "morale_race" }, { runs: 1500, seed: 42 });
  const want = mettle("sim", "rulesets/combat_hq.mettle", "morale_race", "--runs", "1500", "--seed", "42", "--threads", "2", "--json");
  assert.ok(want.ok, want.stderr);
  const counts = (doc) => doc.results.map((r) => [r.result, r.winner, r.count]);
  assert.deepEqual(counts(got), counts(want.doc));
  assert.deepEqual(counts(got)[0], ["major_victory", "max", 953]);
});

test("scenario odds take a report, as --report does", () => {
  const f = "infinite_frontiers.mettle";
  const got = load(f).scenarioOdds("three_morale_checks", { report: "u.morale is broken" });
  const want = mettle("odds", "rulesets/" + f, "--scenario", "three_morale_checks", "--report", "u.morale is broken", "--json");
  assert.ok(want.ok, want.stderr);
  assert.deepEqual(got, want.doc);
  assert.deepEqual(got.outcomes.map((o) => o.outcome), ["u.morale is broken = no", "u.morale is broken = yes"]);
  assert.throws(
    () => load(f).scenarioOdds("three_morale_checks", { report: "u.moral" }),
    (e) => e instanceof MettleError && e.diagnostics[0].code === "mettle::resolve::unknown_attribute",
  );
});

test("a panic throws mettle::wasm::panic with its message, and the package goes on", () => {
  const before = Ruleset.load(MORALE);
  const game = before.session();
  game.create("unit", "a");
  assert.throws(
    () => __mettleTestPanic("the dice fell off the table"),
    (e) => e instanceof MettleError && e.code === "mettle::wasm::panic" && e.kind === "panic" && /the dice fell off the table/.test(e.message),
  );
  // Objects of the old instance: the session is lost, the ruleset loads itself again, and freeing
  // either touches nothing of the new instance.
  throwsCode(() => game.state(), "mettle::wasm::lost");
  game.free();
  assert.equal(before.odds("morale", { inputs: { spi: 2 } }).outcomes[0].exact, "1/3");
  const after = Ruleset.load(MORALE);
  assert.equal(after.odds("morale", { inputs: { spi: 3 } }).outcomes[0].exact, "1/2");
  const s = after.session();
  s.create("unit", "b");
  assert.equal(s.apply("hit", { unit: "b" }, { dice: [1] }).outcome.checks[0].outcome, "shaken");
});
