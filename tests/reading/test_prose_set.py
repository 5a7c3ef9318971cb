"""The offline reader held to its goals on the public prose set, and to its measured level on the held-out set.

The public set (``tests/understanding``) is what the reader was tuned on: the goals of issue 29 hold there —
≥ 95% method accuracy, ≥ 90% argument accuracy, no silent wrong mapping.  The held-out set
(``tests/understanding_heldout``) was written blind to the tuning, then used to find what the reader let
through silently (its silent wrong went 12 -> 0 with the stated-numbers net, docs/understanding.md, "Measuring
it"), so it is no longer blind: this test is a ratchet at the measured level, so the numbers can only improve.
"""

from __future__ import annotations

import pytest

from tests.reading._prose import SET, load_set, read_offline, score

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::UserWarning", "ignore::FutureWarning")]

HELD_OUT = SET.parent / "understanding_heldout"
def test_public_set_meets_the_goals() -> None:
    scored = score()
    summary = scored.summary()
    assert scored.method_accuracy >= 0.95, summary
    assert scored.argument_accuracy >= 0.90, summary
    assert not scored.silent_wrong, [(v.name, v.wrong_arguments) for v in scored.silent_wrong]


def test_held_out_set_does_not_fall_below_its_measured_level() -> None:
    tasks = load_set(HELD_OUT)
    scored = score(lambda t: read_offline(t, HELD_OUT), tasks)
    summary = scored.summary()
    # measured 2026-12-05 (bench/understanding.py): 43 tasks, method 0.95, arguments 0.06, silent wrong 0; after
    # the rules that read settings in their documentation's words, arguments 0.31 (10 of 32 method tasks); after
    # files read by their place and by what their arguments document, JSON Lines tables, columns of a second
    # table, arguments 0.47 (15 of 32); after cosmological parameters by name and symbol, priors as ranges and on a
    # documented parameter, and an argument left at a default that is what the text asked (the judge's rule),
    # arguments 0.59 (19 of 32); after parameter symbols spelled as a chain names them ("Ω_m and σ_8"), 0.62
    # session 12: a targeting question in plain words ("the poorest tenth") reaches its method: 0.95 -> 0.98 (asked)
    assert scored.method_accuracy >= 0.97, summary
    assert scored.argument_accuracy >= 0.62, summary
    assert not scored.silent_wrong, [(v.name, v.wrong_arguments or v.method) for v in scored.silent_wrong]


def test_blind_set_does_not_fall_below_its_measured_level() -> None:
    """tests/understanding_blind: written after the held-out set was spent, blind to the reader and to both
    sets' texts; measured once, then spent: its four silent wrong runs were the next rules' cases (the blind
    measure is now tests/understanding_blind4)."""
    folder = SET.parent / "understanding_blind"
    scored = score(lambda t: read_offline(t, folder), load_set(folder))
    summary = scored.summary()
    # measured 2026-12-05 (bench/understanding.py): 35 tasks, method 0.80, arguments 0.04, silent wrong 3, asked 28.
    # Silent wrong 3 -> 4 when input files began to be read by their place and their arguments' documentation: a
    # survey task that was asked about its three unplaced files now reads them, its covariates and its waves, and
    # runs without the subgroup it names. Then spent (December 2026, session 6): the rules that read an "expected"
    # quantity and a "has to" as requests, leave a documentation's examples out of the values a run uses, read the
    # device and a clean unlabelled pool in words, and read columns from the table the data argument reads took
    # silent wrong 4 -> 0, method 0.80 -> 0.86, arguments 0.04 -> 0.12 (3 of 25), asked 27 -> 29; after a single
    # column read only close after its cue, the split's repetitions and columns named after a number, 0.20 (5 of 25);
    # after "a regression of y on a, b and c" and a count in a list being no column, 0.24 (6 of 25). (The whole
    # suite once measured 0.20: tests/tools/test_registry.py registered a method with the keyword "scale" at import,
    # so the reader weighed it too; it now registers it only while its own tests run, and score() refuses a
    # catalogue with a test's method in it.)
    # After the rules the fifth and sixth blind sets were spent on (session 7: a served model's address, a declined
    # part of the work, "keep concurrency at 2", a documented count in words, "return guidance at 2"), 0.32 (8 of 25)
    # session 12: plain words for a classifier's robustness ("how stable", "nudged") put class stability first
    # for one more task, which is asked, not run: method 0.86 -> 0.89, arguments 9 of 26 (0.35)
    assert scored.method_accuracy >= 0.88, summary
    # session 11: numbers described rather than named, read by meaning (agents/_by_meaning.py): 0.36 (9 of 25)
    assert scored.argument_accuracy >= 0.34, summary
    assert not scored.silent_wrong, [(v.name, v.wrong_arguments or v.method) for v in scored.silent_wrong]


