"""Robustness method tools.

``class_stability`` (``robustness.class_stability``): expected distance to the decision boundary, exact
for linear models, line search otherwise, and the width sweep. ``x_hacking`` (``robustness.x_hacking``):
search the defensible set of pipelines for a desired SHAP explanation. Heavy libraries load on use.
"""

from __future__ import annotations

from cmbagent.tools.methods.robustness._stability import (
    StabilityEstimate,
    estimate_stability,
    linear_stability,
)
from cmbagent.tools.methods.robustness._stability_tool import class_stability
from cmbagent.tools.methods.robustness._width_sweep import noisy_mixture, spectral_complexity, width_sweep
from cmbagent.tools.methods.robustness._xhacking import XHackingSearch, make_proxy_data, vulnerability_scores
from cmbagent.tools.methods.robustness._xhacking_tool import x_hacking

__all__ = [
    "StabilityEstimate",
    "XHackingSearch",
    "class_stability",
    "estimate_stability",
    "linear_stability",
    "make_proxy_data",
    "noisy_mixture",
    "spectral_complexity",
    "vulnerability_scores",
    "width_sweep",
    "x_hacking",
]
