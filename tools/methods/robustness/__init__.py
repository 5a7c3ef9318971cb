"""Robustness method tools.

``class_stability`` (``robustness.class_stability``): expected distance to the decision boundary, exact
for linear models, line search otherwise, and the width sweep. ``x_hacking`` (``robustness.x_hacking``):
search the defensible set of pipelines for a desired SHAP explanation. Heavy libraries load on use.
"""

from __future__ import annotations

from cmbagent.tools.methods._registry import family
from cmbagent.tools.methods.robustness._width_sweep import noisy_mixture, spectral_complexity, width_sweep
from cmbagent.tools.methods.robustness.class_stability import (
    StabilityEstimate,
    class_stability,
    estimate_stability,
    linear_stability,
)
from cmbagent.tools.methods.robustness.x_hacking import (
    XHackingSearch,
    make_proxy_data,
    rashomon_spread,
    vulnerability_scores,
    x_hacking,
)

FAMILY = family(
    "robustness",
    title="Robustness of models and explanations",
    expert="ml_theorist",
    description="Class stability of classifiers and the susceptibility of explanations to X-hacking.",
)

__all__ = [
    "FAMILY",
    "StabilityEstimate",
    "XHackingSearch",
    "class_stability",
    "estimate_stability",
    "linear_stability",
    "make_proxy_data",
    "noisy_mixture",
    "rashomon_spread",
    "spectral_complexity",
    "vulnerability_scores",
    "width_sweep",
    "x_hacking",
]
