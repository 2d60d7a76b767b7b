"""Odds from Python are exact Fractions equal to the native command's `--json` fractions."""

from fractions import Fraction

import pytest

import mettle
from conftest import ROOT, native_json

FRONTIERS = ROOT / "rulesets" / "infinite_frontiers.mettle"


def fractions_of(doc):
    """The outcomes and distributions of an odds document, as Fractions."""
    outcomes = {o["outcome"]: Fraction(o["exact"]) for o in doc["outcomes"]}
    # Python leaves out the values that cannot come up.
    values = {
        v["name"]: {p["value"]: Fraction(p["exact"]) for p in v["distribution"] if Fraction(p["exact"])}
        for v in doc["values"]
    }
    return outcomes, values


@pytest.mark.parametrize("spi", [0, 3, 6])
def test_check_odds_equal_the_command(spi):
    rules = mettle.Ruleset.load(FRONTIERS)
    odds = rules.odds("morale", spi=spi)
    assert odds.exact and odds.reason is None
    assert all(isinstance(p, Fraction) for p in odds.outcomes.values())
    assert sum(odds.outcomes.values()) == 1
    assert (odds.outcomes, odds.values) == fractions_of(native_json("odds", str(FRONTIERS), "morale", "--set", f"spi={spi}"))
    assert odds["broken"] == Fraction(1, 6)


def test_options_change_the_odds_as_the_command_does():
    rules = mettle.Ruleset.load(FRONTIERS)
    plain = rules.odds("morale", spi=2, comms=True)
    dice = rules.odds("morale", spi=2, comms=True, options={"bonus_die": "extra_d6"})
    assert plain.outcomes != dice.outcomes
    native = native_json(
        "odds", str(FRONTIERS), "morale", "--set", "spi=2", "--set", "comms=yes", "--option", "bonus_die=extra_d6"
    )
    assert (dice.outcomes, dice.values) == fractions_of(native)
    loaded = mettle.Ruleset.load(FRONTIERS, options={"bonus_die": "extra_d6"})
    assert loaded.odds("morale", spi=2, comms=True).outcomes == dice.outcomes


@pytest.mark.parametrize("expr", ["4d6kh3", "2d6 + 3 >= 8", "10d6cs<=3", "3d6x>=5", "2d6r1"])
def test_dice_odds_equal_the_command(expr):
    odds = mettle.odds_dice(expr)
    assert (odds.outcomes, odds.values) == fractions_of(native_json("odds", "--dice", expr))


def test_a_comparison_has_yes_and_no():
    odds = mettle.odds_dice("2d6 >= 11")
    assert odds.outcomes == {"yes": Fraction(3, 36), "no": Fraction(33, 36)}
    assert odds.values == {}


def test_estimates_say_so_and_carry_intervals():
    odds = mettle.odds_dice("4d6xkh3 >= 15", seed=3)
    assert not odds.exact and "explode" in odds.reason
    yes = odds["yes"]
    assert isinstance(yes, mettle.Estimate)
    assert yes.low < yes.probability < yes.high and yes.runs > 1000 and 0 < yes.hits < yes.runs
    assert float(yes) == yes.probability
    assert mettle.odds_dice("4d6xkh3 >= 15", seed=3)["yes"].hits == yes.hits, "seeded"
    native = native_json("odds", "--dice", "4d6xkh3 >= 15", "--seed", "3")
    assert native["outcomes"][0]["hits"] == yes.hits


def test_a_sweep_returns_rows():
    rules = mettle.Ruleset.load(FRONTIERS)
    rows = rules.sweep("morale", {"spi": range(0, 7)}, over_options={"bonus_die": ["flat_plus_one", "extra_d6"]}, comms=True)
    assert len(rows) == 14
    assert [(r.set["spi"], r.set["bonus_die"]) for r in rows[:3]] == [(0, "flat_plus_one"), (0, "extra_d6"), (1, "flat_plus_one")]
    for r in rows:
        one = rules.odds("morale", spi=r.set["spi"], comms=True, options={"bonus_die": r.set["bonus_die"]})
        assert r.odds.outcomes == one.outcomes
    steady = [r.odds["steady"] for r in rows if r.set["bonus_die"] == "flat_plus_one"]
    assert steady == sorted(steady), "more spirit, steadier"


def test_odds_in_a_session_read_its_state():
    rules = mettle.Ruleset.load(FRONTIERS)
    s = rules.session(seed=1)
    s.create("side", "a")
    y = s.create("unit", "y", side="a", spi=3)
    before = s.state()
    odds = s.odds("morale", y, spi=3)
    assert odds["broken"] == Fraction(1, 6)
    assert s.state() == before, "asking changes nothing"


def test_odds_to_json_is_the_wire_document():
    doc = mettle.odds_dice("2d6").to_json()
    assert doc["exact"] is True and doc["values"][0]["distribution"][0]["exact"] == "1/36"


@pytest.mark.parametrize("reading", ["a_six", "seven_sixes"])
def test_effects_equal_the_command(reading):
    rules = mettle.Ruleset.load(FRONTIERS)
    odds = rules.odds("morale", spi=3, options={"resolve_needs": reading})
    native = native_json("odds", str(FRONTIERS), "morale", "--set", "spi=3", "--option", f"resolve_needs={reading}")
    assert odds.effects == {e["target"]: {v["value"]: Fraction(v["exact"]) for v in e["values"]} for e in native["effects"]}
    resolve = odds.effects["unit.resolve_next"]
    assert resolve.get("yes", 0) == (Fraction(1, 6) if reading == "a_six" else 0)
    assert sum(resolve.values()) == 1 and odds.unfollowed == {}