def test_fourth_blind_set_does_not_fall_below_its_measured_level() -> None:
    """tests/understanding_blind4: written blind (December 2026, session 6), measured once, then spent on the rules
    that ended its silent wrong runs."""
    folder = SET.parent / "understanding_blind4"
    scored = score(lambda t: read_offline(t, folder), load_set(folder))
    summary = scored.summary()
    # first measure (bench/understanding.py): 44 tasks, method 0.89, arguments 0.15 (5 of 34), silent wrong 9, asked
    # 27. After the rules it was used for (a small number read in another sentence, a request that also describes,
    # "a three", a count before two nouns, model words no model satisfies together, a method output "not needed",
    # a list named by its count): method 0.93, arguments 0.18 (6 of 34), silent wrong 0, asked 34; after names
    # ("Referee 2", "line 3"), asides on the data, "not an input", list items in words ("age band") and answer
    # columns in brackets: arguments 0.26 (9 of 34), asked 31; after the labelled count in plain words, a choice
    # left out in the aside after "only" and the paper's clean setup: 0.29 (10 of 34), asked 30
    assert scored.method_accuracy >= 0.93, summary
    # session 11: numbers described rather than named, read by meaning (agents/_by_meaning.py): 0.35 (12 of 34)
    assert scored.argument_accuracy >= 0.35, summary
    assert not scored.silent_wrong, [(v.name, v.wrong_arguments or v.method) for v in scored.silent_wrong]


def test_fifth_blind_set_does_not_fall_below_its_measured_level() -> None:
    """tests/understanding_blind5: written blind (December 2026, session 6), measured at that session's start and
    end, then spent (session 7) on the rules that ended its silent wrong runs."""
    folder = SET.parent / "understanding_blind5"
    scored = score(lambda t: read_offline(t, folder), load_set(folder))
    summary = scored.summary()
    # first measure, 2026-12-05 session 6: 44 tasks, method 0.91, arguments 0.09 (3 of 34), silent wrong 4, asked 33.
    # Spent in session 7: a "no X, just Y" that declines the method's kind of work, a list's item accounting for one
    # place of its sentence only, the lower bound of a symmetric range, an input box "between −2 and 2", a served
    # model's address and name, a declined part of the work its documentation says 0 skips, counts of needles and
    # requests: method 0.93, arguments 0.18 (6 of 34), silent wrong 0, asked 33; after the settings in its words
    # (priors "centred on m with a width of s" and "from a to b", H0 floating, "at most N steps", inputs after
    # "predict y from", the interactive specification, ...): 0.35 (12 of 34), asked 27
    assert scored.method_accuracy >= 0.93, summary
    assert scored.argument_accuracy >= 0.35, summary
    assert not scored.silent_wrong, [(v.name, v.wrong_arguments or v.method) for v in scored.silent_wrong]


