"""The words of each method's field: how scientists ask for what a method does, without naming it.

A method's registration says what it is (summary, description, keywords, argument docs).  People do not write
"double machine learning"; they ask "did the programme raise earnings, adjusting for age and schooling?".  Each
entry here gives a method

* ``intents``: a few questions or requests in a scientist's words, embedded and compared by meaning with the
  task's sentences (:mod:`cmbagent.agents._meaning`);
* ``cues``: phrases of its field (regular expressions, case-insensitive) with a weight: strong evidence that
  the task is about what the method does ("faulty readings", "distance moduli", "adjusting for");
* ``data``: what its input data look like, as a score of the task's input files (see :func:`data_fit`).

A method without an entry is still matched by its registration (summary, description, keywords); an entry
only sharpens it.  Third-party method families add entries with :func:`field_words`.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cmbagent.profiles import ColumnProfile, FileProfile

__all__ = ["FieldWords", "field_words", "words_of"]

DataFit = Callable[[Sequence[FileProfile]], float]


@dataclass(frozen=True)
class FieldWords:
    """How a method's field asks for it (see the module docstring)."""

    intents: tuple[str, ...] = ()
    cues: dict[str, float] = field(default_factory=dict)
    data: DataFit | None = None
    #: how prose states the method's arguments, in the format of ``@method(phrases=...)``: per argument a list
    #: of patterns (one group captures the value; none marks a boolean as set) or values -> patterns
    arguments: dict[str, Any] = field(default_factory=dict)


_WORDS: dict[str, FieldWords] = {}


def field_words(method: str, *, intents: Sequence[str] = (), cues: dict[str, float] | None = None,
                data: DataFit | None = None, arguments: dict[str, Any] | None = None) -> FieldWords:
    """Declare the words of ``method``'s field (patterns are validated here, once)."""
    for pattern in cues or {}:
        re.compile(pattern, re.I)
    for spec in (arguments or {}).values():
        for pattern in ([p for ps in spec.values() for p in ps] if isinstance(spec, dict) else spec):
            if re.compile(pattern, re.I).groups > 1:
                raise ValueError(f"{method}: argument pattern {pattern!r} may capture one value at most")
    entry = FieldWords(intents=tuple(intents), cues=dict(cues or {}), data=data, arguments=dict(arguments or {}))
    _WORDS[method] = entry
    return entry


def words_of(method: str) -> FieldWords:
    """The declared words of ``method`` (empty when none were declared)."""
    return _WORDS.get(method, FieldWords())


# -- what data look like ----------------------------------------------------------------------------------
_REDSHIFT = re.compile(r"^(z|zcmb|zhd|zhel|z_?cmb|z_?hd|z_?hel|redshift|zcmb_?\w*)$", re.I)
_DISTANCE = re.compile(r"^(mu|mu_?\w*|m_?b\w*|mb|dist\w*|distmod\w*|mag\w*)$", re.I)


def _tables(files: Sequence[FileProfile]) -> list[FileProfile]:
    return [f for f in files if f.columns]


def _binary(column: ColumnProfile) -> bool:
    return column.binary and column.count >= 10


def supernova_table(files: Sequence[FileProfile]) -> float:
    """A table with a redshift column and distance moduli or magnitudes (named, or the first numeric
    columns of a headerless file: z in (0, 3), then μ in 30–50 or m in 12–28)."""
    for f in _tables(files):
        names = [c.name for c in f.columns]
        if any(_REDSHIFT.match(n) for n in names) and any(_DISTANCE.match(n) for n in names):
            return 1.0
        numeric = [(c.minimum, c.maximum) for c in f.columns if c.numeric and c.minimum is not None
                   and c.maximum is not None]
        for (a_min, a_max), (b_min, b_max) in itertools.pairwise(numeric):
            if 0 <= a_min < a_max <= 3.5 and ((29 <= b_min and b_max <= 50) or (11 <= b_min and b_max <= 28)):
                return 1.0
    return -0.5 if files else -1.0


def chain_file(files: Sequence[FileProfile]) -> float:
    """A long table of parameter samples (many rows, a few numeric columns, maybe a weight)."""
    for f in files:
        if f.columns and f.rows >= 500 and all(c.numeric for c in f.columns) and 2 <= len(f.columns) <= 60:
            names = {c.name.lower() for c in f.columns}
            return 1.0 if names & {"weight", "weights", "loglike", "like", "lnlike", "post", "prior", "mult"} else 0.4
    return -0.5 if files else -1.0


