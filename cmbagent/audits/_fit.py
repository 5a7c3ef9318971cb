"""Two-sided goodness of fit: a chi-squared too small is as suspicious as one too large.

χ²/dof = 0.44 over 1,588 points (Pantheon+ with diagonal errors) has p ≈ 1: the errors are overestimated or
correlations between the points were ignored, and the posterior widths inherit the mistake.  A one-sided check
(``p > 1e-3``) passes it; this audit does not.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from cmbagent.audits._evidence import StepEvidence
from cmbagent.audits._registry import finding, step_audit
from cmbagent.state import Finding

__all__ = ["P_EDGE", "chi2_of"]

P_EDGE = 1e-3


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def chi2_of(values: dict[str, Any], diagnostics: dict[str, Any]) -> tuple[float, float] | None:
    """``(chi2, dof)`` from a result's values (top level or one level down), else its diagnostics."""
    for source in (values, *[v for v in values.values() if isinstance(v, dict)], diagnostics):
        chi2 = _number(source.get("chi2", source.get("chi_squared")))
        dof = _number(source.get("dof", source.get("ndof")))
        ratio = _number(source.get("chi2_per_dof", source.get("reduced_chi2")))
        if chi2 is None and ratio is not None and dof is not None:
            chi2 = ratio * dof
        if chi2 is not None and dof is not None and dof >= 1 and chi2 >= 0:
            return chi2, dof
    return None


@step_audit("fit.chi2_low", "fit.chi2_high")
def goodness_of_fit(ev: StepEvidence) -> Iterator[Finding]:
    found = chi2_of(ev.values, ev.diagnostics)
    if found is None:
        return
    from scipy.special import (
        chdtrc,  # the chi-squared survival function (scipy.stats costs seconds to import)
    )

    chi2, dof = found
    p = float(chdtrc(dof, chi2))
    facts: dict[str, Any] = {"chi2": round(chi2, 3), "dof": dof, "chi2_per_dof": round(chi2 / dof, 4), "p_value": p}
    diag = ev.diagnostics
    if p > 1 - P_EDGE:
        if diag.get("error_model") == "diagonal":
            missing = diag.get("missing_covariance")
            why = ("the fit used diagonal errors without the covariance"
                   + (f" ({missing})" if missing else "") + ": correlated errors were ignored")
            settle = (f"Refit with the full covariance ({missing}) restricted to the kept rows." if missing
                      else "Refit with the full covariance of the data.")
        else:
            why = "the errors are overestimated or correlations between the points were ignored"
            settle = None
        result = finding("fit.chi2_low", f"χ² = {chi2:.2f} for {dof:g} dof (χ²/dof = {chi2 / dof:.3f}, p = {p:.4g}) "
                                        f"is far too low: {why}; the quoted uncertainties are not trustworthy",
                        settle=settle)
        yield result.model_copy(update={"evidence": facts})
    elif p < P_EDGE:
        result = finding("fit.chi2_high", f"χ² = {chi2:.2f} for {dof:g} dof (χ²/dof = {chi2 / dof:.3f}, p = {p:.3g}) "
                                         "is far too high: the model is in tension with the data or the errors are "
                                         "underestimated")
        yield result.model_copy(update={"evidence": facts})
