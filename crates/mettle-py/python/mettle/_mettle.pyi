"""Type stubs of mettle's compiled module; `mettle` re-exports every name."""

import enum
from fractions import Fraction
from os import PathLike
from typing import Any, Callable, Iterable, Mapping, Optional, Sequence, Union

__version__: str

#: What Python gives mettle as a value: a number, yes/no, a name read through the ruleset's types
#: (or an entity's name), an entity, none, or host data.
Value = Union[int, bool, str, "Entity", None, Mapping[str, Any], Sequence[Any]]
#: A chance: exact, or estimated by seeded runs.
Chance = Union[Fraction, "Estimate"]
Budget = Mapping[str, int]

class MettleError(Exception):
    """A failure of mettle; `str()` is the rendered report."""

    code: Optional[str]
    """The first error's stable code, such as `mettle::run::unknown_event`."""
    message: Optional[str]
    help: Optional[str]
    diagnostics: list[Diagnostic]

class RulesetError(MettleError):
    """A ruleset that does not load."""

class Label:
    """A labelled place of a diagnostic."""

    text: str
    primary: bool
    line: int
    """From 1."""
    column: int
    """In UTF-8 bytes, from 1."""
    column_utf16: int
    start: int
    """Byte offset in the file."""
    end: int

class Diagnostic:
    """An error or warning with a stable code, help and labels."""

    severity: str
    """`"error"` or `"warning"`."""
    code: str
    message: str
    help: Optional[str]
    file: Optional[str]
    line: Optional[int]
    column: Optional[int]
    labels: list[Label]

class Entity:
    """An entity of a session: its id is stable for the session's life."""

    id: int
    name: str

class Estimate:
    """A chance estimated from seeded runs, with its 95% interval."""

    probability: float
    hits: int
    runs: int
    low: float
    high: float
    def __float__(self) -> float: ...

class Odds:
    """The answer to an odds question."""

    question: str
    exact: bool
    """Whether every chance is an exact `Fraction`."""
    reason: Optional[str]
    """Why the chances are estimates; `None` when exact."""
    outcomes: dict[str, Chance]
    """Each outcome's chance, in the rules' order."""
    values: dict[str, dict[int, Fraction]]
    """The distribution of each value (`total`, `margin`, a dice expression's `value`)."""
    effects: dict[str, dict[str, Chance]]
    """What the check does to who makes it: each attribute its outcomes change (`unit.resolve_next`),
    with the chance of each value it is left with (`yes`, `no`, `2`)."""
    unfollowed: dict[str, tuple[Chance, str]]
    """The attributes whose effects some rolls could not be followed for: their chance, and why."""
    def __getitem__(self, outcome: str) -> Chance: ...
    def to_json(self) -> dict[str, Any]:
        """The report as `mettle odds --json` writes it."""

class Row:
    """One row of a sweep."""

    set: dict[str, Any]
    odds: Odds

class ScenarioResult:
    """One scenario run by `Ruleset.test()`."""

    scenario: str
    ok: bool
    passed: int
    """Expectations that held."""
    failures: list[str]
    error: Optional[Diagnostic]
    log: str

