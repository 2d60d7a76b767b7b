#!/usr/bin/env node
// Drives `mettle serve` from Node (no packages): an Infinite Frontiers engagement and a Shadow Deep
// reaction, every reply checked against schemas/serve-reply.json.
//
//     node tests/drive/frontiers.mjs [path/to/mettle]
//
// Exits 0 when every step went as the rules say, 1 with the first difference otherwise.

import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { load, errors } from "./schema_check.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, "..", "..");
const REPLY = load(join(ROOT, "schemas", "serve-reply.json"));
const REQUEST = load(join(ROOT, "schemas", "serve-request.json"));

function expect(cond, what) {
  if (!cond) throw new Error(`FAILED: ${what}`);
}

/** One `mettle serve` process, a request and a reply at a time. */
class Server {
  constructor(binary, ...args) {
    this.p = spawn(binary, ["serve", ...args], { cwd: ROOT, stdio: ["pipe", "pipe", "inherit"] });
    this.lines = createInterface({ input: this.p.stdout })[Symbol.asyncIterator]();
    this.nextId = 0;
    this.exited = new Promise((done) => this.p.on("exit", (code) => done(code)));
  }

  async send(method, params = {}) {
    this.nextId += 1;
    const request = { jsonrpc: "2.0", id: this.nextId, method, params };
    this.p.stdin.write(JSON.stringify(request) + "\n");
    const { value, done } = await this.lines.next();
    if (done) throw new Error(`mettle serve ended before answering ${method}`);
    const reply = JSON.parse(value);
    const problems = errors(REPLY, reply);
    expect(problems.length === 0, `${method}: the reply does not fit serve-reply.json: ${problems.slice(0, 5)}`);
    expect(reply.id === this.nextId, `${method}: reply id ${reply.id}, not ${this.nextId}`);
    if ("result" in reply) {
      const bad = errors(REQUEST, request);
      expect(bad.length === 0, `${method}: the request does not fit serve-request.json: ${bad.slice(0, 5)}`);
    }
    return reply;
  }

  async ok(method, params = {}) {
    const reply = await this.send(method, params);
    expect(!("error" in reply), `${method} ${JSON.stringify(params)}: ${JSON.stringify(reply.error)}`);
    expect(reply.result.mettle.schema === 1, "every result names its schema");
    return reply.result;
  }

  async fails(method, code, params = {}) {
    const reply = await this.send(method, params);
    expect("error" in reply, `${method} is refused`);
    expect(reply.error.code === code, `${method}: code ${reply.error.code}, not ${code}`);
    return reply.error.data.errors[0];
  }

  async close() {
    this.p.stdin.end();
    expect((await this.exited) === 0, "mettle serve ends cleanly when its input ends");
  }
}

const attr = (state, entity, name) =>
  state.entities.find((e) => e.name === entity).attributes.find((a) => a.name === name).value;
const checks = (log, check) => log.filter((l) => l.type === "check" && l.check === check);