def labelled_table(files: Sequence[FileProfile], *, rare: bool = False) -> float:
    """Numeric features with a binary label (``rare``: under 25% positives, as anomalies are)."""
    for f in files:
        if f.kind == "arrays" and "X" in f.arrays:
            y = f.column("y")
            if y is None:
                return 0.3 if rare else 0.0
            share = y.positive_share or 0.0
            return 1.0 if not rare or 0 < share < 0.25 else 0.2
        labels = [c for c in f.columns if _binary(c)]
        numeric = [c for c in f.columns if c.numeric and not c.binary]
        if labels and len(numeric) >= 2:
            if not rare:
                return 0.7
            return 1.0 if any(0 < (c.positive_share or 0) < 0.25 for c in labels) else 0.2
    return -0.5 if files else -1.0


def treatment_table(files: Sequence[FileProfile]) -> float:
    """A unit-level table with a binary (or continuous) treatment and a numeric outcome."""
    for f in _tables(files):
        if any(_binary(c) for c in f.columns) and sum(1 for c in f.columns if c.numeric) >= 3:
            return 1.0
        if sum(1 for c in f.columns if c.numeric) >= 3:
            return 0.3
    return -0.5 if files else -1.0


def regression_table(files: Sequence[FileProfile]) -> float:
    """A small numeric table (inputs and a response); the Bayesian tools also run without data."""
    for f in _tables(files):
        if sum(1 for c in f.columns if c.numeric) >= 2:
            return 0.5
    return -0.2 if files else 0.0


def no_data(files: Sequence[FileProfile]) -> float:
    """A simulation study: no input data, or none it could use."""
    return -0.4 if files else 0.3


def optional_table(files: Sequence[FileProfile]) -> float:
    return 0.2 if _tables(files) else 0.0


# -- the words of each field ------------------------------------------------------------------------------
_CAUSAL_EFFECT = {
    r"\b(?:effect|impact|benefit)s? of (?:the |a |an )?(?:programme|program|intervention|treatment|policy|training|"
    r"subsidy|tutoring|campaign|drug|reform|eligibility|participation)": 2.0,
    r"\badjust(?:ing|ed)? for\b": 1.5,
    r"\bcontrol(?:ling)? for\b": 1.2,
    r"\bconfound(?:er|ers|ing)\b": 1.5,
    r"\b(?:treated|untreated|treatment group|control group|assigned to)\b": 1.0,
    r"\bon average\b": 0.5,
    r"\baverage (?:treatment |causal )?effect\b": 2.5,
    r"\bcausal effect\b": 1.5,
    r"\b(?:raise|raises|raised|increase|increases|lower|lowers|reduce|reduces)\b[^.?!]{0,60}\bby how much\b": 1.0,
    r"\bhow much (?:does|did|do)\b": 0.8,
    r"\buplift\b": 1.5,
    r"\bpropensit": 1.2,
    r"\bobservational\b": 0.8,
}

field_words(
    "causal.dml_ate",
    intents=(
        "What is the effect of the programme on earnings, adjusting for the participants' background?",
        "How much does the intervention raise the outcome on average, with a confidence interval?",
        "Estimate the average treatment effect of the treatment on the outcome controlling for confounders.",
        "Did being assigned to the treatment change the result, once we account for the covariates?",
        "Estimate the causal uplift of the campaign from observational data.",
        "Effect of eligibility on savings, controlling for income, age and education.",
    ),
    cues=_CAUSAL_EFFECT,
    data=treatment_table,
)

field_words(
    "causal.iv_cate_bounds",
    intents=(
        "Bound the conditional effect using an instrument when there is unobserved confounding.",
        "Use the instrumental variables to get bounds on the heterogeneous treatment effect for each unit.",
        "Partial identification of individual effects with a high-dimensional instrument.",
        "The encouragement was randomised but uptake was not: what can we say about the effect for each person?",
    ),
    cues={r"\binstrument(?:s|al)?\b": 3.0, r"\bpartial(?:ly)? identif": 2.5, r"\bbounds? on (?:the )?"
          r"(?:conditional|heterogeneous|individual)": 2.0, r"\bunobserved confound|\bhidden confound": 1.5,
          r"\bManski\b": 2.5, r"\bencouragement\b": 1.5, r"\bCATE\b": 1.5, r"\bnon-?compliance\b": 1.5},
    data=treatment_table,
)

