"""Failures are Python exceptions with the diagnostic's code; broken and hostile inputs never take
the interpreter down; budgets apply, per call too."""

import pytest

import mettle

BROKEN = """kind unit { hp: 0..9 = 6 }
event hit(unit: unit)
on hit { remove 2 from unit.hpp }
"""


def test_a_broken_ruleset_raises_with_its_diagnostics():
    with pytest.raises(mettle.RulesetError) as e:
        mettle.Ruleset.from_text(BROKEN, name="broken.mettle")
    err = e.value
    assert isinstance(err, mettle.MettleError)
    d = err.diagnostics[0]
    assert err.code == d.code and d.code.startswith("mettle::")
    assert d.severity == "error" and d.message
    assert d.help and "hp" in d.help, "a did-you-mean"
    label = d.labels[0]
    assert label.primary and BROKEN[label.start : label.end].endswith("hpp")
    # Lines and columns count from 1, and agree with the byte range.
    line_start = BROKEN.rindex("\n", 0, label.start) + 1
    assert (d.line, d.column) == (label.line, label.column) == (3, label.start - line_start + 1)
    text = str(err)
    assert d.code in text and "broken.mettle" in text and "remove 2 from unit.hpp" in text, text


def test_a_missing_file_is_a_coded_error():
    with pytest.raises(mettle.RulesetError) as e:
        mettle.Ruleset.load("/nonexistent/nowhere.mettle")
    assert e.value.code.startswith("mettle::io::")


def test_runtime_errors_carry_codes_and_help():
    rules = mettle.Ruleset.from_text("kind unit { hp: 0..9 = 6 }\nevent hit(unit: unit)\non hit { remove 2 from unit.hp }")
    s = rules.session()
    u = s.create("unit", "u")
    with pytest.raises(mettle.MettleError) as e:
        s.apply("hti", unit=u)
    assert e.value.code == "mettle::run::unknown_event" and e.value.help == "did you mean `hit`?"
    with pytest.raises(mettle.MettleError) as e:
        s.set_attribute(u, "hp", 12)
    assert e.value.code == "mettle::run::out_of_range"
    assert s.get(u, "hp") == 6


@pytest.mark.parametrize(
    "text",
    [
        "",
        "kind",
        "(" * 5000,
        "kind unit { hp: 0..9 = 6 }\n" * 3,
        "check c { roll 999999999d999999999 otherwise x }",
        "\x00\xff\ud7ff" * 10,
        "kind unit { hp: 0..9223372036854775807 = 6 }",
    ],
)
def test_hostile_texts_fail_as_exceptions(text):
    try:
        mettle.Ruleset.from_text(text)
    except mettle.RulesetError as e:
        assert e.diagnostics and all(d.code.startswith("mettle::") for d in e.diagnostics)


def test_hostile_values_are_refused():
    rules = mettle.Ruleset.from_text("kind unit { hp: 0..9 = 6 }\nevent hit(unit: unit, n: 0..9)\non hit { remove n from unit.hp }")
    s = rules.session()
    u = s.create("unit", "u")
    with pytest.raises(OverflowError):
        s.apply("hit", unit=u, n=2**80)
    with pytest.raises(TypeError):
        s.apply("hit", unit=u, n=object())
    with pytest.raises(mettle.MettleError):
        s.apply("hit", unit=u, n="lots")
    with pytest.raises(mettle.MettleError):
        s.apply("hit", unit=u, n=-1)
    assert s.get(u, "hp") == 6, "nothing was done"
    with pytest.raises(mettle.MettleError):
        mettle.odds_dice("4d6kh")
    with pytest.raises(mettle.MettleError):
        mettle.format("kind {")


def test_budgets_apply_per_call():
    rules = mettle.Ruleset.from_text(
        """
        check big { roll 30d6  target 105  outcome high when total >= target  otherwise low }
        """
    )
    assert rules.odds("big").exact
    with pytest.raises(mettle.MettleError) as e:
        rules.odds("big", budget={"odds_work": 10})
    assert e.value.code == "mettle::odds::out_of_work"
    assert rules.odds("big").exact, "the budget was for that call only"
    with pytest.raises(mettle.MettleError) as e:
        rules.odds("big", budget={"no_such_budget": 1})
    assert e.value.code.startswith("mettle::")
    with pytest.raises(mettle.RulesetError) as e:
        mettle.Ruleset.from_text("kind unit { hp: 0..9 = 6 }", budget={"ruleset_bytes": 5})
    assert e.value.code == "mettle::io::too_large"
    with pytest.raises(mettle.MettleError) as e:
        mettle.odds_dice("100d6x", budget={"odds_work": 1000})
    assert e.value.code == "mettle::odds::out_of_work"
    rolled = mettle.odds_dice("4d6xkh3", budget={"odds_work": 50_000})
    assert not rolled.exact and "budget of work ran out" in rolled.reason


def test_the_steps_budget_stops_an_action_which_is_undone():
    rules = mettle.Ruleset.from_text(
        "kind unit { n: 0.. = 0 }\nevent tick(unit: unit)\non tick { add 1 to unit.n  add 1 to unit.n  add 1 to unit.n }",
        budget={"steps": 2},
    )
    s = rules.session()
    u = s.create("unit", "u")
    with pytest.raises(mettle.MettleError) as e:
        s.apply("tick", unit=u)
    assert e.value.code == "mettle::budget::steps"
    assert s.get(u, "n") == 0
