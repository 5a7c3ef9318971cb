"""The words of cosmology: how its scientists ask for the methods of the ``cosmology`` family, and how
their prose states those methods' arguments (see :mod:`cmbagent.agents._fields` for the format)."""

from __future__ import annotations

from cmbagent.agents._fields import chain_file, field_words, supernova_table

field_words(
    "cosmology.fit_supernovae",
    intents=(
        "Fit the cosmological parameters to the supernova distance moduli.",
        "Constrain the matter density and the dark energy equation of state from the Hubble diagram of type Ia supernovae.",
        "Measure Omega_m from the supernova magnitudes and redshifts with an MCMC.",
        "How much do the supernovae add to the prior on the matter density from the CMB?",
        "Is the expansion accelerating? Fit a flat Lambda-CDM model to the SN data.",
    ),
    cues={r"\bsupernova(?:e|s)?\b": 3.0, r"\bSNe?\s*Ia\b|\bSNe\b": 3.0, r"\bdistance modul": 3.0,
          r"\bHubble diagram\b": 2.5, r"\b(?:Ω|Omega)_?\{?m": 1.5, r"\bdark energy\b": 1.5,
          r"\bequation of state\b": 1.5, r"\b(?:flat )?(?:Λ|Lambda|L)CDM\b": 1.5, r"\bw0\b|\bw_0\b": 1.0,
          r"\bredshifts?\b": 1.0, r"\bconstant w\b|\bw\s*(?:is\s+)?free\b": 1.5,
          r"\bbinned (?:supernova|SN|magnitudes|distance)": 2.0, r"\bstandard candles?\b": 2.0, r"\bluminosity distance\b": 1.5},
    data=supernova_table,
)

field_words(
    "cosmology.summarize_chain",
    intents=(
        "Summarise the posterior samples in this chain file: means, standard deviations and credible intervals.",
        "Read the published MCMC chain and give the 68% and 95% intervals of each parameter after burn-in.",
        "What does this chain say about the parameters? Drop the burn-in and make a corner plot.",
    ),
    cues={r"\bchains?\b": 2.0, r"\bburn[- ]?in\b": 2.5, r"\bposterior samples\b": 1.5, r"\bMCMC (?:output|samples|"
          r"run|file)\b": 1.5, r"\bcredible intervals?\b": 0.8, r"\bcorner plot\b": 0.8},
    data=chain_file,
)