field_words(
    "causal.value_of_prediction",
    intents=(
        "Should we spend on a better prediction model or on reaching more people with the programme?",
        "How much does improving the risk score help us find the worst-off, compared with expanding capacity?",
        "Value of prediction for targeting the most disadvantaged households under a screening budget.",
        "Is it better to increase screening capacity or the accuracy of the predictor?",
    ),
    cues={r"\bworst[- ]off\b": 3.0, r"\bscreening capacity\b": 2.5, r"\bcapacity\b": 1.0,
          r"\btarget(?:ing)? (?:the )?(?:poorest|most vulnerable|neediest|disadvantaged|at-risk)": 2.0,
          r"\bprediction[- ]access ratio\b": 3.0, r"\bexpand(?:ing)? (?:the )?capacity\b": 2.0,
          r"\bbetter (?:predictor|prediction model|risk model)\b": 1.0, r"\breach(?:es|ing)? (?:more )?people\b": 1.0},
    data=optional_table,
)

field_words(
    "causal.brace_counterfactual",
    intents=(
        "What is the smallest realistic change to this applicant's features that would flip the classifier's decision?",
        "Give counterfactual explanations that respect the causal relations between the features.",
        "Recourse for rejected loan applicants: what should they change to be accepted, keeping age fixed?",
        "Backtracking counterfactuals for a classifier under a structural causal model.",
    ),
    cues={r"\bcounterfactual(?:s| explanation)?\b": 2.5, r"\brecourse\b": 3.0, r"\bflip (?:the )?(?:decision|"
          r"prediction|outcome)\b": 2.0, r"\bbacktracking\b": 3.0, r"\bstructural causal model\b": 1.5,
          r"\b(?:rejected|denied) (?:applicant|loan)": 1.5, r"\bimmutable\b": 1.5,
          r"\bwhat (?:would|should) (?:they|he|she|the applicant) (?:have to )?change\b": 2.0},
    data=lambda files: labelled_table(files),
)

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

field_words(
    "anomaly.wsad_dt",
    intents=(
        "A few of the faulty readings were flagged by engineers; find the rest of the anomalies.",
        "Detect the fraudulent transactions using the handful of cases that were already confirmed.",
        "Weakly supervised anomaly detection with a small number of labelled outliers.",
        "Which of the sensor records are abnormal? We labelled some of them by hand.",
    ),
    cues={r"\banomal(?:y|ies|ous)\b": 3.0, r"\boutliers?\b": 2.0, r"\bfault(?:y|s)?\b": 2.0, r"\bfraud": 2.5,
          r"\babnormal\b": 2.0, r"\b(?:flagged|labell?ed|confirmed) (?:by hand|cases|anomal|fault|outlier)": 1.5,
          r"\bintrusion\b": 2.0, r"\bdefect": 1.5, r"\bweakly supervised\b": 1.5, r"\bAUC[- ]?PR\b": 0.8},
    data=lambda files: labelled_table(files, rare=True),
)

field_words(
    "robustness.class_stability",
    intents=(
        "How far are the points from the classifier's decision boundary?",
        "Measure the class stability of the model: the expected distance to the decision boundary.",
        "How does the margin of a network change as it gets wider than the number of training points?",
        "Is the classifier robust: how much can an input move before its predicted class changes?",
    ),
    cues={r"\bdecision boundar": 3.0, r"\bclass stability\b": 3.0, r"\bmargins?\b": 1.5,
          r"\bdistance to (?:the )?boundar": 3.0, r"\bwider network|\bwidth of the (?:network|hidden layer)": 1.5,
          r"\bover-?parameteri[sz]": 1.0, r"\bpredicted class changes\b": 2.0},
    data=lambda files: labelled_table(files) if files else 0.0,
)

