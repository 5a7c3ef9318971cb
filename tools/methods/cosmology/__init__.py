"""Supernova cosmology: data readers, background distances, likelihood, emcee sampling, summaries.

Registered methods: ``cosmology.fit_supernovae`` (fit SN Ia distances) and ``cosmology.summarize_chain``
(summarise a chain file with the same posterior-summary code).  The building blocks are public too, for
people who want the likelihood without the sampler::

    from cmbagent.tools.methods.cosmology import SNLikelihood, load_sn_data
    like = SNLikelihood(load_sn_data("Pantheon+SH0ES.dat"), "flat_lcdm")
    like.log_posterior([[0.3], [0.35]])
"""

from __future__ import annotations

from cmbagent.tools.methods._registry import family
from cmbagent.tools.methods.cosmology._background import DistanceGrid, expansion_rate
from cmbagent.tools.methods.cosmology._io import (
    FORMATS,
    SNData,
    detect_format,
    fiducial_mu,
    load_sn_data,
    read_covariance,
)
from cmbagent.tools.methods.cosmology._likelihood import DEFAULT_PRIORS, MODELS, SNLikelihood
from cmbagent.tools.methods.cosmology._sampler import SamplerSettings, run_emcee, split_rhat
from cmbagent.tools.methods.cosmology._summary import load_chain, summarize_samples
from cmbagent.tools.methods.cosmology.supernovae import fit_supernovae, summarize_chain

FAMILY = family(
    "cosmology",
    title="Supernova cosmology",
    expert="cosmologist",
    description="Fits of supernova distance moduli to expansion histories, with chains and their summaries.",
)

__all__ = [
    "DEFAULT_PRIORS",
    "FAMILY",
    "FORMATS",
    "MODELS",
    "DistanceGrid",
    "SNData",
    "SNLikelihood",
    "SamplerSettings",
    "detect_format",
    "expansion_rate",
    "fiducial_mu",
    "fit_supernovae",
    "load_chain",
    "load_sn_data",
    "read_covariance",
    "run_emcee",
    "split_rhat",
    "summarize_chain",
    "summarize_samples",
]
