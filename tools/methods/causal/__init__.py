"""Causal-inference method tools (registered on import; `cmbagent methods list` shows them).

* ``causal.dml_ate`` — ATE by cross-fitted double ML adjusting for tabular and latent features
  (Schulte, Rügamer & Nagler, arXiv 2506.14329).
* ``causal.iv_cate_bounds`` — CATE bounds from high-dimensional instruments via learned discrete instrument
  representations (Schweisthal et al., arXiv 2410.08976).
* ``causal.brace_counterfactual`` — backtracking counterfactual explanations under a linear SCM
  (Fatemi et al., arXiv 2505.02435).
* ``causal.value_of_prediction`` — value of prediction for identifying the worst-off and the
  prediction–access ratio (Fischer-Abaigar, Kern & Perdomo, arXiv 2501.19334).
"""

from __future__ import annotations

from cmbagent.tools.methods._registry import family
from cmbagent.tools.methods.causal.brace import brace_counterfactual
from cmbagent.tools.methods.causal.dml import dml_ate
from cmbagent.tools.methods.causal.iv_bounds import iv_cate_bounds
from cmbagent.tools.methods.causal.value_of_prediction import value_of_prediction

FAMILY = family(
    "causal",
    title="Causal inference",
    expert="causal_analyst",
    description="Average and conditional treatment effects, bounds and counterfactual explanations.",
)

__all__ = ["FAMILY", "brace_counterfactual", "dml_ate", "iv_cate_bounds", "value_of_prediction"]