def test_sixth_blind_set_does_not_fall_below_its_measured_level() -> None:
    """tests/understanding_blind6: written blind (December 2026, session 7), measured once with the reader of that
    moment, then spent on the rules that ended its silent wrong runs."""
    folder = SET.parent / "understanding_blind6"
    scored = score(lambda t: read_offline(t, folder), load_set(folder))
    summary = scored.summary()
    # first measure (bench/understanding.py --set blind6): 44 tasks, method 0.93, arguments 0.08 (3 of 36), silent
    # wrong 11, asked 28. After the rules it was spent on (a column of another file is never the data table's; a
    # single column of no known role is cued by its own words; a list ends at "using ... weights"; answer columns
    # after "report"; a list named once in words and then by its count; a run of requests after a colon states its
    # numbers; a detector the method does not offer is asked about; settings in its words): method 0.95, arguments
    # 0.33 (12 of 36), silent wrong 0, asked 30
    assert scored.method_accuracy >= 0.95, summary
    # session 11: numbers described rather than named, read by meaning (agents/_by_meaning.py): 0.39 (14 of 36)
    assert scored.argument_accuracy >= 0.38, summary
    assert not scored.silent_wrong, [(v.name, v.wrong_arguments or v.method) for v in scored.silent_wrong]


def test_seventh_blind_set_does_not_fall_below_its_measured_level() -> None:
    """tests/understanding_blind7: written blind (December 2026, session 7), measured once with the reader of that
    moment, then spent (session 8) on the rules that ended its silent wrong runs."""
    folder = SET.parent / "understanding_blind7"
    scored = score(lambda t: read_offline(t, folder), load_set(folder))
    summary = scored.summary()
    # first measure, 2026-12-05 session 7 (the reader after the fifth and sixth sets were spent): 44 tasks, method
    # 0.98, arguments 0.11 (4 of 35), silent wrong 5, asked 31. After the rules it was spent on (a report's word
    # excuses the numbers of its own clause only; "within x of the best" selects; an enumeration's "(2)"; ℓ_max,
    # the L0 penalty "halved to", a random-forest model, a share of the total |SHAP| in plain words): method
    # 0.98, arguments 0.29 (10 of 35), silent wrong 0, asked 30 (with list items written "1,000")
    assert scored.method_accuracy >= 0.97, summary
    # session 11: numbers described rather than named, read by meaning (agents/_by_meaning.py): 0.34 (12 of 35)
    assert scored.argument_accuracy >= 0.34, summary
    assert not scored.silent_wrong, [(v.name, v.wrong_arguments or v.method) for v in scored.silent_wrong]


def test_eighth_blind_set_does_not_fall_below_its_measured_level() -> None:
    """tests/understanding_blind8: written blind (December 2026, session 8), measured once with the reader of that
    moment, then spent (session 9) on the rules that ended its silent wrong runs."""
    folder = SET.parent / "understanding_blind8"
    scored = score(lambda t: read_offline(t, folder), load_set(folder))
    summary = scored.summary()
    # first measure, 2026-12-05 session 8: 45 tasks, method 0.96, arguments 0.11 (4 of 36), silent wrong 3, asked
    # 35. After the rules it was spent on (column lists in words, with an unmappable item asked about; a bracket
    # naming the column; a Python file named in the prose; files numbered like the chain; a choice in a file's
    # description; numbered sections; field words): method 0.96, arguments 0.39 (14 of 36), silent wrong 0, asked 28
    assert scored.method_accuracy >= 0.95, summary
    assert scored.argument_accuracy >= 0.38, summary
    assert not scored.silent_wrong, [(v.name, v.wrong_arguments or v.method) for v in scored.silent_wrong]


def test_ninth_and_tenth_blind_sets_do_not_fall_below_their_measured_levels() -> None:
    """tests/understanding_blind9 and _blind10: written blind (December 2026, session 9), each measured with the
    reader of that moment, then spent in turn (session 9) on the rules that ended their silent wrong runs."""
    # blind9, first measure (the reader of session 9's start): 45 tasks, method 0.96, arguments 0.06 (2 of 36), silent
    # wrong 5; after blind8 was spent 4. Spent on: "the N most isolated" rows as pseudo-labels, a chain's parameters
    # "for Ω_m and σ8 only", inputs after "predict <two words> from", "should have" requests, weights and design
    # weights, an optional column asked for but not named: method 0.98, arguments 0.14 (5 of 36), silent wrong 0.
    # blind10, first measure: method 0.91, arguments 0.15 (5 of 34), silent wrong 7; after blind8 and blind9 were spent
    # 6. Spent on: learners and baselines in words, a survey's round column, lists in brackets, the count of inputs, a
    # leakless neuron, a CMB model the fit does not offer: method 0.93, arguments 0.32 (11 of 34), silent wrong 0.
    # session 11: numbers described rather than named, read by meaning (agents/_by_meaning.py): blind10 0.35 (12 of 34)
    for name, method, arguments in (("understanding_blind9", 0.97, 0.13), ("understanding_blind10", 0.93, 0.35)):
        folder = SET.parent / name
        scored = score(lambda t, f=folder: read_offline(t, f), load_set(folder))
        summary = f"{name}: {scored.summary()}"
        assert scored.method_accuracy >= method, summary
        assert scored.argument_accuracy >= arguments, summary
        assert not scored.silent_wrong, [(v.name, v.wrong_arguments or v.method) for v in scored.silent_wrong]


