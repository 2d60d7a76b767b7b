//! The text of `:help` and its topics.

/// Help on `topic` (a command, with or without its colon, or `statements`), or the overview.
pub(super) fn help(topic: Option<&str>) -> String {
    let t = topic.map(|t| t.trim_start_matches(':'));
    match t {
        None => OVERVIEW.into(),
        Some("load") => ":load FILE\n  Load a ruleset file and start a fresh session over it.".into(),
        Some("reload") => ":reload\n  Read the file again (after you edit it), keep the definitions typed here, and move\n  the session over: units keep every attribute that still fits; whatever no longer fits\n  is named.".into(),
        Some("units") => ":units\n  Every unit (entity) in play with its attributes.".into(),
        Some("state") => ":state\n  Round, turn and seed, dice and answers waiting, timed changes, `let` values, units.".into(),
        Some("roll") => ":roll CHECK [for UNIT] name=value…\n  Roll a check by name. With `for UNIT` the unit makes it and the outcome applies to it.\n  Example: :roll morale for alpha spi=2 leadership=1".into(),
        Some("event") => ":event EVENT name=value…\n  Fire an event with its facts; units are given by name.\n  Example: :event damaged unit=alpha hp_lost=3".into(),
        Some("explain") => ":explain\n  The last roll or event in full: each rule that fired, the dice, every modifier, the\n  total against the target, the outcome, and the line of the rule behind each step.".into(),
        Some("seed") => ":seed N\n  Start the dice again from seed N (the same seed gives the same rolls).".into(),
        Some("option") | Some("options") => ":option [NAME VALUE]\n  The house-rule options the ruleset offers, with their values; with a name and a value,\n  play on under that reading (`:undo` takes it back).\n  Example: :option leadership_die extra_d6".into(),
        Some("undo") => ":undo\n  Take back the last step that changed something: an event, a roll, a statement, a\n  definition, a reload.".into(),
        Some("save") => ":save FILE, :save! FILE, :save FILE --no-log\n  Save the session as JSON: units, round, turn, the dice generator, the log, and what\n  was typed here. `:restore FILE` brings it back exactly. `:save` only writes over an\n  earlier save; `:save!` writes over any file. `--no-log` leaves the log out.".into(),
        Some("restore") => ":restore FILE, :restore! FILE\n  Restore a session saved with `:save` (or by a program through the library) over the\n  ruleset loaded now. Edits of comments, docs and rules' bodies since do not matter; a\n  change of the rules' structure (a range, a state, a kind...) is named and refused,\n  and `:restore!` carries the save over when every value in it still fits, with a\n  warning for each change.".into(),
        Some("odds") => ODDS.into(),
        Some("sim") => SIM.into(),
        Some("test") => ":test [SCENARIO]\n  Play the ruleset's scenarios (those typed here too), or the one named, each from a\n  fresh game with the REPL's seed, as `mettle test` does; the game here is unchanged.".into(),
        Some("card") => ":card [FILE]\n  The ruleset's quick-reference card: in Markdown here, or written to FILE (`.html` for\n  a page to print, `.md` for Markdown). An existing file is replaced only if it is a card.\n  Example: :card card.html".into(),
        Some("plot") => ":plot FILE.svg\n  Draw the last odds (`odds`, a sweep, a what-if or `:sim`) as an SVG chart.\n  Example: odds morale for alpha sweep spi 0..6   then   :plot spi.svg".into(),
        Some("quit") | Some("exit") => ":quit\n  Leave (Ctrl-D does too).".into(),
        Some("help") => ":help [TOPIC]\n  This help; topics are the commands, `statements` and `scripts`.".into(),
        Some("scripts") | Some("script") | Some("follow") => SCRIPTS.into(),
        Some("statements") | Some("language") => STATEMENTS.into(),
        Some(other) => format!("no help on `{other}`; try `:help` for the list"),
    }
}

const OVERVIEW: &str = "\
Type the language at the prompt:
  definitions   kind, event, check, on … – added to the ruleset
  statements    new unit alpha with spi = 2   trigger damaged(unit: alpha, hp_lost: 3)
                roll morale for alpha with spi = 2   set alpha.morale to shaken   let x = 2d6
                dice 3   answer holder = alpha   expect alpha.morale is shaken
  expressions   alpha.spi + 1   2d6 + 1   alpha (shows its attributes)
