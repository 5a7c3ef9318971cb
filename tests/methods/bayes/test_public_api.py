"""The bayes family's public surface and registration."""

from __future__ import annotations

import cmbagent.tools.methods.bayes as bayes
from cmbagent.tools.methods import get_family, iter_methods


def test_public_names_are_pinned() -> None:
    assert set(bayes.__all__) == {
        "AISIVI", "FAMILY", "PFN", "GPPrior", "InContextPosterior", "SpecAvg", "aisivi", "gp_posterior",
        "icl_posterior", "mmd_test", "pfn_regression", "spec_avg", "train_icl", "train_pfn", "tuned_kernel_ridge",
    }


def test_family_registers_through_the_entry_point() -> None:
    names = {spec.name for spec in iter_methods() if spec.family == "bayes"}
    assert names == {"bayes.aisivi", "bayes.pfn_regression", "bayes.icl_posterior", "bayes.spec_avg"}
    assert get_family("bayes").expert == "bayesian_statistician"
