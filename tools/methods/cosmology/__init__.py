"""Cosmology: supernova distances and the CMB — data readers, likelihoods, samplers, summaries.

Registered methods: ``cosmology.fit_supernovae`` (fit SN Ia distances), ``cosmology.summarize_chain``
(summarise a chain file with the same posterior-summary code), ``cosmology.cmb_spectra`` (CAMB spectra with a
CLASS cross-check) and ``cosmology.fit_cmb`` (parameters from CMB band powers, optionally with supernovae).  The building blocks are public too, for
people who want the likelihood without the sampler::

    from cmbagent.tools.methods.cosmology import SNLikelihood, load_sn_data
    like = SNLikelihood(load_sn_data("Pantheon+SH0ES.dat"), "flat_lcdm")
    like.log_posterior([[0.3], [0.35]])
"""

from __future__ import annotations

from cmbagent.tools.methods._registry import family
from cmbagent.tools.methods.cosmology._background import DistanceGrid, expansion_rate
from cmbagent.tools.methods.cosmology._io import (
    CSV_COLUMNS,
    FORMATS,
    SNData,
    detect_format,
    fiducial_mu,
    load_sn_data,
    read_covariance,
)
from cmbagent.tools.methods.cosmology._likelihood import DEFAULT_PRIORS, MODELS, SNLikelihood
from cmbagent.tools.methods.cosmology._sampler import SamplerSettings, run_emcee, split_rhat
from cmbagent.tools.methods.cosmology._summary import load_chain, parameter_name, summarize_samples
from cmbagent.tools.methods.cosmology.planck import fit_cmb
from cmbagent.tools.methods.cosmology.spectra import cmb_spectra
from cmbagent.tools.methods.cosmology.supernovae import fit_supernovae, summarize_chain

FAMILY = family(
    "cosmology",
    title="Cosmology: supernovae and the CMB",
    expert="cosmologist",
    description="Fits of supernova distance moduli to expansion histories, CMB spectra from CAMB and CLASS, "
                "parameter fits to CMB band powers (alone or with supernovae), chains and their summaries.",
)

__all__ = [
    "CSV_COLUMNS",
    "DEFAULT_PRIORS",
    "FAMILY",
    "FORMATS",
    "MODELS",
    "DistanceGrid",
    "SNData",
    "SNLikelihood",
    "SamplerSettings",
    "cmb_spectra",
    "detect_format",
    "expansion_rate",
    "fiducial_mu",
    "fit_cmb",
    "fit_supernovae",
    "load_chain",
    "load_sn_data",
    "parameter_name",
    "read_covariance",
    "run_emcee",
    "split_rhat",
    "summarize_chain",
    "summarize_samples",
]