class Ruleset:
    """A loaded, checked ruleset; cheap to share between threads."""

    name: str
    text: str
    scenarios: list[str]
    checks: list[str]
    @staticmethod
    def load(
        path: Union[str, PathLike[str]],
        *,
        budget: Optional[Budget] = None,
        options: Optional[Mapping[str, Union[str, int, bool]]] = None,
    ) -> Ruleset:
        """Loads a ruleset file (scripts from its folder). Raises `RulesetError`."""
    @staticmethod
    def from_text(
        text: str,
        *,
        name: str = "ruleset.mettle",
        scripts: Optional[Mapping[str, str]] = None,
        budget: Optional[Budget] = None,
        options: Optional[Mapping[str, Union[str, int, bool]]] = None,
    ) -> Ruleset:
        """Loads a ruleset from text; `scripts` gives its script files by name."""
    def check(self) -> list[Diagnostic]:
        """Warnings, and outcomes no roll can reach."""
    def outline(self) -> dict[str, Any]:
        """What `mettle export` writes."""
    def session(self, seed: int = 0) -> Session: ...
    def odds(
        self,
        check: str,
        /,
        *,
        options: Optional[Mapping[str, Value]] = None,
        made_by: Optional[Mapping[str, Value]] = None,
        seed: int = 0,
        budget: Optional[Budget] = None,
        **inputs: Value,
    ) -> Odds:
        """The exact odds of a check (an estimate, saying why, when exact is out of reach)."""
    def sweep(
        self,
        check: str,
        /,
        over: Mapping[str, Iterable[Value]],
        *,
        over_options: Optional[Mapping[str, Iterable[Value]]] = None,
        options: Optional[Mapping[str, Value]] = None,
        made_by: Optional[Mapping[str, Value]] = None,
        seed: int = 0,
        budget: Optional[Budget] = None,
        **inputs: Value,
    ) -> list[Row]:
        """The odds for every combination of the swept values, the last name turning fastest."""
    def simulate(
        self,
        scenario: Optional[str] = None,
        /,
        *,
        check: Optional[str] = None,
        runs: int = 10000,
        seed: int = 0,
        threads: int = 0,
        inputs: Optional[Mapping[str, Value]] = None,
        made_by: Optional[Mapping[str, Value]] = None,
        budget: Optional[Budget] = None,
    ) -> dict[str, Any]:
        """Plays a scenario (or rolls a check) many times on `threads` threads, the GIL released."""
    def test(self, seed: int = 0) -> list[ScenarioResult]:
        """Runs every scenario."""
    def card(self, format: str = "html") -> str:
        """The reference card, `"html"` or `"markdown"`."""

class Reply(enum.Enum):
    """What a question callable returns instead of an answer."""

    DEFAULT = ...
    WAIT = ...

Outcome = dict[str, Any]
Question = dict[str, Any]

class Session:
    """One game over a ruleset."""

    question: Optional[Question]
    """The question the waiting action asks."""
    def __init__(self, ruleset: Ruleset, seed: int = 0) -> None: ...
    @staticmethod
    def restore(ruleset: Ruleset, saved: str, *, adapt: bool = False) -> Session: ...
    def save(self, *, log: bool = True) -> str: ...
    def create(self, kind: str, name: str, /, **attributes: Value) -> Entity: ...
    def entity(self, name: str) -> Optional[Entity]: ...
    def entities(self) -> list[Entity]: ...
    def get(self, entity: Union[Entity, str], attribute: str) -> Any: ...
    def apply(self, event: str, /, **facts: Value) -> Outcome: ...
    def roll(self, check: str, /, subject: Union[Entity, str, None] = None, **inputs: Value) -> Outcome: ...
    def set_attribute(self, entity: Union[Entity, str], attribute: str, value: Value) -> Outcome: ...
    def remove(self, entity: Union[Entity, str]) -> Outcome: ...
    def set_option(self, name: str, value: Value) -> None: ...
    def answer(self, choice: str, value: Value) -> None: ...
    def resume(self) -> Outcome: ...
    def abandon(self) -> Question: ...
    def set_chooser(self, chooser: Optional[Callable[[Question], Union[Value, Reply]]]) -> None: ...
    def set_dice(self, dice: Optional[Callable[[Union[int, list[int]], str], int]]) -> None: ...
    def force_dice(self, faces: Sequence[int]) -> None: ...
    def observe(self, observer: Callable[[dict[str, Any]], object]) -> int: ...
    def unobserve(self, id: int) -> bool: ...
    def odds(self, check: str, /, subject: Union[Entity, str, None] = None, seed: int = 0, **inputs: Value) -> Odds: ...
    def state(self) -> dict[str, Any]: ...
    def log(self) -> list[dict[str, Any]]: ...
    def log_text(self) -> str: ...
    def answers(self) -> list[dict[str, Any]]: ...
    def clear_answers(self) -> None: ...

def format(text: str) -> str:
    """A ruleset's text in `mettle fmt`'s layout."""

def odds_dice(expr: str, *, seed: int = 0, budget: Optional[Budget] = None) -> Odds:
    """The odds of a dice expression such as `"4d6kh3"` or `"2d6 + 1 >= 8"`."""