def test_eleventh_blind_set_does_not_fall_below_its_measured_level() -> None:
    """tests/understanding_blind11: written blind (December 2026, session 9), measured unseen, then spent (session
    10) on the rules that ended its silent wrong runs."""
    folder = SET.parent / "understanding_blind11"
    scored = score(lambda t: read_offline(t, folder), load_set(folder))
    summary = scored.summary()
    # measured with the reader of session 9's start: 45 tasks, method 0.93, arguments 0.20 (7 of 35), silent wrong 6;
    # with the reader after blind8, blind9 and blind10 were spent: method 0.93, arguments 0.23 (8 of 35), silent
    # wrong 4, asked 28. Spent on: a weighting list with a variable no file holds (a question), chain parameters in
    # words under the chain reader's names, "N thousand", queries "at random rather than actively": method 0.96,
    # arguments 0.31 (11 of 35), silent wrong 0, asked 29
    assert scored.method_accuracy >= 0.95, summary
    # session 11: numbers described rather than named, read by meaning (agents/_by_meaning.py): 0.37 (13 of 35)
    assert scored.argument_accuracy >= 0.37, summary
    assert not scored.silent_wrong, [(v.name, v.wrong_arguments or v.method) for v in scored.silent_wrong]


def test_twelfth_blind_set_does_not_fall_below_its_measured_level() -> None:
    """tests/understanding_blind12: written blind (December 2026, session 10), measured unseen, then spent (session
    10) on the rules that ended its silent wrong runs."""
    folder = SET.parent / "understanding_blind12"
    scored = score(lambda t: read_offline(t, folder), load_set(folder))
    summary = scored.summary()
    # first measure (the reader after the treatment cue "how much does X change Y", before blind11 was spent): 45
    # tasks, method 0.91, arguments 0.08 (3 of 38), silent wrong 13 (three of them tasks that should ask), asked 26;
    # unchanged after blind11 was spent. Spent on: a question mark before a lower-case path ends a sentence, a bracket
    # right after the cue's words names the column, a listed covariate no column holds (a question), N_eff free and
    # two distance columns (questions), settings said in passing: method 0.98, arguments 0.34 (13 of 38), silent
    # wrong 0, asked 29
    assert scored.method_accuracy >= 0.97, summary
    # session 11: numbers described rather than named, read by meaning (agents/_by_meaning.py): 0.37 (14 of 38)
    assert scored.argument_accuracy >= 0.36, summary
    assert not scored.silent_wrong, [(v.name, v.wrong_arguments or v.method) for v in scored.silent_wrong]


def test_thirteenth_blind_set_does_not_fall_below_its_measured_level() -> None:
    """tests/understanding_blind13: written blind (December 2026, session 10), measured unseen, then spent (session
    10) on the rules that ended its silent wrong runs."""
    folder = SET.parent / "understanding_blind13"
    scored = score(lambda t: read_offline(t, folder), load_set(folder))
    summary = scored.summary()
    # first measure (the reader after blind11 and blind12 were spent; the reader of session 10's start gave the same
    # numbers): 45 tasks, method 0.89, arguments 0.09 (3 of 33), silent wrong 3, asked 33. Spent on: method words
    # that decide close candidates, possessors, a long "how much does X reduce" subject, an environment the world
    # model lacks (a question), chain parameters "just for ...?", seed anomalies: method 0.91, arguments 0.15 (5 of
    # 33), silent wrong 0, asked 34
    assert scored.method_accuracy >= 0.91, summary
    # session 11: numbers described rather than named, read by meaning (agents/_by_meaning.py): 0.27 (9 of 33)
    assert scored.argument_accuracy >= 0.27, summary
    assert not scored.silent_wrong, [(v.name, v.wrong_arguments or v.method) for v in scored.silent_wrong]


