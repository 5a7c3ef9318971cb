"""The words of cosmology: how its scientists ask for the methods of the ``cosmology`` family, and how
their prose states those methods' arguments (see :mod:`cmbagent.agents._fields` for the format)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from cmbagent.agents._fields import chain_file, field_words, supernova_table
from cmbagent.profiles import FileProfile

#: "the H₀" as prose writes it
_H0 = r"(?:H_?\{?0\}?|H₀|(?:the\s+)?Hubble\s+constant)"
#: a fraction as prose writes it: "30%", "a fifth", "one quarter", "0.2"
_FRACTION = r"(?:one\s+)?(\d+(?:\.\d+)?\s*(?:%|per\s*cent)|0?\.\d+|(?:a\s+)?(?:half|third|quarter|fifth|tenth))"
_BURN = r"(?:burn[- ]?in|warm[- ]?up)"


def supernova_data(files: Sequence[FileProfile]) -> float:
    """:func:`supernova_table`, and a veto when no table could hold redshifts (no numeric column within
    [0, 10]): wavelengths or fluxes are not a Hubble diagram."""
    fit = supernova_table(files)
    tables = [f for f in files if f.columns]
    if fit < 1.0 and tables and len(tables) == len(files) and not any(
            c.numeric and c.minimum is not None and c.maximum is not None and 0 <= c.minimum and c.maximum <= 10
            for f in tables for c in f.columns):
        return -1.0
    return fit

def _distance_columns(profile: FileProfile) -> str | None:
    """Why the supernova fit cannot read a table as it is: no column it reads the distances from by name, and
    several that could hold them ("mu_salt2" and "mu_bayesn", from two light-curve fitters)."""
    from cmbagent.tools.methods.cosmology import CSV_COLUMNS

    if profile.kind not in {"table", "headerless"}:
        return None
    names = {c.lower() for c in profile.column_names}
    if names & {*CSV_COLUMNS["mu"], *CSV_COLUMNS["mb"]}:
        return None
    candidates = [c for c in profile.column_names if re.match(r"(?:mu|distmod|dist_mod|m_?b)(?:[_-]|$)", c, re.I)]
    if len(candidates) < 2:
        return None
    return (f"the table has {len(candidates)} columns that may hold the distances ({', '.join(candidates)}) and the "
            f"fit reads only one named {', '.join(CSV_COLUMNS['mu'][:2])} or {CSV_COLUMNS['mb'][1]}; say which one "
            "is meant (a copy of the file with that column renamed runs)")


#: the supernova and CMB data sets in words, for the joint fit's phrases
#: the matter and the dark-energy density in the ways they are written (Ω_m, Omega_m, ΩΛ, Omega_Lambda, Ω_DE)
_OMEGA_M = r"(?:Ω|Omega)_?\{?(?:m|M)\b\}?"
_OMEGA_L = r"(?:Ω|Omega)_?\{?(?:Λ|L|Lambda|de|DE)\b\}?"
#: curvature left free in other words: "Ω_Λ constrained separately from Ω_m", "without assuming anything about the
#: total density" (flatness fixes Ω_Λ = 1 − Ω_m)
_CURVATURE_FREE = (rf"{_OMEGA_L}[^.;]{{0,40}}?\b(?:separately|independently|apart)\s+(?:from|of)\s+{_OMEGA_M}",
                   rf"{_OMEGA_M}\s+and\s+{_OMEGA_L}\s+(?:both\s+)?(?:free|varying|independent\w*|separately)\b",
                   r"\bwithout\s+assuming\s+anything\s+about\s+(?:the\s+)?(?:total\s+(?:\w+\s+)?density|curvature|geometry|"
                   r"flatness)\b")
_SNE = r"(?:supernova\w*|SNe?(?:\s*Ia)?\b|Pantheon\w*|JLA\b|Union\s*2\.1)"
_CMB = r"(?:Planck(?:\s+2018)?|(?:the\s+)?CMB)\b"


#: a dark-energy equation of state held constant, as prose says it (the supernova and the CMB fits' ``wcdm``)
_CONSTANT_W = (r"\bconstant\s+(?:dark[- ]energy\s+)?equation[- ]of[- ]state\b", r"\bconstant\s+w\b",
               r"\bw\s+(?:as\s+|is\s+)?a\s+free\s+(?:parameter|constant)\b",
               # "letting w, a single number for the dark-energy pressure-to-density ratio, float"; "the dark energy
               # equation of state as one extra free constant", "... is a free constant rather than fixed at −1"
               r"\b(?:let\w*|allow\w*)\s+w\b[^.;]{0,70}?\b(?:float|vary|be\s+free|run\s+free)\b",
               r"\bequation[- ]of[- ]state\s+(?:as|is|be)\s+(?:one\s+|an?\s+)?(?:extra\s+|additional\s+|single\s+)?free\s+"
               r"constant\b",
               # "let the dark-energy equation of state float as one constant number"
               r"\bequation[- ]of[- ]state\s+(?:float|vary|run\s+free|be\s+free)\w*\s+as\s+(?:one|a|a\s+single)\s+constant\b",
               # "w should be free but constant in time"
               r"\bw\s+(?:should\s+be\s+|is\s+|to\s+be\s+|be\s+)?(?:free|varied|fitted|floated)\s+(?:but|and|yet)\s+constant\b",
               r"\bw\b[^.;]{0,30}?\bconstant\s+(?:in\s+time|with\s+redshift|over\s+(?:time|redshift))\b",
               r"\bw\b,?\s+(?:taken|held|kept|assumed|treated|fixed)\s+(?:as\s+|to\s+be\s+)?constant\b",
               # "a flat model in which w does not evolve with redshift", "a non-evolving w"
               r"\bw\s+(?:that\s+|which\s+)?(?:does\s+not|doesn't|do\s+not|never|cannot|can't)\s+(?:evolve|vary|change)\b",
               r"\b(?:non-?|un)(?:evolving|varying)\s+(?:dark[- ]energy\s+)?(?:w|equation[- ]of[- ]state)\b",
               # "the dark-energy equation of state, held constant in time"
               r"\bequation[- ]of[- ]state\b,?\s+(?:(?:that\s+is|which\s+is)\s+)?(?:held|kept|taken|assumed|treated)?\s*"
               r"(?:as\s+|to\s+be\s+)?constant\b")


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
          r"\bbinned (?:supernova|SN|magnitudes|distance)": 2.0, r"\bstandard candles?\b": 2.0, r"\bluminosity distance\b": 1.5,
          # a light-curve fitter's output: "the SALT peak magnitudes", "the absolute magnitude integrated out"
          r"\bSALT\s*2?\b": 2.0, r"\blight[- ]curves?\b": 1.0, r"\bpeak\s+(?:apparent\s+)?magnitudes?\b": 1.5,
          r"\babsolute\s+magnitude\b": 1.0},
    data=supernova_data,
    layout={"data": lambda profile: _distance_columns(profile)},
    arguments={
        # the method's own phrases come first; these add the ways prose wraps and words them
        "model": {
            "w0wacdm": [r"\bevolving\s+dark\s+energy\b", r"\btime[- ]varying\s+(?:dark\s+energy|equation\s+of\s+state|w)\b",
                        r"\bw_?0\s*[-–—/,]?\s*(?:and\s+)?w_?a\b", r"\bw\s*\(\s*(?:a|z)\s*\)\s*="],
            "wcdm": list(_CONSTANT_W),
            "lcdm": [r"\bwithout\s+(?:assuming\s+)?flatness\b", r"\b(?:free|spatial)\s+curvature\b",
                     r"\b(?:do\s+not|don't|not|never)\s+assum\w*\s+(?:a\s+)?flat(?:ness|\s+universe|\s+geometry)?\b",
                     r"\bopen\s+or\s+closed\b", r"\bis\s+the\s+universe\s+flat\b", *_CURVATURE_FREE],
            "flat_lcdm": [r"\bflat\s+(?:universe|cosmology|geometry)\b", r"\bspatially\s+flat\b",
                          r"\bassum\w*\s+flatness\b", r"\bflat\s+(?:Λ|L|lambda[\s-]?)CDM\b"],
        },
        "free_h0": [rf"\bsampl\w*\s+{_H0}", rf"\b{_H0}\s+(?:as\s+)?(?:a\s+)?(?:free|fitted|sampled)\s+parameter\b",
                    rf"\b{_H0}\s+as\s+a\s+parameter\b",
                    # "the Hubble constant as an actual parameter of the chain rather than marginalised away"
                    rf"\b{_H0}\s+as\s+an?\s+(?:actual|real|proper|genuine|separate|explicit)\s+parameter\b",
                    rf"\b{_H0}\b[^.;]{{0,60}}\brather\s+than\s+(?:being\s+)?marginali[sz]ed\b",
                    rf"\b(?:fit|measure|constrain|estimate|determine|infer)\w*\s+(?:for\s+)?{_H0}(?![\w-])",
                    # "letting H0 float", "H0 free"; "H0 not sampled", "keep H0 fixed"
                    rf"\b(?:let\w*|allow\w*)\s+{_H0}\s+(?:to\s+)?(?:float|vary|be\s+free|free)\b",
                    rf"\b{_H0}\s+(?:floats?|floating|varies|left\s+free)\b",
                    # "with H0 sampled directly rather than marginalised", "H0 is not fixed by hand"
                    rf"\b{_H0}\s+(?:is\s+|was\s+|being\s+|(?:should|must|will|can|to)\s+be\s+)?sampled\b(?!\s+(?:from|at)\b)",
                    rf"\b{_H0}\s+(?:is\s+|was\s+)?not\s+(?:held\s+|kept\s+)?fixed\b",
                    # for magnitudes the offset is M: "the absolute magnitude M sampled as a parameter"
                    r"\b(?:absolute\s+magnitude(?:\s+M)?|the\s+offset)\s+(?:is\s+|be\s+)?sampled\b",
                    # "I would rather see the absolute magnitude as a sampled parameter than have it marginalised"
                    rf"\b(?:absolute\s+magnitude(?:\s+M)?|{_H0})\s+as\s+an?\s+(?:sampled|free|fitted|explicit)\s+parameter\b",
                    r"\bsampl\w*\s+(?:the\s+)?(?:absolute\s+magnitude|offset)\b",
                    # "I don't want the magnitude offset marginalised away: please sample it explicitly"
                    rf"\b(?:don't|do\s+not|not)\s+want\s+(?:the\s+)?(?:(?:absolute|magnitude)\s+)*(?:offset|magnitude|{_H0})\s+"
                    r"(?:to\s+be\s+)?(?:marginali[sz]ed|integrated\s+out)",
                    # "don't marginalise the absolute magnitude analytically this time", "rather than integrating out
                    # the absolute magnitude", "sample M as an explicit parameter"
                    rf"\b(?:do\s+not|don't|not\s+to|rather\s+than|instead\s+of)\s+(?:marginali[sz]\w*|integrat\w*\s+out)"
                    rf"\s+(?:over\s+)?(?:the\s+)?(?:absolute\s+magnitude(?:\s+M)?|offset|{_H0})(?!\w)",
                    r"\bsampl\w*\s+(?:the\s+absolute\s+magnitude\s+)?M(?:_B)?\s+(?:as\s+)?(?:an?\s+)?(?:explicit|free|separate|"
                    r"extra|additional)?\s*parameter\b",
                    (rf"\b{_H0}\s+(?:is\s+|left\s+)?(?:not|never)\s+(?:sampled|fitted|free|varied|floated)\b", False),
                    (rf"\b(?:keep\w*|hold\w*)\s+{_H0}\s+fixed\b|\b{_H0}\s+(?:is\s+|kept\s+|held\s+)?fixed\b", False)],
    },
)

field_words(
    "cosmology.summarize_chain",
    # a given cosmology's model ("a closed universe", "flat ΛCDM") is its parameters, not a fit's `model`
    expresses=("model",),
    intents=(
        "Summarise the posterior samples in this chain file: means, standard deviations and credible intervals.",
        "Read the published MCMC chain and give the 68% and 95% intervals of each parameter after burn-in.",
        "What does this chain say about the parameters? Drop the burn-in and make a corner plot.",
    ),
    cues={r"\bchains?\b": 2.0, r"\bburn[- ]?in\b": 2.5, r"\bposterior samples\b": 1.5, r"\bMCMC (?:output|samples|"
          r"run|file)\b": 1.5, r"\bcredible intervals?\b": 0.8, r"\bcorner plot\b": 0.8,
          # "discard the first 30% of each, pool them, say whether the two runs are consistent enough to call the
          # thing converged"
          r"\b(?:discard|drop|throw\s+away|remove|cut)\w*\s+the\s+first\b": 1.5, r"\bpool(?:s|ed|ing)?\s+(?:them|the\s+(?:chains|runs|samples))\b": 1.5,
          r"\bconverged\b|\bconvergence\b|\bGelman[-–\s]+Rubin\b|\bR\s*[-−]\s*1\b": 1.0},
    data=chain_file,
    arguments={
        "burn_in_fraction": [
            rf"\bfirst\s+{_FRACTION}(?![\w%])[^.;]{{0,60}}?\b{_BURN}\b",  # "the first 30% of the samples are burn-in"
            rf"\b{_BURN}\s+(?:fraction\s+)?(?:of|is|=|:)\s*(?:the\s+first\s+)?{_FRACTION}(?![\w%])",
            rf"\b(?:discard|drop|remov|throw\w*\s+(?:away|out)|cut|skip|ignor)\w*\s+(?:the\s+)?first\s+{_FRACTION}(?![\w%])",
            # "Discard a fifth of every chain at its start"
            rf"\b(?:discard|drop|remov|throw\w*\s+(?:away|out)|cut|skip|ignor)\w*\s+{_FRACTION}(?![\w%])\s+of\s+(?:every|each|the|"
            rf"both|all)\s+(?:\w+\s+)?(?:chains?|runs?|files?)\s+(?:at\s+(?:its|their|the)\s+(?:start|beginning)|from\s+(?:its|their|"
            rf"the)\s+(?:start|beginning)|as\s+{_BURN})",
            # "nothing should be thrown away at the start: keep every row", "no burn-in": importance samples, all kept
            (r"\bnothing\s+(?:should|is\s+to|needs\s+to|has\s+to)\s+be\s+(?:thrown\s+away|discarded|dropped|cut|removed)\b", 0.0),
            (r"\bkeep\s+(?:every|each|all(?:\s+the)?)\s+(?:rows?|samples?|draws?|points?)\b(?![^.;]{0,30}\b(?:after|but|except)\b)", 0.0),
            # "treat the first 1,200 of its 3,000 samples as burn-in": a share of 0.4
            rf"\bfirst\s+(\d[\d,]*\s+of\s+(?:its|the|all|our)\s+\d[\d,]*)\s+(?:samples|steps|draws|points|rows|"
            rf"iterations)\b[^.;]{{0,30}}?\b{_BURN}\b",
        ],
        # "I only need σ8 (the `sigma_8` column)": the names after the restriction
        "parameters": [
                       # "I only need the focal depth and the stress drop": names in words, read only when each is
                       # spelled below or names one column of the chain
                       r"\bonly\s+(?:needs?|wants?|cares?\s+about|reports?|summari[sz]es?|interested\s+in)\s+"
                       r"((?:the\s+)?[a-z][\w-]*(?:\s+(?!and\b)[a-z][\w-]*){0,2}(?:\s*(?:,\s*(?:and\s+)?|\band\s+)"
                       r"(?:the\s+)?[a-z][\w-]*(?:\s+(?!and\b)[a-z][\w-]*){0,2})+)(?=\s*(?:[—–:;.(]|$|\s-\s))",
                       r"\bonly\s+(?:needs?|wants?|cares?\s+about|reports?|summari[sz]es?|interested\s+in)\b[^.;:]{0,40}?"
                       r"`([A-Za-z_][\w.]*`(?:\s*(?:,|and)\s*`[A-Za-z_][\w.]*`)*)",
                       # "I only need Ω_m and σ_8": symbols, read only when each is spelled below
                       r"\bonly\s+(?:needs?|wants?|cares?\s+about|reports?|summari[sz]es?|interested\s+in)\s+(?:the\s+)?"
                       r"((?:[^\s,.;:`]+)(?:\s*(?:,|and)\s*[^\s,.;:`]+)*)",
                       # "intervals for Ω_m and σ8 only", "just Ω_m and S_8"
                       r"\b(?:for|of|on)\s+((?:[^\s,.;:`]+)(?:\s*(?:,|and)\s*[^\s,.;:`]+)*)\s+only\b",
                       r"\bjust\s+((?:[^\s,.;:`]+)(?:\s*(?:,|and)\s*[^\s,.;:`]+)+)\b(?!\s+(?:the|a|an)\b)",
                       # "but only for H0 and sigma8 (that is all the referee asked about)"
                       r"\b(?:only|just)\s+(?:for|of|on)\s+((?:[^\s,.;:`()?!]+)(?:\s*(?:,|and)\s*(?!(?:after|before|then|with|"
                       r"but|dropping|discarding|removing|using|so|please|once)\b)[^\s,.;:`()?!]+)+)",
                       # "give me H0 and sigma8.": a list that ends its sentence, read only when each is spelled below
                       r"\b(?:give\s+me|report|quote)\s+((?:[^\s,.;:`()?!]+)(?:\s*(?:,|and)\s*[^\s,.;:`()?!]+)+)\s*(?=[.;!]|$)",
                       # "summarise just the matter density and the dark-energy equation of state w": names in words,
                       # read only when each is spelled below
                       r"\b(?:summari[sz]e|report|need|want|quote|give\s+me)\s+(?:just|only)\s+((?:the\s+)?[^.;:?()`]{3,100}?)"
                       r"(?=\s*[.;:?(]|\s+(?:from|in)\s+(?:it|them|(?:the|this|that|each|our)\s+[\w-]+)\b)",
                       # "summarise omch2 and H0 only", "summarise S_8 and Omega_m — A_IA is a nuisance parameter":
                       # names each spelled below or a column of the chain, two or more
                       r"\bsummari[sz]e\s+((?:[^\s,.;:`()?!]+)(?:\s*(?:,\s*(?:and\s+)?|\band\s+)[^\s,.;:`()?!]+)+)"
                       r"(?=\s+only\b|\s*[—–]|\s+-\s)"],
    },
    # the chain's parameter names as the method normalises them (omega_m -> Omega_m), as prose writes them
    spellings={"parameters": {
        # and in words: "the matter density", "the dark-energy equation of state w", "the clustering amplitude"
        "Omega_m": [r"(?:Ω|Omega|omega)_?\{?m\}?", r"O_?m", r"(?:total\s+)?matter\s+density(?:\s+parameter)?"],
        "Omega_b": [r"(?:Ω|Omega|omega)_?\{?b\}?", r"baryon\s+density(?:\s+parameter)?"],
        "Omega_k": [r"(?:Ω|Omega|omega)_?\{?k\}?", r"(?:spatial\s+)?curvature(?:\s+density|\s+parameter)?"],
        "Omega_L": [r"(?:Ω|Omega|omega)_?\{?(?:Λ|Lambda|L|de)\}?", r"dark[- ]energy\s+density(?:\s+parameter)?"],
        "sigma_8": [r"(?:σ|sigma)_?\{?8\}?", r"(?:clustering|fluctuation)\s+amplitude"], "S_8": [r"S_?\{?8\}?"],
        "h": [r"h"], "H0": [r"H_?\{?0\}?", r"H₀", r"Hubble\s+(?:constant|rate|parameter)"],
        "w": [r"w_?\{?0\}?", r"w", r"(?:dark[- ]energy\s+)?equation[- ]of[- ]state(?:\s+(?:parameter\s+)?w_?0?)?"],
        "wa": [r"w_?\{?a\}?"], "n_s": [r"n_?\{?s\}?", r"(?:scalar\s+)?spectral\s+index"],
        "tau": [r"τ", r"tau", r"(?:reionization\s+|reionisation\s+)?optical\s+depth"],
        "M": [r"M(?:_B)?", r"absolute\s+magnitude"],
    }},
)

#: the parameters of a CMB computation by Cobaya's names, as prose writes each one (a head the value follows)
COSMOLOGICAL_PARAMETERS: dict[str, list[str]] = {
    "H0": [r"\bH_?\{?0\}?(?![\w])", r"H₀", r"\bHubble\s+(?:constant|rate|parameter)"],
    "ombh2": [r"(?:Ω|Omega|omega)_?\{?b\}?\s*h\s*(?:\^\s*\{?2\}?|²)", r"\bω_?b\b", r"\bombh2\b",
              r"\bphysical\s+baryon\s+density"],
    "omch2": [r"(?:Ω|Omega|omega)_?\{?c\}?\s*h\s*(?:\^\s*\{?2\}?|²)", r"\bω_?c\b", r"\bomch2\b",
              r"\bphysical\s+(?:cold\s+)?dark[- ]matter\s+density"],
    "theta_MC_100": [r"\b100\s*(?:θ|theta)_?\{?MC\}?", r"\btheta_MC_100\b"],
    "tau": [r"τ(?:_?\{?reio\}?)?(?![\w])", r"\btau\b", r"\boptical\s+depth(?:\s+(?:to|of)\s+reioni[sz]ation)?"],
    "logA": [r"\bln\s*\(?\s*10\s*(?:\^\s*\{?10\}?|¹⁰)\s*A_?\{?s\}?\s*\)?", r"\blogA\b"],
    "ns": [r"\bn_?\{?s\}?(?![\w])", r"\b(?:scalar\s+)?spectral\s+index", r"\b(?:scalar|spectral)\s+tilt"],
    "mnu": [r"Σ\s*m_?\{?ν\}?", r"\\sum\s*m_\{?\\nu\}?", r"\bsum(?:med)?\s+(?:of\s+(?:the\s+)?)?neutrino\s+mass(?:es)?",
            r"\bneutrino\s+mass\s+sum\b", r"\bmnu\b", r"\bsummed\s+(?:neutrino\s+)?mass\b",  # "a summed mass of 0.15 eV"
            # "take the neutrino masses to sum to 0.1 eV"
            r"\bneutrino\s+masses\s+(?:to\s+|that\s+)?sum(?:s|ming)?\s+to"],
    "nnu": [r"\bN_?\{?eff\}?(?![\w])", r"\bnnu\b", r"\beffective\s+number\s+of\s+(?:neutrino|relativistic)\s+species"],
    "w": [r"\bw_?\{?0\}?(?![\w])", r"\bw(?=\s*=)"],
    "wa": [r"\bw_?\{?a\}?(?![\w])"],
    "omk": [r"(?:Ω|Omega|omega)_?\{?k\}?(?![\w])", r"\bomk\b", r"\bcurvature\s+density"],
    "r": [r"\br(?=\s*=)", r"\btensor[- ]to[- ]scalar\s+ratio"],
}

# -- the CMB methods (issue 33): theory spectra from a code, and parameters fitted to measured band powers --------
field_words(
    "cosmology.cmb_spectra",
    # a given cosmology's model ("a closed universe", "flat ΛCDM") is its parameters, not a fit's `model`
    expresses=("model",),
    intents=(
        "Compute the lensed CMB temperature and polarisation power spectra with CAMB for a given cosmology.",
        "What do the theory C_ell look like for massive neutrinos or a tensor-to-scalar ratio? Plot D_ell.",
        "Compare the CMB spectra from CAMB and CLASS for the same parameters: how far apart are they?",
        "Predict the B-mode and lensing potential spectra for these cosmological parameters.",
        "Give me the TT, TE and EE spectra up to ell of 3000 for an evolving dark energy model.",
    ),
    # CLASS the code, not the word "class"; C_ell written out, not "cell"
    arguments={
        # each parameter by the names and symbols cosmologists write ("Σm_ν = 0.15 eV", "a tensor-to-scalar ratio
        # of r = 0.05", "ln(10¹⁰ A_s) = 3.05", "N_eff = 3.3"); read by the reader's parameter rule, never as priors
        "params": COSMOLOGICAL_PARAMETERS,
        "lmax": [r"\bup\s+to\s+(?:multipole\s+)?(?:ℓ|ell|l|\\ell)\s*(?:=|of)?\s*(\d[\d,]*)(?!\d|\.\d)",
                 # "compute the lensed spectra to ℓ = 2200"
                 r"\b(?:spectra|spectrum|C_?(?:ℓ|ell|l)s?|D_?(?:ℓ|ell|l)s?)\s+to\s+(?:multipole\s+)?(?:ℓ|ell|\\ell)\s*(?:=|of)?\s*"
                 r"(\d[\d,]*)(?!\d|\.\d)",
                 r"\b(?:ℓ|ell|multipoles?)\s+(?:up\s+)?to\s+(\d[\d,]*)(?!\d|\.\d)",
                 r"(?:\b(?:l|ell)|ℓ)_?\{?max\}?\s*(?:=|of)\s*(\d[\d,]*)(?!\d|\.\d)",
                 # "go out to ℓ = 3000", "as far as ℓ of 2000", "ℓ ≤ 2500"
                 r"\b(?:out\s+to|through|as\s+far\s+as|until|go(?:ing|es)?\s+(?:up\s+|out\s+)?to|"
                 # "stopping at ell = 2000", "cut off at ℓ = 1500"
                 r"(?:stop(?:ping|s)?|end(?:ing|s)?|cut\s+off|truncat\w*)\s+at)\s+(?:multipole\s+)?(?:ℓ|ell|\\ell)\s*(?:=|of)?\s*(\d[\d,]*)"
                 r"(?!\d|\.\d)",
                 r"(?:ℓ|\bell)\s*(?:≤|<=)\s*(\d[\d,]*)(?!\d|\.\d)",
                 r"\b(?:up\s+to|out\s+to|through|as\s+far\s+as)\s+(?:a\s+)?multipoles?\s+(?:of\s+)?(\d[\d,]*)(?!\d|\.\d)",
                 # "take it up to a maximum multipole of 2000"
                 r"\b(?:maximum|highest|largest|top)\s+multipole\s+(?:of\s+|=\s*|at\s+)?(?:ℓ\s*=\s*)?(\d[\d,]*)(?!\d|\.\d)"],
        # "recompute the same model with CLASS", "cross check it with class as well"
        "cross_check": {"class": [r"\b(?:second|other)\s+Boltzmann\s+(?:code|solver)\b",  # CAMB computes first
                                  r"\b(?:re)?(?:comput|calculat|check|cross[- ]check|compar|redo|repeat)\w*\b[^.;]{0,40}?"
                                  r"\b(?:with|in|against|using)\s+(?:CLASS|class)\b(?!\s+(?:labels?|imbalance|of\b))"]},
    },
    cues={r"\bpower spectr\w*": 2.0, r"\bCAMB\b": 2.5, r"(?-i:\bCLASS\b)": 1.5,
          # "theory curves for a universe with more baryons", "spectra up to ℓ = 1800"
          r"\btheory\s+curves\b": 2.0, r"\bspectra\s+(?:up\s+|out\s+)?to\s+(?:ℓ|ell|multipole)\b": 1.5,
          # the spectra of a cosmology the task describes: "the CMB spectra for a cosmology whose spectral index is ..."
          r"\bspectr\w*\s+(?:\w+\s+){0,4}?for\s+a\s+(?:[\w-]+\s+)?(?:cosmology|universe|model)\s+(?:with|whose|where|in\s+which)\b": 1.5,
          r"\bC_\{?\\?ell\b|\bC_?ℓ|\bD_?ℓ|\bD_\{?\\?ell\b": 2.0,
          r"\blensing potential\b": 2.0, r"\bB-?modes?\b": 1.5, r"\btensor[- ]to[- ]scalar\b": 2.0,
          r"\b(?:theory|theoretical|model) spectr\w*": 2.5, r"\b(?:compute|calculate|predict|generate|make|produce|give|get|plot|show)\w*\s+(?:me\s+|us\s+)?(?:the\s+)?"
          r"(?:lensed\s+)?(?:CMB\s+)?(?:power\s+)?spectr\w*": 3.0, r"\bcross[- ]check\w*\b": 1.0,
          r"\bdamping\s+tail\b": 1.5, r"\bcross[- ]code\s+(?:check|comparison|validation)\b": 1.5,
          # the spectra as the thing wanted ("make me lensed cmb power spectra"), and the codes that compute them
          r"\blensed\s+(?:\w+\s+){0,4}?(?:power\s+)?spectr\w*": 2.0, r"\bBoltzmann\s+(?:codes?|solvers?)\b": 1.5,
          # Planck as the source of the other parameters' values, not as data to fit ("everything else at the
          # Planck 2018 baseline", "stays at its Planck 2018 best-fit value")
          # ("leave the remaining parameters at their Planck 2018 defaults")
          r"\b(?:at|to|from|on)\s+(?:the\s+|its\s+|their\s+)?Planck\s+(?:2018\s+)?(?:baseline|best[- ]fit|values?|"
          r"defaults?|fiducial|cosmology)\b|"
          r"\b(?:the\s+)?(?:rest|others|everything\s+else|all\s+else|other\s+parameters)\s+(?:\w+\s+)?at\s+(?:the\s+)?"
          r"Planck(?:\s+2018)?\b|"
          # "the remaining parameters are the Planck 2018 baseline", "the other parameters stay where Planck 2018 put them"
          r"\b(?:remaining|other)\s+parameters\s+(?:are|stay|remain|sit|kept|held)\s+(?:at\s+|where\s+)?(?:the\s+|their\s+)?"
          r"Planck(?:\s+2018)?\b|"
          # "take the Planck 2018 baseline for all the rest"
          r"\b(?:take|use|keep)\s+(?:the\s+)?Planck(?:\s+2018)?\s+(?:baseline|best[- ]fit|values?|defaults?)\s+for\s+(?:all\s+)?"
          r"(?:the\s+)?(?:rest|others|remaining\s+\w+|everything\s+else)\b": 2.0},
)

#: a spectrum named as the only one used: "TE and nothing else", "TE only", "EE alone"
_ONLY_SPECTRUM = r"(?:\s+(?:band[- ]?powers?|spectrum|data))?\s+(?:and\s+nothing\s+else|only|alone)\b"

field_words(
    "cosmology.fit_cmb",
    intents=(
        "Fit the six LCDM parameters to the Planck CMB band powers with their covariance.",
        "Constrain the cosmological parameters from the measured CMB TT, TE and EE band powers with an MCMC.",
        "Combine the Planck CMB likelihood with the supernovae and fit w.",
        "What do the CMB data alone say about H0 and Omega_m? Run the chains to convergence.",
        "Reproduce the Planck 2018 parameter table from the compressed high-ell likelihood.",
    ),
    arguments={
        "model": {"wcdm": list(_CONSTANT_W)},
        "spectra": {"TT": [r"\bTT\s+(?:band[- ]?powers?\s+|spectrum\s+|data\s+)?only\b",
                           r"\bleaving\s+out\s+(?:the\s+)?TE\s+and\s+EE\b",
                           # "the temperature autospectrum only (no TE, no EE)", "no TE or EE"
                           r"\btemperature\s+(?:auto[- ]?spectrum|power\s+spectrum|band[- ]?powers?|spectrum|data)\s+"
                           r"(?:alone|only)\b",
                           r"\b(?:no|without(?:\s+the)?)\s+TE\s*(?:,|\band\b|\bor\b)\s*(?:no\s+|the\s+)?EE\b"],
                    # "only Planck 2018's temperature–polarisation cross-spectrum, TE and nothing else", "nothing but EE";
                    # "the E-mode band powers alone", "polarisation-only (EE)"
                    **{s: [rf"(?-i:\b{s}){_ONLY_SPECTRUM}", rf"\bnothing\s+but\s+(?:the\s+)?(?-i:{s})\b",
                           # "uses only the temperature–polarisation cross spectrum, TE, from ..."
                           rf"\b(?:only|just)\s+(?:the\s+)?(?:[\w–-]+\s+){{0,3}}?(?:cross[- ]?)?spectrum,?\s+\(?(?-i:{s})\b"
                           rf"(?!\s*(?:,|and|\+)\s*(?-i:TT|TE|EE))",
                           rf"\b(?:only|just)\s+(?:the\s+)?(?-i:{s})\b(?!\s*(?:,|and|\+)\s*(?-i:TT|TE|EE))",
                           *([r"\bE[- ]mode\s+(?:polari[sz]ation\s+)?(?:auto[- ]?spectrum|band[- ]?powers?|spectrum|data)\s+"
                              r"(?:alone|only)\b",
                              r"\bpolari[sz]ation[- ]only\s*\(\s*EE\s*\)"] if s == "EE" else [])]
                       for s in ("TE", "EE")}},
        # "stop once R − 1 is below 0.05", "run until R-1 < 0.02"
        "rminus1_stop": [r"\bR\s*[-−–]\s*1\s+(?:of\s+the\s+means\s+)?(?:is\s+|falls\s+|drops\s+|gets\s+|goes\s+)?"
                         r"(?:below|under|less\s+than)\s*(\d*\.\d+)",
                         r"\bR\s*[-−–]\s*1\s*(?:<|<=|≤)\s*(\d*\.\d+)"],
        # the check of the emulator against CAMB at the best fit: "leave out the emulator-versus-CAMB comparison"
        "check_camb": {
            # ("No need for the one-off CAMB comparison")
            False: [r"\b(?:leave\s+out|leaving\s+out|skip|skipping|omit|omitting|drop|dropping|without|no(?:\s+need\s+for)?)\s+"
                    r"(?:the\s+|any\s+)?(?:one-off\s+|final\s+|extra\s+|usual\s+)?"
                    r"(?:emulator[- ](?:versus|vs\.?|against)[- ])?CAMB\s+(?:comparison|check|cross-?check|validation|run|re-?run)\b",
                    # "No need to rerun CAMB at the best-fit point afterwards"
                    r"\b(?:no\s+need\s+to|needn't|don't|do\s+not|skip|without)\s+(?:re-?run\w*|run\w*|call\w*)\s+CAMB\b",
                    r"\b(?:emulator[- ](?:versus|vs\.?|against)[- ])?CAMB\s+(?:comparison|check|cross-?check|validation)\s+"
                    r"(?:is\s+not\s+needed|can\s+be\s+(?:skipped|dropped|left\s+out))\b",
                    # "Skip the final comparison against a full Boltzmann calculation at the best fit"
                    r"\b(?:leave\s+out|skip|skipping|omit|omitting|drop|dropping|without|no(?:\s+need\s+for)?)\s+(?:the\s+|a\s+|any\s+)?"
                    r"(?:final\s+|closing\s+|last\s+)?(?:comparison|check|cross-?check|validation)\s+(?:against|with|versus|to)\s+"
                    r"(?:a\s+|the\s+)?(?:full\s+|exact\s+|proper\s+)?(?:Boltzmann|CAMB)\b"],
            True: [r"\b(?:with|include|including|keep|plus)\s+(?:the\s+|a\s+)?(?:emulator[- ](?:versus|vs\.?|against)[- ])?"
                   r"CAMB\s+(?:comparison|check|cross-?check|validation)\b"]},
        # "cap the chain at 30,000 accepted samples", "at most 20000 samples"
        "max_samples": [r"\b(?:cap|limit|stop|end)\w*\s+(?:the\s+|each\s+)?(?:chains?|sampler|run|MCMC)\s+(?:at|to|after)\s+"
                        r"(\d[\d,]*)\s+(?:accepted\s+)?(?:samples|points|steps)\b",
                        r"\b(?:at\s+most|no\s+more\s+than|up\s+to)\s+(\d[\d,]*)\s+(?:accepted\s+)?samples\b",
                        # "should give up after 20,000 accepted samples", "halt at 40000 samples"
                        r"\b(?:give\s+up|stop|halt|quit)\s+(?:after|at)\s+(\d[\d,]*)\s+(?:accepted\s+)?samples\b",
                        # "stop the chain once it has 60,000 accepted points at the latest"
                        r"\b(?:stop|halt|end)\w*\s+(?:the\s+|each\s+)?(?:chains?|sampler|run|MCMC)\s+(?:once|when|as\s+soon\s+as)\s+"
                        r"(?:it|they)\s+(?:has|have|reach(?:es)?|hold|holds)\s+(\d[\d,]*)\s+(?:accepted\s+)?(?:samples|points|steps)\b"],
        # "leave out as well the two compressed low-ℓ temperature bins"
        "low_ell_tt": [(r"\b(?:leave|leaving|drop|dropping|skip|skipping|exclude|excluding|without|(?:do\s+not|don't)\s+"
                        r"(?:add|include|use))\s+(?:out\s+)?"
                        r"(?:as\s+well\s+)?(?:the\s+)?(?:two\s+|pair\s+of\s+)?(?:compressed\s+|binned\s+)?(?:low[- ]?(?:ℓ|ell|l|multipole)|"
                        r"large[- ]scale)\s+(?:TT|temperature)", False),
                       # "with no temperature points at low multipoles either"
                       (r"\b(?:no|without(?:\s+any)?|leave\s+out\s+the|drop\s+the)\s+(?:TT|temperature)\s+"
                        r"(?:points|data|bins|band[- ]?powers|information)\s+(?:at|from|on)\s+(?:the\s+)?(?:low|large[- ]scale)\s+"
                        r"(?:multipoles?|ℓ|ell|l|scales)\b", False)],
    },
    # the CMB fit is flat: a free curvature is a model it does not have
    unoffered={"model": {"a curved universe (Ω_k free)": [
        r"\b(?:spatial\s+)?curvature\b[^.;]{0,40}?\b(?:free|varied|vary|sampled|open)\b",
        r"(?:Ω|Omega)_?\{?k\}?[^.;]{0,30}?\b(?:free|varied|vary|sampled)\b",
        r"\b(?:do\s+not|don't|not|never)\s+assum\w*\s+(?:a\s+)?flat(?:ness)?\b"],
        # nor does it sample the extensions of ΛCDM: N_eff, the neutrino mass, a running index, the lensing amplitude
        **{f"{what} free": [rf"\b(?:{words})\b[^.;]{{0,40}}?\b(?:free|varied|vary|varying|sampled|float|floated|"
                            r"floating|open)\b",
                            rf"\b(?:free|freeing|vary|varying|sample|sampling|float|floating|let)\s+(?:the\s+)?(?:{words})\b"]
           for what, words in (
               ("N_eff", r"N_?\{?eff\}?|effective\s+number\s+of\s+(?:relativistic\s+species|neutrino\s+species|"
                         r"neutrinos|relativistic\s+degrees)"),
               ("the neutrino mass", r"(?:sum\s+of\s+(?:the\s+)?)?neutrino\s+mass(?:es)?|Σ\s*m_?ν|m_?ν"),
               ("a running spectral index", r"running\s+(?:of\s+the\s+)?(?:scalar\s+)?(?:spectral\s+)?index|"
                                            r"dn_?s\s*/\s*d\s*ln\s*k|n_?run"),
               ("the lensing amplitude", r"A_?\{?L\}?|A_?lens|lensing\s+amplitude"))}}},
    # a supernova table is an input of its joint fit (``supernovae``), not its main data: half the vote
    data=lambda files: 0.5 * max(0.0, supernova_data(files)),
    cues={r"\bband[- ]?powers?\b": 3.0, r"\bplik\w*": 3.0, r"\blikelihood\b": 1.0, r"\bCobaya\b": 1.5,
          # "constrain H0 from Planck", not "... with a prior from Planck" (a supernova fit's prior)
          r"\b(?:fit|constrain|infer|estimate|measure)\w*\b(?:(?!\bpriors?\b)[^.]){0,60}\b(?:from|using)\s+(?:only\s+)?(?:the\s+)?"
          r"(?:Planck|CMB)\b": 2.5,
          # "For τ, swap the default reionisation prior", "cap the chain at 30,000 accepted samples"
          r"\breioni[sz]ation\s+prior\b": 1.5, r"\baccepted\s+samples\b": 1.0,
          r"\b(?:Planck|CMB)\s+(?:data|measurements|band)": 1.5, r"\bR\s*[-−]\s*1\b": 1.0, r"\boptical depth\b": 1.0,
          r"\bτ\s+prior\b|\btau\s+prior\b": 1.5,
          # "rerun the full temperature and polarisation Planck fit", "a tighter optical-depth prior"
          r"\b(?:Planck|CMB)\s+(?:fit|chains?|MCMC|run)\b": 2.0, r"\boptical[- ]depth\s+prior\b": 1.5,
          # a fit's own words: "the high-ℓ lite likelihood, six-parameter ΛCDM ... sampler seed 12 ... the means and 68%
          # limits and the triangle plot"
          r"\b(?:six|6)[- ]parameter\b": 1.5, r"\bhigh[- ](?:ℓ|ell|l)\b": 1.5, r"\bsampler\b": 1.0,
          # the fit's own check of its emulator, whether asked for or declined ("no CAMB rerun at the best-fit point")
          r"\bCAMB\b[^.;]{0,30}?\bbest[- ]fit\b": 2.0,
          r"\b(?:68|95)\s*%\s+(?:limits|contours?)\b": 1.0, r"\btriangle\s+plots?\b": 1.5,
          # "how much our supernova sample tightens Ω_m when combined with the Planck lite band powers"
          rf"\b{_SNE}[^.?!;]{{0,60}}?\b(?:combined|joined|together)\s+with\s+(?:the\s+)?{_CMB}": 2.5,
          # the joint fit in words: "adding the supernovae to Planck", "Planck plus supernovae", "combine the CMB with
          # the SNe", "a joint CMB + supernova fit" (not a supernova fit "with a prior from Planck")
          rf"\b(?:add(?:ing|ed)?|combin\w*)\s+(?:the\s+)?{_SNE}[^.?!;]{{0,30}}?\b(?:to|with)\s+(?:the\s+)?{_CMB}": 2.5,
          # "combine Planck with our Marsh supernovae"
          rf"\b(?:combin\w*|join(?:ing|tly)?)\s+(?:the\s+)?{_CMB}(?:\s+\w+){{0,2}}?\s+(?:with|and|to)\s+"
          rf"(?:the\s+|our\s+|their\s+|these\s+|my\s+)?(?:[A-Z][\w-]*\s+)?{_SNE}": 2.5,
          # "combine the full Planck TT, TE and EE band powers with their 45 grism-selected supernovae"
          rf"\b(?:combin\w*|join(?:ing|tly)?)\s+(?:the\s+)?(?:full\s+)?{_CMB}[^.;?!]{{0,60}}?\s+with\s+"
          rf"(?:the\s+|our\s+|their\s+|these\s+|my\s+)?(?:\d+\s+)?(?:[\w-]+\s+){{0,2}}?{_SNE}": 2.5,
          # "the CMB likelihood plus data/sn.csv with its covariance"
          rf"\b{_CMB}\s+likelihood\s+(?:\+|plus|together\s+with|jointly\s+with)\s": 2.0,
          # "fit the six-parameter model to Planck 2018's TT band powers"
          # (or "the ΛCDM fit to the Planck TT, TE and EE band powers")
          r"\bfit\w*\b(?:(?!\bpriors?\b)[^.]){0,60}\bto\s+(?:the\s+)?(?:Planck|CMB)\b(?:\s+2018)?(?:['’]s)?\s+"
          r"(?:[\w-]+,?\s+){0,4}?(?:band[- ]?powers|spectra|data|likelihood)\b": 2.5,
          # "the Planck temperature spectrum on its own (TT only) together with our supernova distance moduli"
          rf"\b{_CMB}[^.;?!]{{0,80}}?\b(?:together|jointly|combined|in\s+combination)\s+with\s+(?:the\s+|our\s+|"
          rf"their\s+|these\s+|my\s+)?(?:[\w-]+\s+){{0,2}}?{_SNE}": 2.5,
          rf"\b{_CMB}(?:\s+\w+){{0,2}}?\s*(?:\+|plus|together\s+with|jointly\s+with)\s*(?:the\s+)?{_SNE}|"
          rf"\bjoint\s+(?:\w+\s+)?{_CMB}\s*(?:\+|and|plus)\s*{_SNE}": 2.5},
)
