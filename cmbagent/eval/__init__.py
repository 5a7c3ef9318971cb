"""``cmbagent eval``: a benchmark of research tasks with graded answers, run by the Planning & Control graph
and by one model alone.

::

    from cmbagent.eval import EvalSettings, load_suite, run_eval
    record = run_eval(load_suite("evals/research"), "workspaces/eval-1", EvalSettings(modes=["pc", "one-shot"]))
    record.summary["pc"]["pass_rate"], record.grades[0].verdict

* :mod:`cmbagent.eval._suite` — a suite folder: task files and their graders (the grader format);
* :mod:`cmbagent.eval._grade` — what a run produced, read from its folder, and the checks;
* :mod:`cmbagent.oneshot` — the one-model baseline (one engineer call, one program, same sandbox);
* :mod:`cmbagent.eval._run` — the eval as one batch of the batch machinery (Ray), resumable, budgeted;
* :mod:`cmbagent.eval._report` — ``eval.md``, the summaries and ``--compare``.
"""

from __future__ import annotations

from cmbagent.eval._grade import CheckResult, Grade, RunOutcome, find_value, grade_run, read_outcome
from cmbagent.oneshot import OneShotContext, describe_data, run_one_shot
from cmbagent.eval._report import binomial_interval, compare_evals, render_comparison, render_eval, summarise
from cmbagent.eval._run import MODES, EvalRecord, EvalSettings, eval_items, read_eval, regrade, run_eval
from cmbagent.eval._suite import Check, Grader, Suite, SuiteTask, load_grader, load_suite

__all__ = [
    "MODES",
    "Check",
    "CheckResult",
    "EvalRecord",
    "EvalSettings",
    "Grade",
    "Grader",
    "OneShotContext",
    "RunOutcome",
    "Suite",
    "SuiteTask",
    "binomial_interval",
    "compare_evals",
    "describe_data",
    "eval_items",
    "find_value",
    "grade_run",
    "load_grader",
    "load_suite",
    "read_eval",
    "read_outcome",
    "regrade",
    "render_comparison",
    "render_eval",
    "run_eval",
    "run_one_shot",
    "summarise",
]