def test_fourteenth_blind_set_does_not_fall_below_its_first_measure() -> None:
    """tests/understanding_blind14: written blind (December 2026, session 10) and not tuned on; the ratchet is its
    measure with the reader that ended session 10, so a change that lets one more of its tasks run silently wrong
    fails here (look at the task only to find the cause; a rule made to pass it spends the set)."""
    folder = SET.parent / "understanding_blind14"
    scored = score(lambda t: read_offline(t, folder), load_set(folder))
    summary = scored.summary()
    # measured with the reader after blind11, blind12 and blind13 were spent: 45 tasks, method 0.93, arguments 0.06
    # (2 of 35), silent wrong 4, asked 34. Session 11, with numbers read by meaning (measured once, not tuned on):
    # arguments 0.09 (3 of 35), silent wrong 4, asked 33; of its 8 placements by meaning 6 were right
    assert scored.method_accuracy >= 0.93, summary
    assert len(scored.silent_wrong) <= 4, [(v.name, v.wrong_arguments or v.method) for v in scored.silent_wrong]


def test_fifteenth_blind_set_does_not_fall_below_its_first_measure() -> None:
    """tests/understanding_blind15: written blind (December 2026, session 11) and not tuned on; a ratchet at its
    first measure, as for blind14 (look at a task only to find the cause of a new silent run)."""
    folder = SET.parent / "understanding_blind15"
    scored = score(lambda t: read_offline(t, folder), load_set(folder))
    summary = scored.summary()
    # measured with the reader that ended session 11: 45 tasks, method 0.98, arguments 0.17, silent wrong 5, asked
    # 30; with the reader of session 11's start (before numbers by meaning): method 0.98, arguments 0.14, silent
    # wrong 6, asked 30
    assert scored.method_accuracy >= 0.97, summary
    # session 15 (blind17-19 spent): arguments 0.19 → 0.23, silent wrong 5 → 3, asked 30
    assert len(scored.silent_wrong) <= 3, [(v.name, v.wrong_arguments or v.method) for v in scored.silent_wrong]


def test_sixteenth_blind_set_runs_nothing_silently_wrong() -> None:
    """tests/understanding_blind16: written blind by a helper (December 2026, session 13), measured unseen once
    (method 0.96, arguments 0.11, 6 silent wrong, 31 asked), then spent in session 14 to find why settings the text
    states went unread: its six silent runs are now read right."""
    folder = SET.parent / "understanding_blind16"
    scored = score(lambda t: read_offline(t, folder), load_set(folder))
    summary = scored.summary()
    # measured with the reader that ended session 14: 45 tasks, method 0.96, arguments 0.33, silent wrong 0, asked 29
    assert scored.method_accuracy >= 0.95, summary
    assert scored.silent_wrong == [], [(v.name, v.wrong_arguments or v.method) for v in scored.silent_wrong]


def test_seventeenth_blind_set_runs_nothing_silently_wrong() -> None:
    """tests/understanding_blind17: written blind by a helper (December 2026, session 14), measured unseen with the
    readers that began and ended session 14 (method 0.93, arguments right on 6 and 7 tasks, 3 silent wrong, 32 and
    31 asked), then spent in session 15 to find why its settings went unread: its three silent runs are read right."""
    folder = SET.parent / "understanding_blind17"
    scored = score(lambda t: read_offline(t, folder), load_set(folder))
    summary = scored.summary()
    # measured with the reader that ended session 15: 45 tasks, method 0.96, arguments right on 33, 0 silent, 8 asked
    assert scored.method_accuracy >= 0.95, summary
    assert scored.silent_wrong == [], [(v.name, v.wrong_arguments or v.method) for v in scored.silent_wrong]