A block left open with `{` or `(` goes on on the next line.
Commands:
  :load FILE       load a ruleset            :reload          read the file again
  :units           units in play             :state           round, turn, dice, lets, units
  :roll CHECK …    roll a check by name      :event EVENT …   fire an event by name
  :explain         the last result in full   :seed N          restart the dice from N
  :undo            take back the last step   :save FILE       save the session (JSON)
  :restore FILE    bring a save back         :help [TOPIC]    help on a command
  :option [N V]    house rules, or pick one  :quit            leave (or Ctrl-D)
The workbench (`:help odds` for more):
  odds CHECK for UNIT [with N = V] [sweep N LO..HI]   exact odds of a unit's check, as it is now
  odds STATEMENT   what it would lead to     :sim N STEP      play a step N times from here
  :test [SCENARIO] play the scenarios        :card [FILE]     the ruleset's card
  :plot FILE.svg   chart the last odds";

const STATEMENTS: &str = "\
Statements run on the session as the steps of a scenario do:
  new KIND NAME [with attr = value, …]     create a unit
  trigger EVENT(fact: value, …)            fire an event; its rules run
  roll CHECK [for UNIT] [with input = value, …]
  set UNIT.ATTR to VALUE   add N to UNIT.ATTR   remove N from UNIT.ATTR
  let NAME = EXPRESSION                    kept for later lines
  dice 3, 5                                the next dice show these faces
  answer CHOICE = VALUE                    the answer the next time the choice is asked
  expect CONDITION                         says whether it holds
  follow REACTION(unit, {enemies: […]})    run a script reaction and apply its actions
  expect order \"move towards goblin\"       says whether the last reaction gave that order
  with chance 1/3 { … } otherwise { … }    a 3-sided die decides: the first block on a 1
  record \"turns taken\" = turn              a number for `mettle sim` to report
  option NAME = VALUE                      play on under another reading of a house rule
Names of units and `let` values stay known from line to line.";

const SCRIPTS: &str = "\
Rules written in Rhai live in `script { … }` blocks or `script \"file.rhai\"` files of the ruleset.
  NAME(values…) in an expression          a script function that gives a number
  follow NAME(values…)                    a reaction: it returns actions, mettle checks and applies them
Actions: set_to(unit, \"attr\", value)  add_to(unit, \"attr\", n)  remove_from(unit, \"attr\", n)
         move_towards(x)  move_away_from(x)  flee()  surrender()  order(\"text\")
Data for reactions is written like {friends: [{name: \"goblin\", distance: 4}], enemies: []}.
A script that fails, runs too long or grows too big stops with a message; nothing changes.";

const ODDS: &str = "\
odds CHECK [for UNIT] [with NAME = VALUE, …] [sweep NAME [LO..HI], …]   (or `:odds …`)
  The exact odds of a check, from the game as it stands: with `for UNIT` the unit makes it
  as it is now (its attributes, its timed changes, the options in force), and the report
  ends with what a stand-in would not know. Without `for`, a stand-in makes it, as
  `mettle odds` does. `with` changes inputs, the unit's attributes or options for the
  question only; `sweep` gives one row per value (`--set` and `--sweep` are read too).
  Example: odds morale for alpha with leadership = 1 sweep spi 0..6
odds STATEMENT…
  What if: every end the statements would lead to from here, named as `mettle odds`
  names a scenario's ends (how the game ended, else what differs between the ends), with
  its chance, what they change in every end, and the values they record. Exact when the
  dice can fall few enough ways for the budget `odds_work`; otherwise estimated from
  seeded runs, saying why. The game is not changed.
  Example: odds trigger damaged(unit: alpha, hp_lost: 3)
`:plot FILE.svg` draws the last odds; `:sim N STEP` plays a step N times instead.";

const SIM: &str = "\
:sim N STATEMENT…   or   :sim N SCENARIO
  Play the statements (or a scenario's steps) N times from the game as it stands, each
  run with dice of its own from the REPL's seed, and show how often each end came, with
  95% intervals. Ctrl-C stops it: the report covers the runs done. The game is unchanged.
  Example: :sim 1000 trigger damaged(unit: alpha, hp_lost: 3)";
