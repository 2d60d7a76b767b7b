"""mettle's exact dice odds equal icepool's, as fractions, on sums, keep-highest pools, explosions,
rerolls and success counts."""

from fractions import Fraction

import icepool
import pytest
from icepool import d4, d6, d8, d10, d12, d20

import mettle


def dist(die):
    """An icepool die as {value: Fraction}."""
    total = die.denominator()
    return {int(v): Fraction(q, total) for v, q in die.items() if q}


def successes(die, n, at_least):
    return n @ (die >= at_least)


# mettle's notation, and the same dice in icepool's. Explosions and rerolls stop after 100 extra
# dice per die in mettle, so icepool's depth is 100.
CASES = [
    ("d6", d6),
    ("2d6", 2 @ d6),
    ("3d6", 3 @ d6),
    ("d20 + 5", d20 + 5),
    ("2d10 - 3", 2 @ d10 - 3),
    ("d4 + d8", d4 + d8),
    ("d12 + d6 + 2", d12 + d6 + 2),
    ("10d6", 10 @ d6),
    ("4d6kh3", d6.pool(4).highest(3).sum()),
    ("3d6kh1", d6.pool(3).highest(1).sum()),
    ("2d20kh1", d20.pool(2).highest(1).sum()),
    ("2d20kl1", d20.pool(2).lowest(1).sum()),
    ("5d10kh2", d10.pool(5).highest(2).sum()),
    ("4d6kl3", d6.pool(4).lowest(3).sum()),
    ("d6x", d6.explode(depth=100)),
    ("2d6x", 2 @ d6.explode(depth=100)),
    ("d10x", d10.explode(depth=100)),
    ("3d6x>=5", 3 @ d6.explode([5, 6], depth=100)),
    ("5d10cs>=8", 5 @ (d10 >= 8)),
    ("6d6cs>=5", 6 @ (d6 >= 5)),
    ("10d6cs<=3", 10 @ (d6 <= 3)),
    ("8d10cs10", 8 @ (d10 == 10)),
    ("2d6r1", 2 @ d6.reroll([1], depth=100)),
    ("2d6ro<3", 2 @ d6.reroll([1, 2], depth=1)),
]


def test_there_are_at_least_twenty():
    assert len(CASES) >= 20


@pytest.mark.parametrize("expr,die", CASES, ids=[c[0] for c in CASES])
def test_equal_to_icepool(expr, die):
    odds = mettle.odds_dice(expr)
    assert odds.exact, odds.reason
    assert odds.values["value"] == dist(die)


@pytest.mark.parametrize(
    "expr,die,at_least",
    [("2d6 >= 8", 2 @ d6, 8), ("d20 + 5 >= 15", d20 + 5, 15), ("4d6kh3 >= 15", d6.pool(4).highest(3).sum(), 15)],
)
def test_comparisons_equal_to_icepool(expr, die, at_least):
    odds = mettle.odds_dice(expr)
    assert odds["yes"] == Fraction(die.probability(">=", at_least))


def test_icepool_version():
    assert icepool.__version__