def test_eighteenth_blind_set_runs_nothing_silently_wrong() -> None:
    """tests/understanding_blind18: written blind by a helper (session 15), measured unseen with the readers of the
    session's start and after blind17 was spent (method 0.87 and 0.89, arguments right on 7 and 8 tasks, 5 silent
    wrong both, 28 asked both), then spent the same session: its five silent runs are read right or asked about."""
    folder = SET.parent / "understanding_blind18"
    scored = score(lambda t: read_offline(t, folder), load_set(folder))
    summary = scored.summary()
    assert scored.method_accuracy >= 0.93, summary
    assert scored.silent_wrong == [], [(v.name, v.wrong_arguments or v.method) for v in scored.silent_wrong]


def test_nineteenth_blind_set_runs_nothing_silently_wrong() -> None:
    """tests/understanding_blind19: written blind by a helper (session 15), measured unseen with the session's first
    reader and with the reader after blind17 and blind18 were spent (arguments right on 8 and 9 tasks, 7 silent wrong
    both, 26 and 25 asked), then spent the same session: its seven silent runs are read right or asked about."""
    folder = SET.parent / "understanding_blind19"
    scored = score(lambda t: read_offline(t, folder), load_set(folder))
    summary = scored.summary()
    assert scored.method_accuracy >= 0.95, summary
    assert scored.silent_wrong == [], [(v.name, v.wrong_arguments or v.method) for v in scored.silent_wrong]


def test_twentieth_blind_set_runs_nothing_silently_wrong() -> None:
    """tests/understanding_blind20: written blind by a helper (session 15), measured unseen with the readers that
    began and ended session 15 (method 0.96 both, arguments right on 6 and 7 tasks, 3 silent wrong both, 32 and 31
    asked), then spent in session 16 to find its silent runs and unread settings: its three silent runs are asked
    about or read right."""
    folder = SET.parent / "understanding_blind20"
    scored = score(lambda t: read_offline(t, folder), load_set(folder))
    summary = scored.summary()
    # measured with the reader after it was spent: 45 tasks, method 0.98, arguments right on 22, 0 silent, 19 asked
    assert scored.method_accuracy >= 0.95, summary
    assert scored.silent_wrong == [], [(v.name, v.wrong_arguments or v.method) for v in scored.silent_wrong]


def test_twenty_first_blind_set_does_not_fall_below_its_first_measure() -> None:
    """tests/understanding_blind21: written blind by a helper (December 2026, session 16) and not tuned on; a ratchet
    at its first measure.  Its failure message gives counts only: look at a task only to find the cause of a new
    silent run, and say so."""
    folder = SET.parent / "understanding_blind21"
    scored = score(lambda t: read_offline(t, folder), load_set(folder))
    summary = scored.summary()
    # measured with the readers that began and ended session 16: 45 tasks, method 0.96 both; arguments right on 5
    # and 6 tasks; silent wrong 3 both; asked 32 and 31
    assert scored.method_accuracy >= 0.95, summary
    assert len(scored.silent_wrong) <= 3, f"{len(scored.silent_wrong)} silent wrong: {summary}"


def test_twenty_second_blind_set_does_not_fall_below_its_spent_level() -> None:
    """tests/understanding_blind22: written blind by a helper (session 18), measured unseen with that session's first
    reader (method 42 of 45, arguments right on 9, 7 silent wrong, 25 asked), then spent the same session.  One silent
    run is left, documented in docs/understanding.md (answer columns named only in prose)."""
    folder = SET.parent / "understanding_blind22"
    scored = score(lambda t: read_offline(t, folder), load_set(folder))
    summary = scored.summary()
    # measured with the reader of session 19: method 44 of 45, arguments right on 17, 1 silent wrong, 22 asked
    assert scored.method_accuracy >= 0.95, summary
    assert len(scored.silent_wrong) <= 1, [(v.name, v.wrong_arguments or v.method) for v in scored.silent_wrong]


