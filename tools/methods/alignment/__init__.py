"""Alignment with surveyed societal norms (registered on import; `cmbagent methods list` shows it).

* ``alignment.survey_benchmark`` — weight a survey or human-feedback table to its population with the
  ``balance`` library (raking, inverse propensity weights, CBPS), estimate the population's answers with
  design-based intervals, framing effects, test–retest reliability and drift, and measure the alignment gap of
  a model's answers against the weighted population (Kreuter, ICML 2025 invited talk).

The Python API: the tool, the weighting (``fit_weights``), the design-based estimates (``Design``, ``shares``)
and the documented simulated population of the 1996 ANES with its planted effects, on which the tool is
validated (``anes96_population``, ``biased_sample``, ``plant_framing``, ``plant_retest``, ``plant_drift``,
``subgroup_answers``).
"""

from __future__ import annotations

from cmbagent.tools.methods._registry import family
from cmbagent.tools.methods.alignment._estimates import Design, js_divergence, shares, total_variation
from cmbagent.tools.methods.alignment._population import (
    ANES_QUESTIONS,
    anes96_population,
    biased_sample,
    plant_drift,
    plant_framing,
    plant_retest,
    subgroup_answers,
)
from cmbagent.tools.methods.alignment._weights import Weighting, fit_weights
from cmbagent.tools.methods.alignment.survey_benchmark import survey_benchmark

FAMILY = family(
    "alignment",
    title="Alignment with surveyed societal norms",
    expert="survey_methodologist",
    description="Benchmarks of AI answers against survey-measured public opinion: weighting to the population, "
    "framing, reliability, drift and the alignment gap.",
)

__all__ = [
    "ANES_QUESTIONS",
    "FAMILY",
    "Design",
    "Weighting",
    "anes96_population",
    "biased_sample",
    "fit_weights",
    "js_divergence",
    "plant_drift",
    "plant_framing",
    "plant_retest",
    "shares",
    "subgroup_answers",
    "survey_benchmark",
    "total_variation",
]
