"""A game played from Python: entities, events with Python data, questions answered or suspended,
dice and observers as callables, what an action did, save and restore; and seeded rolls equal to
the native command's."""

import pytest

import mettle
from conftest import ROOT, native_json

FRONTIERS = ROOT / "rulesets" / "infinite_frontiers.mettle"
SHADOW = ROOT / "rulesets" / "shadow_deep_stress.mettle"

SMALL = """
kind unit { hp: 0..9 = 6  stance: hold | charge = hold  leader: unit }
event hit(unit: unit, n: 0..9 = 2)
event order(unit: unit)
check save { roll d6  outcome saved when total >= 5  otherwise lost }
on hit { roll save  if last save is lost { remove n from unit.hp  note "a wound" } }
on order { choose plan "Hold or charge?" from hold | charge default hold  set unit.stance to plan }
"""


@pytest.fixture
def small():
    return mettle.Ruleset.from_text(SMALL, name="small.mettle")


@pytest.mark.parametrize("seed", [0, 7, 2026])
def test_seeded_rolls_equal_the_command(tmp_path, seed):
    path = tmp_path / "c.mettle"
    path.write_text("check c { roll 3d6  target 11  outcome pass when total >= target  otherwise fail }\n")
    s = mettle.Ruleset.load(path).session(seed=seed)
    mine = s.roll("c")["checks"][0]
    native = native_json("roll", str(path), "c", "--seed", str(seed))
    assert (mine["total"], mine["outcome"]) == (native["total"], native["outcome"])
    assert [d["face"] for d in mine["pool"]["dice"]] == [d["face"] for d in native["pool"]["dice"]]


def test_entities_events_and_what_an_action_did(small):
    s = small.session(seed=1)
    boss = s.create("unit", "boss")
    u = s.create("unit", "u", hp=5, leader=boss)
    assert isinstance(u, mettle.Entity) and u.name == "u" and u != boss
    assert s.entity("u") == u and s.entity("nobody") is None
    assert s.get(u, "leader") == boss and s.get("u", "hp") == 5
    s.force_dice([2])
    done = s.apply("hit", unit=u, n=3)
    assert done["checks"][0]["outcome"] == "lost"
    change = done["changes"][0]
    assert (change["entity"], change["attribute"], change["before"], change["after"]) == ("u", "hp", 5, 2)
    assert done["notes"][0]["text"] == "a wound"
    assert s.get(u, "hp") == 2
    s.set_attribute("u", "hp", 9)
    assert s.get(u, "hp") == 9
    s.remove(boss)
    assert s.get(u, "leader") is None
    assert [e.name for e in s.entities()] == ["u"]
    assert "u.hp" in s.log_text()
    assert any(line["type"] == "check" for line in s.log())


def test_a_question_answered_by_a_callable(small):
    s = small.session()
    u = s.create("unit", "u")
    asked = []

    def choose(q):
        asked.append(q)
        return "charge"

    s.set_chooser(choose)
    s.apply("order", unit=u)
    assert s.get(u, "stance") == "charge"
    assert asked[0]["choice"] == "plan" and asked[0]["options"] == ["hold", "charge"]
    s.set_chooser(lambda q: mettle.Reply.DEFAULT)
    s.apply("order", unit=u)
    assert s.get(u, "stance") == "hold"


def test_a_question_suspended_and_resumed(small):
    s = small.session()
    u = s.create("unit", "u")
    s.set_chooser(lambda q: mettle.Reply.WAIT)
    stopped = s.apply("order", unit=u)
    q = stopped["question"]
    assert q["choice"] == "plan" and q["options"] == ["hold", "charge"] and q["default"] == "hold"
    assert q["asker"] == u
    assert stopped["changes"] == [] and s.question["choice"] == "plan"
    s.answer("plan", "charge")
    done = s.resume()
    assert done["question"] is None and s.question is None
    assert s.get(u, "stance") == "charge"
    # Abandoned, the action does nothing.
    s.apply("order", unit=u)
    assert s.abandon()["choice"] == "plan"
    assert s.question is None and s.get(u, "stance") == "charge"


def test_an_engagement_with_entity_answers():
    rules = mettle.Ruleset.load(FRONTIERS)
    s = rules.session(seed=11)
    for side in ("a", "b"):
        s.create("side", side)
    v = s.create("unit", "v", side="a", spi=1)
    s.create("unit", "b1", side="b")
    s.create("unit", "b2", side="b")
    s.apply("turn_start")
    s.set_chooser(lambda q: mettle.Reply.WAIT)
    stopped = s.apply("assign_ap", side="a")
    q = stopped["question"]
    assert q["choice"] == "holder" and v in q["options"]
    s.answer("holder", v)
    s.resume()
    assert s.get(v, "ap") == 1