field_words(
    "robustness.x_hacking",
    intents=(
        "Could someone pick a defensible model that makes this feature look unimportant in the SHAP explanation?",
        "How easy is it to hide the influence of a sensitive feature by choosing among equally accurate pipelines?",
        "Search the set of well-performing models for one whose explanation downplays the feature.",
    ),
    cues={r"\bSHAP\b": 2.5, r"\bexplanations?\b": 1.0, r"\bfeature importance\b": 1.5, r"\bhide\b": 1.0,
          r"\bdownplay": 1.5, r"\bdefensible\b": 2.0, r"\bRashomon\b": 2.5, r"\bX-hacking\b": 3.0,
          r"\bcherry-?pick": 1.5, r"\bequally (?:good|accurate) (?:models|pipelines)\b": 2.0},
    data=lambda files: labelled_table(files),
)

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

field_words(
    "lm.compositional_diversity",
    intents=(
        "Does seeing more combinations of the concepts in training help the model generalise to unseen combinations?",
        "How does combinatorial coverage of the training data drive compositional generalisation?",
        "Check whether the embeddings represent the two concepts additively.",
    ),
    cues={r"\bcompositional": 3.0, r"\bunseen combinations?\b": 2.5, r"\bcombinatorial coverage\b": 3.0,
          r"\badditive(?:ly)? (?:representation|structure|factori)": 2.0, r"\bconcepts?\b": 0.8},
    data=no_data,
)

field_words(
    "lm.jola",
    intents=(
        "Which attention heads need editing to adapt the frozen language model, with gates that switch heads off?",
        "Localise the attention heads responsible for the behaviour and edit their activations.",
        "Parameter-efficient adaptation by editing a few heads' outputs instead of fine-tuning.",
    ),
    cues={r"\battention heads?\b": 2.5, r"\bactivation edit": 3.0, r"\bgates?\b": 1.0,
          r"\bfrozen (?:language )?model\b": 1.5, r"\bparameter-efficient\b": 1.5, r"\bJoLA\b": 3.0},
    data=no_data,
)

field_words(
    "lm.knowledge_editing_stream",
    intents=(
        "Keep a language model up to date with a stream of new facts: retrieval, fine-tuning or replay?",
        "Compare continual fine-tuning with retrieval augmentation for updating facts over time, and measure forgetting.",
        "Lifelong knowledge editing benchmark with changing facts.",
    ),
    cues={r"\bknowledge edit": 3.0, r"\bfact updates?\b|\bnew facts\b|\bchanging facts\b": 2.0,
          r"\bcatastrophic forgetting\b|\bforget": 1.5, r"\bcontinual (?:learning|fine-tuning)\b": 1.5,
          r"\bretrieval[- ]augment": 1.5, r"\breplay\b": 1.0},
    data=no_data,
)

field_words(
    "lm.lora_symmetry",
    intents=(
        "Predict properties of LoRA adapters from their weights, using features that respect the adapters' symmetry.",
        "Are invariant features of low-rank adapters better inputs than the raw weights?",
    ),
    cues={r"\bLoRA\b": 3.0, r"\blow[- ]rank adapt": 3.0, r"\badapters?\b": 1.5, r"\bweight[- ]space\b": 2.0,
          r"\bsingular values\b": 1.0, r"\bsymmetr": 0.8},
    data=no_data,
)

field_words(
    "lm.nolima",
    intents=(
        "Needle in a haystack test where the question does not share words with the needle.",
        "How well does retrieval work over long contexts when the answer needs a latent association, not literal matching?",
        "Measure a model's effective context length with latent-association questions.",
    ),
    cues={r"\bneedle\b": 3.0, r"\bhaystack\b": 3.0, r"\blong[- ]context\b": 2.0, r"\bcontext (?:length|window)\b": 1.5,
          r"\bliteral (?:match|overlap)": 2.0, r"\blatent association": 2.5, r"\bBM25\b": 1.5},
    data=no_data,
)

field_words(
    "lm.number_token_loss",
    intents=(
        "Does adding a loss that knows how far apart numbers are help a small transformer do arithmetic?",
        "Train a model on multiplication problems with plain cross entropy and with a numeric loss on digit tokens.",
        "Compare the numeric error of a language model trained with and without a number-aware loss.",
    ),
    cues={r"\bnumber token\b": 3.0, r"\barithmetic\b": 2.0, r"\bmultiplication\b|\baddition problems\b": 1.5,
          r"\bdigits?\b": 1.0, r"\bcross[- ]entropy\b": 1.0, r"\bWasserstein\b": 1.5, r"\bnumeric(?:al)? error\b": 1.0},
    data=no_data,
)

