"""Every finding code is decided: does it fail a run, is it part of the answer, a caveat or a fact?

A run should fail only when no trustworthy answer to the task can be given.  The table below is the decision,
one row per code; a new code fails this test until it is decided here (and in docs/understanding.md).
"""

from __future__ import annotations

import pytest

from cmbagent.audits import ASKED, CODES, OUTCOMES, Intent, with_intent
from cmbagent.state import Finding, Requirement, Severity

DECIDED = {
    # no trustworthy answer while it stands: the step is rejected (retried, replanned); the run fails or is unmet
    "value.not_finite": "fails", "value.negative_spread": "fails", "value.inverted_interval": "fails",
    "step.no_result": "fails", "step.error_ignored": "fails", "sampler.not_converged": "fails",
    "eval.leakage": "fails", "report.unsupported_number": "fails", "report.answer_missing": "fails",
    "report.unconstrained_as_measurement": "fails", "report.bad_citation": "fails",
    "task.requirement_unmet": "fails",
    # what the data say: stated in the report's answer, never a failure
    "param.unconstrained": "answer", "param.degenerate": "answer", "param.prior_dominated": "answer",
    "param.prior_shift": "answer",
    # caveats with the check that would settle them
    "fit.chi2_low": "caveat", "fit.chi2_high": "caveat", "method.check_failed": "caveat",
    "data.rows_dropped": "caveat", "analysis.specification_search": "caveat", "causal.no_overlap": "caveat",
    "plot.unreadable": "caveat", "critic.unsupported": "caveat",
    # facts the report states
    "method.note": "fact", "method.known_shortfall": "fact", "method.loses_to_baseline": "fact",
    "method.argument_defaulted": "fact", "method.model_choices": "fact", "report.summary_replaced": "fact",
    "plan.aimless_steps": "fact", "task.requirements_dropped": "fact", "task.assumed": "fact", "task.read_by_meaning": "fact",
    "task.requirements_disagree": "caveat", "task.method_from_reading": "fact",
    "plan.method_step_added": "fact", "task.method_disagrees": "caveat", "task.reading_unsettled": "caveat",
    "audit.failed": "fact",
}


def test_every_code_is_decided_and_only_failures_are_errors() -> None:
    import cmbagent.report  # noqa: F401  (every module that declares codes)

    undecided = sorted(set(CODES) - set(DECIDED))
    assert not undecided, f"decide these codes in DECIDED (and docs/understanding.md): {undecided}"
    for code, entry in CODES.items():
        assert entry.outcome in OUTCOMES
        assert entry.outcome == DECIDED[code], code
        assert (entry.severity is Severity.ERROR) == (entry.outcome == "fails"), code


def _finding(code: str, **evidence: object) -> Finding:
    return Finding(code=code, severity=CODES[code].severity, message="m", evidence=dict(evidence))


ASKING = {  # per code that can be asked for: a task that asks, and a finding of that condition
    "param.prior_dominated": ("Use the Planck value Ω_m = 0.315 ± 0.007 as a Gaussian prior.",
                              _finding("param.prior_dominated", parameter="Omega_m", prior=["gaussian", 0.315, 0.007])),
    "param.prior_shift": ("Put a prior on H0 from SH0ES: H0 = 73.0 ± 1.0.",
                          _finding("param.prior_shift", parameter="H0", prior=["gaussian", 73.0, 1.0])),
    "data.rows_dropped": ("Keep only the supernovae with z > 0.02.", _finding("data.rows_dropped")),
    "analysis.specification_search": ("Compare the five specifications and report each.",
                                      _finding("analysis.specification_search")),
    "fit.chi2_low": ("Fit with diagonal errors only.", _finding("fit.chi2_low")),
}


@pytest.mark.parametrize("code", sorted(ASKED))
def test_a_condition_the_task_asked_for_is_never_an_error_and_says_so(code: str) -> None:
    text, found = ASKING[code]
    asked = with_intent([found.model_copy(update={"severity": Severity.ERROR})], Intent.of(text))
    (item,) = asked
    assert item.asked is True and item.severity is not Severity.ERROR and item.intent
    # the same condition in a task that did not ask for it keeps its severity
    (plain,) = with_intent([found], Intent.of("Fit the supernovae and report Ω_m."))
    assert plain.asked is False and plain.severity is found.severity


def test_a_prior_the_checklist_read_counts_as_asked() -> None:
    requirement = Requirement(kind="argument", text="a Gaussian prior on the matter density", argument="priors",
                              value={"Omega_m": {"mean": 0.3, "std": 0.02}})
    found = _finding("param.prior_dominated", parameter="Omega_m", prior=["gaussian", 0.3, 0.02])
    (item,) = with_intent([found], Intent.of("Fit it.", [requirement]))
    assert item.asked and item.severity is Severity.NOTE
