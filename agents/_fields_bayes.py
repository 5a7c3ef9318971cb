"""The words of Bayesian inference: how its scientists ask for the methods of the ``bayes`` family, and how
their prose states those methods' arguments (see :mod:`cmbagent.agents._fields` for the format)."""

from __future__ import annotations

from cmbagent.agents._fields import field_words, regression_table

field_words(
    "bayes.icl_posterior",
    intents=(
        "Get the full posterior of the regression coefficients with a network trained in context instead of MCMC.",
        "Amortised Bayesian inference for a logistic regression: sample the posterior of the weights.",
        "Posterior distribution of the slope and intercept of this small data set, with credible intervals.",
    ),
    cues={r"\bin-context\b": 2.0, r"\bamorti[sz]ed\b": 2.0, r"\bflow matching\b": 2.5,
          r"\bposterior (?:of|over) the (?:weights|coefficients|parameters|slope)": 2.0,
          r"\bBayesian (?:linear|logistic) regression\b": 2.0, r"\bcredible intervals?\b": 0.8},
    data=regression_table,
)

field_words(
    "bayes.pfn_regression",
    intents=(
        "Predict the curve with uncertainty from a Gaussian-process prior, using a prior-data fitted network.",
        "Fit this noisy one-dimensional curve and give predictive intervals, compared with an exact Gaussian process.",
        "Posterior predictive of a GP regression done in one forward pass of a transformer.",
    ),
    cues={r"\bGaussian[- ]process\b|\bGP\b": 2.0, r"\bprior[- ]data fitted\b|\bPFN\b": 3.0,
          r"\bpredictive (?:distribution|intervals?|uncertainty)\b": 1.0, r"\bsmooth (?:curve|function)\b": 1.0},
    data=regression_table,
)

field_words(
    "bayes.spec_avg",
    intents=(
        "Regression of a function that is exactly invariant under sign flips of its inputs.",
        "Fit a target on the sphere that is symmetric under rotations, and compare with kernel ridge regression.",
        "Learn a function with a known symmetry group using invariant eigenfunctions.",
    ),
    cues={r"\binvarian(?:t|ce)\b": 2.0, r"\bsymmetr(?:y|ic)\b": 1.5, r"\bsign flips?\b": 2.0,
          r"\bspherical harmonics\b": 2.5, r"\btorus\b": 2.0, r"\bsphere\b": 1.0, r"\bkernel ridge\b": 1.0,
          r"\bgroup\b": 0.5, r"\beigenfunctions?\b": 1.5},
    data=regression_table,
)

field_words(
    "bayes.aisivi",
    intents=(
        "Fit a flexible variational approximation to this unnormalised density and check it against the truth.",
        "Semi-implicit variational inference on a funnel-shaped target.",
        "Approximate the posterior of a Bayesian logistic regression with a variational family richer than a Gaussian.",
    ),
    cues={r"\bvariational\b": 2.5, r"\bELBO\b": 2.0, r"\bsemi-implicit\b": 3.0, r"\bfunnel\b": 1.5,
          r"\bbanana\b": 1.5, r"\bunnormali[sz]ed (?:density|log-density)\b": 2.0, r"\blog[- ]density\b": 1.0},
    data=lambda files: 0.0,
)