field_words(
    "rl.diffusion_world_model",
    intents=(
        "Train a diffusion model of the environment's dynamics from logged episodes and use its synthetic transitions.",
        "Generate trajectories conditioned on the desired return and check they follow the dynamics.",
        "Offline reinforcement learning with data augmented by a learned world model.",
    ),
    cues={r"\bworld model\b": 3.0, r"\bdiffusion\b": 1.5, r"\binverse dynamics\b": 2.5, r"\boffline (?:RL|"
          r"reinforcement)\b": 2.5, r"\breturn[- ]to[- ]go\b": 2.5, r"\bpendulum\b": 1.0,
          r"\bsynthetic transitions\b": 2.0, r"\blogged episodes\b": 1.5},
    data=no_data,
)

field_words(
    "rl.distinguishability_queries",
    intents=(
        "Learn a reward function from human feedback: are 'how different are these' questions better than pairwise preferences?",
        "Compare preference queries with distinguishability queries for reward learning on the same budget.",
        "How should we ask labellers about pairs of trajectories to learn their reward most efficiently?",
    ),
    cues={r"\breward (?:learning|model|function)\b": 2.0, r"\bpairwise (?:comparisons|preferences)\b": 2.5,
          r"\bpreference(?:s| queries| strength)\b": 1.5, r"\bdistinguishab": 3.0, r"\bhuman feedback\b": 1.5,
          r"\blabell?ers?\b": 1.0, r"\bBradley[- ]Terry\b": 2.0},
    data=no_data,
)

field_words(
    "theory.lif_snn_regions",
    intents=(
        "How many regions of constant spike output does a random spiking network cut its input space into?",
        "Count the linear regions of leaky integrate-and-fire networks as the number of time steps grows.",
        "Expressivity of spiking neural networks versus latency and depth.",
    ),
    cues={r"\bspiking\b": 3.0, r"\bleaky integrate": 3.0, r"\bLIF\b": 3.0, r"\bspike": 1.5,
          r"\bregions?\b": 1.0, r"\bneuromorphic\b": 2.0, r"\blatenc": 1.0},
    data=no_data,
)

field_words(
    "theory.tubal_tensor_gd",
    intents=(
        "Does gradient descent from a small initialisation find the low tubal-rank tensor without being told the rank?",
        "Implicit regularisation of gradient descent on a tensor factorisation with the t-product.",
        "Sweep the initialisation scale and see whether the recovered tensor has low tubal rank.",
    ),
    cues={r"\btubal\b": 3.0, r"\bt-product\b": 3.0, r"\btensor\b": 1.5, r"\bimplicit (?:regulari|bias)": 2.0,
          r"\bsmall initiali": 2.0, r"\binitiali[sz]ation scale\b": 2.0, r"\bt-SVD\b": 2.5},
    data=no_data,
)


def survey_table(files: Sequence[FileProfile]) -> float:
    """Answers to survey questions: a respondent-level table with several categorical text columns."""
    for f in _tables(files):
        answers = [c for c in f.columns if not c.numeric and 2 <= c.unique <= 30]
        if len(answers) >= 3:
            return 1.0
        if answers:
            return 0.3
    return -1.0 if files else -0.6


field_words(
    "alignment.survey_benchmark",
    intents=(
        "Do the model's answers match what the public thinks, once the survey is weighted to the census?",
        "Our annotators are not representative: reweight their answers to the population before judging the model.",
        "Which social group do the language model's opinions resemble most?",
        "Compare the chatbot's answer distribution with public opinion from a national survey.",
        "Did the question wording change the answers in the split-ballot experiment?",
        "How reliable are the answers when the same respondents are asked twice, and did opinions shift between waves?",
    ),
    cues={r"\bsurvey": 2.0, r"\brespondents?\b": 1.5, r"\bpublic opinion\b": 2.5, r"\bcensus\b": 1.5,
          r"\breweight": 1.0, r"\bannotators?\b": 1.0, r"\bsplit[- ]ballot\b": 3.0, r"\b(?:question )?wording\b": 1.0,
          r"\bsocietal norms\b|\bhuman values\b": 2.0, r"\bpersonas?\b": 1.0, r"\brak(?:e|ing)\b": 1.5,
          r"\bpopulation (?:margins|shares)\b": 2.0, r"\bpolls?\b": 1.5},
    data=survey_table,
)
