#!/usr/bin/env python3
"""Drives `mettle serve` from Python (standard library only): an Infinite Frontiers engagement and a
Shadow Deep reaction, every reply checked against schemas/serve-reply.json.

    python3 tests/drive/frontiers.py [path/to/mettle]

Run from anywhere; the repository is found from this file. Exits 0 when every step went as the rules
say, 1 with the first difference otherwise."""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
import schema_check  # noqa: E402

REPLY = schema_check.load(os.path.join(ROOT, "schemas", "serve-reply.json"))
REQUEST = schema_check.load(os.path.join(ROOT, "schemas", "serve-request.json"))


class Server:
    """One `mettle serve` process, a request and a reply at a time."""

    def __init__(self, binary, *args):
        self.p = subprocess.Popen(
            [binary, "serve", *args], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.next_id = 0

    def send(self, method, **params):
        """The reply to one request, checked against the schemas; `ok` or `error`."""
        self.next_id += 1
        request = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        self.p.stdin.write(json.dumps(request) + "\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        if not line:
            raise SystemExit(f"mettle serve ended before answering {method}")
        reply = json.loads(line)
        problems = schema_check.errors(REPLY, reply)
        if problems:
            raise SystemExit(f"{method}: the reply does not fit serve-reply.json: {problems[:5]}")
        if reply["id"] != self.next_id:
            raise SystemExit(f"{method}: reply id {reply['id']}, not {self.next_id}")
        if "result" in reply:
            problems = schema_check.errors(REQUEST, request)
            if problems:
                raise SystemExit(f"{method}: the request does not fit serve-request.json: {problems[:5]}")
        return reply

    def ok(self, method, **params):
        reply = self.send(method, **params)
        if "error" in reply:
            raise SystemExit(f"{method} {params}: {reply['error']}")
        result = reply["result"]
        expect(result["mettle"]["schema"] == 1, "every result names its schema")
        return result

    def fails(self, method, code, **params):
        reply = self.send(method, **params)
        expect("error" in reply, f"{method} {params} is refused")
        expect(reply["error"]["code"] == code, f"{method}: code {reply['error']['code']}, not {code}")
        return reply["error"]["data"]["errors"][0]

    def close(self):
        self.p.stdin.close()
        expect(self.p.wait(timeout=30) == 0, "mettle serve ends cleanly when its input ends")


def expect(cond, what):
    if not cond:
        raise SystemExit(f"FAILED: {what}")


def attr(state, entity, name):
    e = next(e for e in state["entities"] if e["name"] == entity)
    return next(a["value"] for a in e["attributes"] if a["name"] == name)


def checks(log, check):
    return [line for line in log if line["type"] == "check" and line["check"] == check]


def engagement(binary):
    """Infinite Frontiers: sides a and b, an Action Point spent on Steadying, a unit outnumbered in
    melee, a unit destroyed and its friends' morale, the round's end; undo, save and restore; the odds
    and a simulated firefight."""
    s = Server(binary, "--seed", "11", "--root", "rulesets")
    loaded = s.ok("load", file="infinite_frontiers.mettle")
    expect("morale" in loaded["checks"] and "assign_ap" in loaded["events"], "the ruleset's names")
    for side in ("a", "b"):
        s.ok("create", kind="side", name=side)
    s.ok("create", kind="unit", name="v", **{"with": {"side": "a", "spi": 1}})
    s.ok("create", kind="unit", name="b1", **{"with": {"side": "b"}})
    s.ok("create", kind="unit", name="b2", **{"with": {"side": "b"}})
    s.ok("apply", event="turn_start")

    # Side a, with fewer units, receives an AP and gives it to v.
    s.ok("answer", choice="holder", value="v")
    r = s.ok("apply", event="assign_ap", facts={"side": "a"})
    expect(attr(r["state"], "v", "ap") == 1, "v holds the Action Point")
    choice = [line for line in r["log"] if line["type"] == "choice"]
    expect(choice and choice[0]["answer"] == "v", "the answer is logged, the entity by name")
    # y joins side a.
    s.ok("create", kind="unit", name="y", **{"with": {"side": "a", "spi": 3, "max_hp": 4, "hp": 4}})

    # A friend is destroyed near v: a 2 + SPI 1 fails, but the AP spent on Steadying keeps it Steady.
    s.ok("answer", choice="ap_use", value="steadying")
    r = s.ok("apply", event="friend_destroyed", facts={"unit": "v", "distance": 4, "in_sight": True}, dice=[2])
    morale = checks(r["log"], "morale")[-1]
    expect(morale["outcome"] == "shaken" and morale["total"] == 3, "2 + 1 = 3 fails")
    expect(attr(r["state"], "v", "morale") == "steady", "the AP prevented Shaken")
    expect(attr(r["state"], "v", "ap") == 0, "the AP is spent")

    # y, engaged by two, rolls a 4: the rules first ask how an AP is used, and wait for the answer;
    # answered `keep`, the event goes on: 4 + SPI 3 = 7 passes.
    r = s.ok("apply", event="engaged", facts={"unit": "y", "enemies": 2}, dice=[4])
    q = r["outcome"]["question"]
    expect(q and q["choice"] == "ap_use" and q["default"] == "keep", f"the AP's use is asked: {q}")
    expect(attr(r["state"], "y", "morale") == "steady" and not r["log"], "nothing is done while it waits")
    r = s.ok("answer", choice="ap_use", value="keep")
    expect(r["outcome"]["question"] is None, "answered, the event ran to its end")
    morale = checks(r["log"], "morale")[-1]
    spi = next(i["value"] for i in morale["inputs"] if i["name"] == "spi")
    expect((spi, morale["total"], morale["target"], morale["outcome"]) == (3, 7, 7, "steady"), "4 + 3 = 7")
    expect(attr(r["state"], "y", "morale") == "steady", "y stays Steady")

    # The odds of y's next check, exactly; asking changes nothing.
    before = s.ok("state")["state"]
    odds = s.ok("odds", check="morale", set={"spi": 3}, **{"for": "y"})["odds"]
    chances = {o["outcome"]: o["exact"] for o in odds["outcomes"]}
    expect(chances["broken"] == "1/6", f"a natural 1 in 6 breaks: {chances}")
    expect(abs(sum(o["probability"] for o in odds["outcomes"]) - 1) < 1e-9, "the chances add up to 1")
    expect(s.ok("state")["state"] == before, "odds leave the game as it was")

    # A bad request is refused and changes nothing.
    e = s.fails("aply", -32601)
    expect(e["help"] == "did you mean `apply`?", "did you mean")
    s.fails("apply", -32602, event="wounded", facts={"unit": "y", "loss": "four"})
    s.fails("apply", 2, event="wounded", facts={"unit": "yy", "loss": 1})
    expect(s.ok("state")["state"] == before, "refused requests changed nothing")

    # y is hit for 4 and leaves the field, testing nothing; which friends saw it is the host's to say.
    r = s.ok("apply", event="wounded", facts={"unit": "y", "loss": 4})
    expect(attr(r["state"], "y", "hp") == 0, "y is down")
    expect(attr(r["state"], "y", "on_field") is False, "y leaves the field")
    expect(checks(r["log"], "morale") == [], "a destroyed unit takes no morale check")

    # Undo takes the hit back; the log is cut back with it.
    length = s.ok("log")["length"]
    r = s.ok("undo")
    expect(attr(r["state"], "y", "hp") == 4, "undo puts y back")
    expect(s.ok("log")["length"] < length, "and cuts the log back")

    # Save, play on, restore.
    saved = s.ok("save")["save"]
    s.ok("apply", event="turn_end")
    r = s.ok("apply", event="round_end")
    expect(all(attr(r["state"], side, "ap") == 0 for side in ("a", "b")), "APs never carry over")
    r = s.ok("restore", save=saved)
    expect(r["state"] == before, "restored to before the hit")

    # The whole engagement, simulated.
    sim = s.ok("sim", scenario="firefight", runs=200, seed=5)
    expect(sum(e["count"] for e in sim["results"]) + sim["errors"] == 200, "every run ends somewhere")
    s.close()


def reaction(binary):
    """Shadow Deep: an archer with two stress markers rolls a 1 at activation, fails, loses a marker,
    and reacts to the table the host describes as data."""
    s = Server(binary, "--root", "rulesets")
    s.ok("load", file="shadow_deep_stress.mettle")
    s.ok("create", kind="creature", name="archer", **{"with": {"stress": 2, "missile": True}})
    situation = {
        "friends": [{"name": "goblin", "distance": 3, "in_combat": True}, {"name": "orc", "distance": 8}],
        "target_points": [{"name": "the gate", "distance": 5}],
        "shoot_target": "ranger",
    }
    r = s.ok("apply", event="activates", facts={"creature": "archer", "situation": situation}, dice=[1])
    expect(attr(r["state"], "archer", "stress") == 1, "one marker removed after the test")
    orders = [o["text"] for o in r["state"]["orders"]]
    expect(orders[0] == "move towards orc with all its actions but the last", f"goblin is in combat: {orders}")
    expect(orders[1] == "shoot at ranger with its last action", f"then shoots: {orders}")
    facts = next(line for line in r["log"] if line["type"] == "event")["facts"]
    # The log keeps a data fact as data (without the fields that hold their shape's defaults).
    fact = facts[1]["value"]
    expect(isinstance(fact, dict) and fact["friends"][1] == {"distance": 8, "name": "orc"}, f"the data fact: {facts[1]}")
    e = s.fails("apply", 2, event="activates", facts={"creature": "archer", "situaton": situation})
    expect(e["code"] == "mettle::value::unknown_field" and e["help"] == "did you mean `situation`?", str(e))
    s.close()


if __name__ == "__main__":
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "debug", "mettle")
    engagement(binary)
    reaction(binary)
    print("python drive: 2 passed, 0 failed")