def test_shaped_facts_from_python_data():
    rules = mettle.Ruleset.load(SHADOW)
    s = rules.session()
    archer = s.create("creature", "archer", stress=2, missile=True)
    situation = {
        "friends": [{"name": "goblin", "distance": 3, "in_combat": True}, {"name": "orc", "distance": 8}],
        "target_points": [{"name": "the gate", "distance": 5}],
        "shoot_target": "ranger",
    }
    s.force_dice([1])
    s.apply("activates", creature=archer, situation=situation)
    assert s.get(archer, "stress") == 1
    orders = [o["text"] for o in s.state()["orders"]]
    assert orders[0] == "move towards orc with all its actions but the last"
    with pytest.raises(mettle.MettleError) as e:
        s.apply("activates", creature=archer, situation={"friends": "none"})
    assert e.value.code.startswith("mettle::")


def test_dice_from_a_callable(small):
    s = small.session()
    u = s.create("unit", "u")
    asked = []

    def dice(sides, notation):
        asked.append((sides, notation))
        return 1

    s.set_dice(dice)
    s.apply("hit", unit=u)
    assert asked == [(6, "d6")] and s.get(u, "hp") == 4
    s.set_dice(lambda sides, notation: 7)
    with pytest.raises(mettle.MettleError) as e:
        s.apply("hit", unit=u)
    assert e.value.code == "mettle::dice::bad_face"
    s.set_dice(None)
    s.force_dice([6])
    s.apply("hit", unit=u)
    assert s.get(u, "hp") == 4


def test_observers_hear_changes(small):
    s = small.session()
    heard = []
    id_ = s.observe(heard.append)
    u = s.create("unit", "u")
    s.force_dice([1])
    s.apply("hit", unit=u)
    assert heard[0]["type"] == "created" and heard[0]["entity"] == u
    assert (heard[1]["attribute"], heard[1]["before"], heard[1]["after"]) == ("hp", 6, 4)
    assert s.unobserve(id_) and not s.unobserve(id_)


class Boom(Exception):
    pass


def boom(*_):
    raise Boom("no")


@pytest.mark.parametrize("where", ["chooser", "dice", "observer"])
def test_a_callable_that_raises_leaves_the_session_as_it_was(small, where):
    s = small.session(seed=3)
    u = s.create("unit", "u")
    s.force_dice([1])
    s.apply("hit", unit=u)
    saved = s.save()
    if where == "chooser":
        s.set_chooser(boom)
        act = lambda: s.apply("order", unit=u)  # noqa: E731
    elif where == "dice":
        s.set_dice(boom)
        act = lambda: s.apply("hit", unit=u)  # noqa: E731
    else:
        s.observe(boom)
        act = lambda: s.apply("hit", unit=u, n=1)  # noqa: E731
    with pytest.raises(Boom):
        act()
    assert s.save() == saved
    assert s.question is None


def test_a_callable_cannot_reach_into_its_busy_session(small):
    s = small.session()
    u = s.create("unit", "u")
    s.set_chooser(lambda q: s.get(u, "hp"))
    with pytest.raises(mettle.MettleError) as e:
        s.apply("order", unit=u)
    assert e.value.code == "mettle::py::busy"
    assert s.get(u, "stance") == "hold"


def test_save_and_restore(small):
    a = small.session(seed=9)
    u = a.create("unit", "u")
    a.apply("hit", unit=u)
    b = mettle.Session.restore(small, a.save())
    assert b.state() == a.state()
    assert a.roll("save")["checks"][0]["total"] == b.roll("save")["checks"][0]["total"]
    without = mettle.Session.restore(small, a.save(log=False))
    assert without.log() == []
    edited = mettle.Ruleset.from_text(SMALL.replace("hp: 0..9 = 6", "hp: 0..7 = 6"), name="small.mettle")
    with pytest.raises(mettle.MettleError) as e:
        mettle.Session.restore(edited, a.save())
    assert e.value.code == "mettle::save::changed_rules"
    assert mettle.Session.restore(edited, a.save(), adapt=True).get("u", "hp") == a.get("u", "hp")
    with pytest.raises(mettle.MettleError):
        mettle.Session.restore(small, "{not json")


def test_simulate_uses_threads_and_is_seeded():
    rules = mettle.Ruleset.load(FRONTIERS)
    one = rules.simulate("firefight", runs=200, seed=5, threads=1)
    two = rules.simulate("firefight", runs=200, seed=5, threads=2)
    assert one["results"] == two["results"] and one["runs"] == 200
    assert sum(r["count"] for r in one["results"]) + one["errors"] == 200
    check = rules.simulate(check="morale", runs=500, seed=1, inputs={"spi": 3})
    assert sum(r["count"] for r in check["results"]) == 500
    with pytest.raises(mettle.MettleError):
        rules.simulate("no_such_scenario", runs=10)