def test_twenty_third_blind_set_runs_nothing_silently_wrong() -> None:
    """tests/understanding_blind23: written blind by a helper (session 18), measured unseen at that session's start
    and end (arguments right on 3 and 5, 2 silent wrong both), then spent in session 19: its two silent runs (a
    spaced "1 500" after a comma, an x-hacking tolerance in words) are read right."""
    folder = SET.parent / "understanding_blind23"
    scored = score(lambda t: read_offline(t, folder), load_set(folder))
    summary = scored.summary()
    # measured with the reader after it was spent: method 44 of 45, arguments right on 20, 0 silent, 20 asked
    assert scored.method_accuracy >= 0.95, summary
    assert scored.silent_wrong == [], [(v.name, v.wrong_arguments or v.method) for v in scored.silent_wrong]


def test_twenty_fourth_blind_set_runs_nothing_silently_wrong() -> None:
    """tests/understanding_blind24: written blind by a helper (session 19), measured unseen with the session's first
    reader and with the reader after blind23 was spent (method 40 of 45 both, arguments right on 1 and 2 tasks,
    4 silent wrong both, 34 and 33 asked), then spent the same session: its four silent runs are read right."""
    folder = SET.parent / "understanding_blind24"
    scored = score(lambda t: read_offline(t, folder), load_set(folder))
    summary = scored.summary()
    # measured with the reader after it was spent: method 43 of 45, arguments right on 7, 0 silent, 34 asked
    assert scored.method_accuracy >= 0.95, summary
    assert scored.silent_wrong == [], [(v.name, v.wrong_arguments or v.method) for v in scored.silent_wrong]


def test_twenty_fifth_blind_set_runs_nothing_silently_wrong() -> None:
    """tests/understanding_blind25: written blind by a helper (session 19), measured unseen with the session's first
    reader and with the reader after blind23 and blind24 were spent (method 40 of 45 both, arguments right on 7
    both, 3 silent wrong both, 30 asked both), then spent the same session: its three silent runs (tasks whose honest
    reply is a question) now ask."""
    folder = SET.parent / "understanding_blind25"
    scored = score(lambda t: read_offline(t, folder), load_set(folder))
    summary = scored.summary()
    # measured with the reader after it was spent: method 45 of 45, arguments right on 8, 0 silent, 33 asked
    assert scored.method_accuracy >= 0.95, summary
    assert scored.silent_wrong == [], [(v.name, v.wrong_arguments or v.method) for v in scored.silent_wrong]


def test_twenty_sixth_blind_set_does_not_fall_below_its_first_measure() -> None:
    """tests/understanding_blind26: written blind by a helper (session 19), measured unseen (method 44, arguments
    right on 6 and 7, silent wrong 5, asked 30 and 29 with the readers that began and ended session 19), then spent
    in session 20: four of its five silent runs now run right or ask; the fifth (a survey whose two questions are
    named by their words and whose retest column by its suffix) still runs with one question column, the retest's."""
    folder = SET.parent / "understanding_blind26"
    scored = score(lambda t: read_offline(t, folder), load_set(folder))
    summary = scored.summary()
    # measured with the reader after it was spent: method 44 of 45, arguments right on 9, 1 silent, 31 asked
    assert scored.method_accuracy >= 0.95, summary
    assert len(scored.silent_wrong) <= 1, [(v.name, v.wrong_arguments or v.method) for v in scored.silent_wrong]


def test_twenty_seventh_blind_set_runs_nothing_silently_wrong() -> None:
    """tests/understanding_blind27: written blind by a helper (session 20), measured unseen (method 40, arguments right
    on 8, silent wrong 5, asked 29 with the readers that began and ended session 20), then spent in session 21: its
    five silent runs now run right or ask, and most of its questions are read."""
    folder = SET.parent / "understanding_blind27"
    scored = score(lambda t: read_offline(t, folder), load_set(folder))
    summary = scored.summary()
    # measured with the reader after it was spent: method 41 of 45, arguments right on 28, 0 silent, 14 asked
    assert scored.method_accuracy >= 41 / 45 - 1e-9, summary
    assert not scored.silent_wrong, [(v.name, v.wrong_arguments or v.method) for v in scored.silent_wrong]


