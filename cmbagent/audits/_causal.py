"""Overlap (positivity) of treated and control units: without it an average treatment effect is an
extrapolation of the outcome model, whatever its standard error says.

Reads the estimated propensities' share outside [0.01, 0.99] and each covariate's power to separate the
groups alone, as the causal method tools report them (``diagnostics["overlap"]``), else the method's own
``share_extreme_propensity`` with the band it used.
"""

from __future__ import annotations

from collections.abc import Iterator

from cmbagent.audits._evidence import StepEvidence
from cmbagent.audits._registry import finding, step_audit
from cmbagent.state import Finding, Severity

__all__ = ["BAND", "MAX_SHARE", "SEPARATES"]

BAND = (0.01, 0.99)
MAX_SHARE = 0.05
SEPARATES = 0.999  # a covariate whose AUC alone for the treatment is this high (or low) separates the groups



@step_audit("causal.no_overlap")
def overlap(ev: StepEvidence) -> Iterator[Finding]:
    declared = ev.section("overlap")
    separating = {name: auc for name, auc in (declared.get("covariate_auc") or {}).items()
                  if isinstance(auc, (int, float)) and max(auc, 1 - auc) >= SEPARATES}
    if separating:
        name, auc = next(iter(separating.items()))
        yield finding("causal.no_overlap",
                      f"covariate {name!r} alone separates treated from control units (AUC {auc:.4f}): there are "
                      "no comparable units on one side, so the effect is not identified from these data",
                      severity=Severity.ERROR, covariates=separating)
        return
    share = declared.get("share_outside")
    band = declared.get("band") or list(BAND)
    if not isinstance(share, (int, float)):
        share = ev.values.get("share_extreme_propensity")
        band = ev.diagnostics.get("overlap_band") or band
    if isinstance(share, (int, float)) and share > MAX_SHARE:
        yield finding("causal.no_overlap",
                      f"{100 * share:.1f}% of units have an estimated propensity outside [{band[0]}, {band[1]}] "
                      f"(more than {100 * MAX_SHARE:.0f}%): the estimate leans on extrapolation",
                      share_outside=share, band=band)
