"""sampler.not_converged, the number sanity codes, step.no_result, step.error_ignored, method checks and notes."""

from __future__ import annotations

import math

from cmbagent.audits import CODES
from tests.audits._evidence import audit, codes, posterior

CONVERGED = {"tau": {"Omega_m": 4.0}, "rhat": {"Omega_m": 1.002}, "ess": {"Omega_m": 2400.0}, "n_steps": 300,
             "converged": True, "acceptance_fraction": 0.44}


def test_a_converged_chain_raises_nothing() -> None:
    assert audit(values={"Omega_m": posterior(0.3, 0.02)}, diagnostics=CONVERGED, arguments={"max_steps": 20000}) == []


def test_each_convergence_criterion_is_named() -> None:
    short = {**CONVERGED, "tau": {"Omega_m": 40.0}, "n_steps": 600, "converged": False, "ess": {"Omega_m": 150.0},
             "rhat": {"Omega_m": 1.05}}
    (f,) = audit(values={"Omega_m": posterior(0.3, 0.02)}, diagnostics=short, arguments={"max_steps": 600})
    assert f.code == "sampler.not_converged" and f.severity == "error"
    for words in ("shorter than 50 τ", "R-hat = 1.0500", "effective sample size 150", "max_steps = 600"):
        assert words in f.message, (words, f.message)


def test_an_acceptance_fraction_outside_the_band_means_no_mixing() -> None:
    (f,) = audit(diagnostics={**CONVERGED, "acceptance_fraction": 0.99})
    assert "acceptance fraction 0.990" in f.message


def test_the_effective_sample_size_of_survey_weights_is_no_chain() -> None:
    # a survey weighted to its population reports Kish's effective sample size beside the design effect; 296
    # respondents' worth of information is a fact about the weights, not an unconverged MCMC chain
    survey = {"n_respondents": 300, "weighting": "ipw", "design_effect": 1.014, "effective_sample_size": 296}
    assert audit(values={"tv_distance": 0.12}, diagnostics=survey) == []
    # the same number from a sampler still fails it
    (f,) = audit(values={"Omega_m": posterior(0.3, 0.02)}, diagnostics={"effective_sample_size": 296, "n_steps": 900})
    assert f.code == "sampler.not_converged" and "effective sample size 296" in f.message


def test_numbers_that_are_not_sane() -> None:
    values = {"a": {"mean": 1.0, "std": -0.1}, "b": math.nan, "d": {"lower_68": 2.0, "upper_68": 1.0}, "ok": 3.0}
    assert sorted(codes(audit(values=values))) == ["value.inverted_interval", "value.negative_spread",
                                                   "value.not_finite"]
    assert audit(values={"a": posterior(1.0, 0.1), "n": 3}) == []


def test_a_cell_without_a_result_object() -> None:
    assert codes(audit(cell="steps/01/cells/attempt-1.py", printed_result=False, output="hello")) == ["step.no_result"]
    assert audit(cell="steps/01/cells/attempt-1.py", printed_result=True, values={"x": 1.0}) == []


def test_an_exception_printed_by_a_cell_that_went_on() -> None:
    output = "data/6_cardio.npz: 1831 lines, not parsed as a table (UnicodeDecodeError)\nn_files = 1"
    (f,) = audit(cell="c.py", output=output, values={"n_files": 1})
    assert f.code == "step.error_ignored" and f.evidence["exception"] == "UnicodeDecodeError"
    traceback = "Traceback (most recent call last):\n  File x\nValueError: bad\nfit done"
    assert codes(audit(cell="c.py", output=traceback, values={"x": 1})) == ["step.error_ignored"]


def test_warnings_and_error_words_in_prose_are_not_exceptions() -> None:
    output = ("/x.py:3: UserWarning: n_jobs ignored\nmean squared error 0.31; ConvergenceWarning: lbfgs\n"
              "RuntimeWarning: divide by zero")
    assert audit(cell="c.py", output=output, values={"x": 1}) == []
    assert audit(cell="c.py", output="ValueError: x", status="error", values={}) == []  # failed cells go to the debugger


def test_failed_checks_take_the_code_of_what_they_check_unless_a_specific_audit_spoke() -> None:
    checks = [{"name": "overlap", "passed": False, "message": "12% outside [0.05, 0.95]"},
              {"name": "convergence_autocorr", "passed": False, "message": "hit max_steps"},
              {"name": "scores_finite", "passed": True, "message": ""},
              {"name": "pseudo_labels", "passed": False, "message": "odd"}]
    found = audit(checks=checks, values={"x": 1.0})
    assert [(f.code, f.severity) for f in found] == [("sampler.not_converged", "error"),
                                                     ("causal.no_overlap", "warning"),
                                                     ("method.check_failed", "warning")]
    # the convergence audit reads the diagnostics itself: the check-derived duplicate goes
    found = audit(checks=checks[1:2], diagnostics={**CONVERGED, "converged": False}, arguments={"max_steps": 300})
    assert len(found) == 1 and "check" not in found[0].evidence


def test_method_declared_findings_pass_through_with_method_codes_only() -> None:
    notes = [{"code": "method.known_shortfall", "message": "did not beat DevNet on thyroid"},
             {"code": "fit.chi2_low", "severity": "warning", "message": "self-declared"}]
    found = audit(method="anomaly.wsad_dt", method_findings=notes, values={"x": 1.0})
    assert [(f.code, f.severity) for f in found] == [("method.note", "warning"), ("method.known_shortfall", "note")]
    assert found[0].evidence["declared_code"] == "fit.chi2_low"


def test_every_code_the_issue_names_is_declared_with_a_settle_check() -> None:
    named = {"fit.chi2_low", "fit.chi2_high", "param.prior_dominated", "param.degenerate", "sampler.not_converged",
             "data.rows_dropped", "eval.leakage", "causal.no_overlap", "report.unsupported_number", "plot.unreadable",
             "step.error_ignored", "method.loses_to_baseline", "analysis.specification_search"}
    assert named <= set(CODES)
    assert all(CODES[c].settle and CODES[c].meaning for c in CODES)


def test_a_chain_read_from_a_file_is_a_caveat_not_a_rejection() -> None:
    released = {"tau": {"Omega_m": 86.0, "h": 196.0}, "rhat": {"Omega_m": 1.004, "h": 1.029}, "n_steps": 2325,
                "ess": {"Omega_m": 431.0, "h": 189.0}, "chain_source": "file"}
    (f,) = audit(method="cosmology.summarize_chain", diagnostics=released, values={"n_samples": 37200})
    assert (f.code, f.severity) == ("sampler.not_converged", "warning")
    assert "τ = 196 for h" in f.message and "R-hat = 1.0290 (h)" in f.message and "longer chain" in f.settle


def test_a_null_that_means_not_applicable_is_not_a_lost_number() -> None:
    values = {"success": False, "searches": {"random": {"evaluations_to_success": None, "evaluations": 20}},
              "evaluations_to_success": None, "best_hit": None, "ate": {"mean": None, "std": 0.1}, "chi2": None}
    assert sorted(f.evidence["name"] for f in audit(values=values)) == ["ate.mean", "chi2"]


def test_a_method_result_without_values_is_a_note_not_a_crash() -> None:
    (f,) = audit(method="cosmology.fit_supernovae", values={}, diagnostics={}, cell="c.py")
    assert (f.code, f.severity) == ("audit.failed", "note") and "holds no values" in f.message
