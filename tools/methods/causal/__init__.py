"""Causal-inference method tools.

* ``causal.dml_ate`` — ATE by double ML adjusting for tabular and latent features (arXiv 2506.14329).
"""

from __future__ import annotations

from cmbagent.tools.methods.causal.dml import dml_ate

__all__ = ["dml_ate"]