def test_twenty_eighth_blind_set_runs_nothing_silently_wrong() -> None:
    """tests/understanding_blind28: written blind by a helper (session 21), measured unseen (method 40 and 41,
    arguments right on 6 and 5, silent wrong 10 and 10, asked 27 and 28 with the readers that began and ended
    session 21's work on blind27), then spent later in session 21: its ten silent runs now run right or ask."""
    folder = SET.parent / "understanding_blind28"
    scored = score(lambda t: read_offline(t, folder), load_set(folder))
    summary = scored.summary()
    # measured with the reader after it was spent: method 42 of 45, arguments right on 17, 0 silent, 26 asked
    assert scored.method_accuracy >= 42 / 45 - 1e-9, summary
    assert not scored.silent_wrong, [(v.name, v.wrong_arguments or v.method) for v in scored.silent_wrong]


def test_twenty_ninth_blind_set_runs_nothing_silently_wrong() -> None:
    """tests/understanding_blind29: written blind by a helper (session 21), measured unseen (method 41, 41, 41,
    arguments right on 4, 5, 5, silent wrong 9, 9, 9, asked 28, 27, 27 with session 21's readers), then spent in
    session 22: its nine silent runs now run right or ask, and most of its questions are read."""
    folder = SET.parent / "understanding_blind29"
    scored = score(lambda t: read_offline(t, folder), load_set(folder))
    summary = scored.summary()
    # measured with the reader after it was spent: method 44 of 46, arguments right on 33, 0 silent, 8 asked
    assert scored.method_accuracy >= 44 / 46 - 1e-9, summary
    assert not scored.silent_wrong, [(v.name, v.wrong_arguments or v.method) for v in scored.silent_wrong]


def test_thirtieth_blind_set_runs_nothing_silently_wrong() -> None:
    """tests/understanding_blind30: written blind by a helper (session 22), measured unseen (method 40, 40, 40,
    arguments right on 8, 10, 10, silent wrong 4, 5, 5, asked 29, 26, 26 with session 22's readers), then spent in
    session 23: its five silent runs now run right or ask, and most of its questions are read."""
    folder = SET.parent / "understanding_blind30"
    scored = score(lambda t: read_offline(t, folder), load_set(folder))
    summary = scored.summary()
    # measured with the reader after it was spent: method 46 of 46, arguments right on 32, 0 silent, 8 asked
    assert scored.method_accuracy >= 46 / 46 - 1e-9, summary
    assert not scored.silent_wrong, [(v.name, v.wrong_arguments or v.method) for v in scored.silent_wrong]


def test_thirty_first_blind_set_runs_nothing_silently_wrong() -> None:
    """tests/understanding_blind31: written blind by a helper (session 23), measured unseen (method 41, 41, arguments
    right on 13, 13, silent wrong 5, 5, asked 24, 24 with session 23's readers), then spent in session 24: its five
    silent runs now run right or ask, and most of its questions are read."""
    folder = SET.parent / "understanding_blind31"
    scored = score(lambda t: read_offline(t, folder), load_set(folder))
    summary = scored.summary()
    # measured with the reader after it was spent: method 46 of 46, arguments right on 37, 0 silent, 4 asked
    assert scored.method_accuracy >= 46 / 46 - 1e-9, summary
    assert not scored.silent_wrong, [(v.name, v.wrong_arguments or v.method) for v in scored.silent_wrong]


def test_thirty_second_blind_set_does_not_fall_below_its_first_measure() -> None:
    """tests/understanding_blind32: written blind by a helper (session 24) and not tuned on; a ratchet at its first
    measure.  Its failure message gives counts only: look at a task only to find the cause of a new silent run, and
    say so."""
    folder = SET.parent / "understanding_blind32"
    scored = score(lambda t: read_offline(t, folder), load_set(folder))
    summary = scored.summary()
    # measured with the session's first reader and with the reader after blind31 was spent: 46 tasks, method 41
    # and 41; arguments right on 10 and 11; silent wrong 6 and 5; asked 27 and 27
    assert scored.method_accuracy >= 41 / 46 - 1e-9, summary
    assert len(scored.silent_wrong) <= 5, f"{len(scored.silent_wrong)} silent wrong: {summary}"