async function engagement(binary) {
  const s = new Server(binary, "--seed", "11", "--root", "rulesets");
  const loaded = await s.ok("load", { file: "infinite_frontiers.mettle" });
  expect(loaded.checks.includes("morale") && loaded.events.includes("assign_ap"), "the ruleset's names");
  for (const side of ["a", "b"]) await s.ok("create", { kind: "side", name: side });
  await s.ok("create", { kind: "unit", name: "v", with: { side: "a", spi: 1 } });
  await s.ok("create", { kind: "unit", name: "b1", with: { side: "b" } });
  await s.ok("create", { kind: "unit", name: "b2", with: { side: "b" } });
  await s.ok("apply", { event: "turn_start" });

  // Side a, with fewer units, receives an AP and gives it to v.
  await s.ok("answer", { choice: "holder", value: "v" });
  let r = await s.ok("apply", { event: "assign_ap", facts: { side: "a" } });
  expect(attr(r.state, "v", "ap") === 1, "v holds the Action Point");
  await s.ok("create", { kind: "unit", name: "y", with: { side: "a", spi: 3, max_hp: 4, hp: 4 } });

  // A friend is destroyed near v: 2 + SPI 1 fails, but the AP spent on Steadying keeps it Steady.
  await s.ok("answer", { choice: "ap_use", value: "steadying" });
  r = await s.ok("apply", { event: "friend_destroyed", facts: { unit: "v", distance: 4, in_sight: true }, dice: [2] });
  let morale = checks(r.log, "morale").at(-1);
  expect(morale.outcome === "shaken" && morale.total === 3, "2 + 1 = 3 fails");
  expect(attr(r.state, "v", "morale") === "steady", "the AP prevented Shaken");

  // y, engaged by two, rolls a 4: 4 + SPI 3 = 7 passes.
  // The rules first ask how an AP is used, and wait for the answer; answered `keep`, the event goes on.
  r = await s.ok("apply", { event: "engaged", facts: { unit: "y", enemies: 2 }, dice: [4] });
  const q = r.outcome.question;
  expect(q && q.choice === "ap_use" && q.default === "keep", `the AP's use is asked: ${JSON.stringify(q)}`);
  expect(attr(r.state, "y", "morale") === "steady" && r.log.length === 0, "nothing is done while it waits");
  r = await s.ok("answer", { choice: "ap_use", value: "keep" });
  expect(r.outcome.question === null, "answered, the event ran to its end");
  morale = checks(r.log, "morale").at(-1);
  const spi = morale.inputs.find((i) => i.name === "spi").value;
  expect(spi === 3 && morale.total === 7 && morale.outcome === "steady", "4 + 3 = 7");

  // The exact odds of y's next check; asking changes nothing.
  const before = (await s.ok("state")).state;
  const odds = (await s.ok("odds", { check: "morale", set: { spi: 3 }, for: "y" })).odds;
  expect(odds.outcomes.find((o) => o.outcome === "broken").exact === "1/6", "a natural 1 in 6 breaks");
  expect(Math.abs(odds.outcomes.reduce((t, o) => t + o.probability, 0) - 1) < 1e-9, "the chances add up to 1");
  expect(JSON.stringify((await s.ok("state")).state) === JSON.stringify(before), "odds leave the game alone");

  // Bad requests are refused and change nothing.
  expect((await s.fails("aply", -32601)).help === "did you mean `apply`?", "did you mean");
  await s.fails("apply", -32602, { event: "wounded", facts: { unit: "y", loss: "four" } });
  await s.fails("roll", -32602, { check: "morale", sett: {} });
  expect(JSON.stringify((await s.ok("state")).state) === JSON.stringify(before), "refused requests changed nothing");

  // y is hit for 4 and leaves the field, testing nothing (which friends saw it is the host's to say).
  // Undo takes it back.
  r = await s.ok("apply", { event: "wounded", facts: { unit: "y", loss: 4 } });
  expect(attr(r.state, "y", "hp") === 0, "y is down");
  expect(attr(r.state, "y", "on_field") === false, "y leaves the field");
  expect(checks(r.log, "morale").length === 0, "a destroyed unit takes no morale check");
  r = await s.ok("undo");
  expect(attr(r.state, "y", "hp") === 4, "undo puts y back");

  // Save, play to the round's end, restore.
  const saved = (await s.ok("save")).save;
  await s.ok("apply", { event: "turn_end" });
  r = await s.ok("apply", { event: "round_end" });
  expect(attr(r.state, "a", "ap") === 0 && attr(r.state, "b", "ap") === 0, "APs never carry over");
  r = await s.ok("restore", { save: saved });
  expect(JSON.stringify(r.state) === JSON.stringify(before), "restored to before the hit");

  // A roll the host asks for directly, with the table's die.
  const rolled = await s.ok("roll", { check: "skill", set: { dice_pool: 2 }, for: "y", dice: [6, 1] });
  expect(rolled.result.pool.dice.map((d) => d.face).join(",") === "6,1", "the table's dice");

  const sim = await s.ok("sim", { scenario: "firefight", runs: 200, seed: 5 });
  expect(sim.results.reduce((t, e) => t + e.count, 0) + sim.errors === 200, "every run ends somewhere");
  await s.close();
}

async function reaction(binary) {
  const s = new Server(binary, "--root", "rulesets");
  await s.ok("load", { file: "shadow_deep_stress.mettle" });
  await s.ok("create", { kind: "creature", name: "archer", with: { stress: 2, missile: true } });
  const situation = {
    friends: [{ name: "goblin", distance: 3, in_combat: true }, { name: "orc", distance: 8 }],
    target_points: [{ name: "the gate", distance: 5 }],
    shoot_target: "ranger",
  };
  const r = await s.ok("apply", { event: "activates", facts: { creature: "archer", situation }, dice: [1] });
  expect(attr(r.state, "archer", "stress") === 1, "one marker removed after the test");
  const orders = r.state.orders.map((o) => o.text);
  expect(orders[0] === "move towards orc with all its actions but the last", `goblin is in combat: ${orders}`);
  expect(orders[1] === "shoot at ranger with its last action", `then shoots: ${orders}`);
  expect(r.log.some((l) => l.type === "order"), "the orders are in the log");
  await s.close();
}

const binary = process.argv[2] ?? join(ROOT, "target", "debug", "mettle");
try {
  await engagement(binary);
  await reaction(binary);
  console.log("node drive: 2 passed, 0 failed");
} catch (e) {
  console.error(e.message);
  process.exit(1);
}
