"""Bayesian inference method tools (registered on import; `cmbagent methods list` shows them).

* ``bayes.aisivi`` — semi-implicit variational inference with importance-sampled scores and a learned
  conditional-flow proposal (Pielok, Bischl, Rügamer, arXiv 2506.03839).
* ``bayes.pfn_regression`` — a prior-data fitted network trained on a Gaussian-process prior, scored against
  the exact GP (Müller et al. 2022; position paper arXiv 2505.23947).
* ``bayes.icl_posterior`` — in-context full Bayesian inference: a transformer encoder over the data set and a
  flow-matching decoder of the parameters (Reuter et al., arXiv 2501.16825).
* ``bayes.spec_avg`` — kernel regression with exact invariance under a finite group (Spec-Avg; Soleymani et
  al., arXiv 2502.19758).

The Python API: the estimators ``AISIVI`` and ``SpecAvg``, the networks ``PFN`` and ``InContextPosterior``
with their training functions, ``gp_posterior`` (exact GP predictive), ``mmd_test`` and the tools as plain
functions.
"""

from __future__ import annotations

from cmbagent.tools.methods._registry import family
from cmbagent.tools.methods.bayes.aisivi import AISIVI, aisivi, mmd_test
from cmbagent.tools.methods.bayes.icl_posterior import InContextPosterior, icl_posterior, train_icl
from cmbagent.tools.methods.bayes.pfn_regression import PFN, GPPrior, gp_posterior, pfn_regression, train_pfn
from cmbagent.tools.methods.bayes.spec_avg import SpecAvg, spec_avg, tuned_kernel_ridge

FAMILY = family(
    "bayes",
    title="Bayesian inference",
    expert="bayesian_statistician",
    description="Amortised and variational Bayesian inference (semi-implicit VI, prior-data fitted networks, "
    "in-context posteriors) and regression with exact invariances.",
)

__all__ = [
    "AISIVI",
    "FAMILY",
    "PFN",
    "GPPrior",
    "InContextPosterior",
    "SpecAvg",
    "aisivi",
    "gp_posterior",
    "icl_posterior",
    "mmd_test",
    "pfn_regression",
    "spec_avg",
    "train_icl",
    "train_pfn",
    "tuned_kernel_ridge",
]
