"""mettle: a rules language for tabletop morale systems.

Load a ruleset, ask exact odds (as :class:`fractions.Fraction`), simulate, run its scenarios, or
play a game with a :class:`Session`. Everything is computed by the Rust library; this package only
converts values and errors.
"""

from ._mettle import (
    Diagnostic,
    Entity,
    Estimate,
    Label,
    MettleError,
    Odds,
    Reply,
    Row,
    Ruleset,
    RulesetError,
    ScenarioResult,
    Session,
    __version__,
    format,
    odds_dice,
)

__all__ = [
    "Diagnostic",
    "Entity",
    "Estimate",
    "Label",
    "MettleError",
    "Odds",
    "Reply",
    "Row",
    "Ruleset",
    "RulesetError",
    "ScenarioResult",
    "Session",
    "__version__",
    "format",
    "odds_dice",
]
