"""Every shipped ruleset loads from Python, checks, passes its scenarios, and makes a card."""

import pytest

import mettle
from conftest import ROOT, RULESETS


def test_the_shipped_rulesets_are_there():
    assert len(RULESETS) >= 5


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.name)
def test_each_loads_and_passes_its_scenarios(path):
    rules = mettle.Ruleset.load(path)
    assert rules.name.endswith(path.name)
    assert rules.scenarios, "every shipped ruleset has scenarios"
    results = rules.test()
    assert [r.scenario for r in results] == rules.scenarios
    failed = [(r.scenario, r.failures, r.error) for r in results if not r.ok]
    assert not failed, failed
    assert all(r.passed >= 0 and r.log for r in results)
    assert all(isinstance(d, mettle.Diagnostic) for d in rules.check())


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.name)
def test_each_makes_a_card_and_is_formatted(path):
    rules = mettle.Ruleset.load(path)
    html = rules.card(format="html")
    assert html.lstrip().lower().startswith("<!doctype html") and rules.checks[0] in html
    assert "# " in rules.card(format="markdown")
    assert mettle.format(rules.text) == rules.text, "the shipped rulesets are in mettle fmt's layout"
    with pytest.raises(ValueError):
        rules.card(format="pdf")


def test_from_text_with_scripts_in_memory():
    path = ROOT / "tests" / "inputs" / "scripts" / "uses_file.mettle"
    script = path.with_name("reactions.rhai").read_text()
    rules = mettle.Ruleset.from_text(path.read_text(), name=path.name, scripts={"reactions.rhai": script})
    assert rules.test()[0].ok
    with pytest.raises(mettle.RulesetError) as e:
        mettle.Ruleset.from_text(path.read_text(), name=path.name, scripts={})
    assert e.value.code == "mettle::script::unreadable"


def test_a_failing_scenario_says_what_failed():
    rules = mettle.Ruleset.from_text(
        """
        kind unit { hp: 0..9 = 6 }
        event hit(unit: unit)
        on hit { remove 2 from unit.hp }
        scenario wrong "two hits" {
          new unit u
          trigger hit(unit: u)
          expect u.hp == 5
        }
        scenario right "one hit" {
          new unit u
          trigger hit(unit: u)
          expect u.hp == 4
        }
        """
    )
    wrong, right = rules.test()
    assert (wrong.ok, right.ok) == (False, True)
    assert len(wrong.failures) == 1 and "u.hp == 5" in wrong.failures[0]
    assert right.passed == 1
