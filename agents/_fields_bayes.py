"""The words of Bayesian inference: how its scientists ask for the methods of the ``bayes`` family, and how
their prose states those methods' arguments (see :mod:`cmbagent.agents._fields` for the format)."""

from __future__ import annotations

from typing import Any

from cmbagent.agents._fields import field_words, labelled_table, regression_table

_NUM = r"\d+(?:\.\d+)?"
#: a list of plain numbers as prose writes it: "100, 200 and 400", "60, 100, 140"
_LIST = r"(?:\d+\s*(?:,\s*(?:and\s+)?|and\s+|or\s+))+(?:all\s+(?:the\s+)?)?\d+"  # "75, 150 and all 300"
_SQUARED = r"\s*(?:²|\^\s*2|\*\*\s*2)"
#: a small number in words, as counts are written ("five random problems", "twenty episodes")
_WORD = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|fifty|hundred)"
#: a number written alone, not an end of a range or a choice ("0.1 to 0.3", "2 or 3": no single value)
_ALONE_AFTER = r"(?![.,]?\d)(?!\s*(?:[-–—…]|\.\.|\bto\b|\bor\b|\band\b|,)\s*\d)"

#: the response column, as prose points at it; a capture counts only when it names a column of the data
#: ("the response `log_growth_rate`", "a measured `flux`", "predict soil temperature at ...", "the energy in
#: torsion.csv")
#: where the text names the inputs: "predict y from a and b", "regress y on a and b", "with a and b as inputs"
_INPUTS = [
    r"\bpredict(?:s|ed|ing)?\s+(?:the\s+)?(?:(?!from\b|using\b|with\b|given\b)[\w-]+\s+){0,2}?`?[\w.-]+`?"
    r"(?:\s+(?:in|of)\s+`?[\w./-]+`?)?\s+(?:from|using|with|given)\b",  # "predict tile shrinkage from"
    r"\bregress(?:ion\s+of|ing|es)?\s+`?[\w.-]+`?\s+(?:on|against)\b",
    r"\b(?:as|are)\s+(?:the\s+)?(?:inputs|predictors|features|regressors|explanatory\s+variables)\b",
    r"\b(?:inputs|predictors|features|regressors)\s*(?::|are\b|=)",
    # "conductivity `k_w_mk` against loading `filler_vol_pct`": a curve of one column against another
    r"`[\w.-]+`\s*(?:\([^()]{0,30}\)\s*)?(?:against|versus|vs\.?)\s+(?:[\w-]+\s+){0,3}?`([\w.-]+)`",
    # "the curve as a function of loading alone"
    r"\bas\s+a\s+function\s+of\s+(?:the\s+)?((?:[\w-]+\s+){0,2}?[\w-]+)\s+(?:alone|only)\b",
]
_TARGET = [
    r"\bresponse\s+(?:column\s+|variable\s+)?(?:is\s+|:\s*|=\s*)?(`[\w.-]+`|\w+)",
    r"\b(?:a|the|its)\s+(?:measured|observed|recorded|noisy)\s+(`[\w.-]+`|\w+)",
    r"(`[\w.-]+`|\w+),?\s+(?:is|as)\s+(?:the\s+)?(?:response|target|outcome)\b",
    r"\bregress(?:ion\s+of|ing|es)?\s+(`[\w.-]+`|\w+)\s+(?:on|against)\b",
    # "thermal conductivity `k_w_mk` (W/m·K) against boron-nitride loading `filler_vol_pct`"
    r"(`[\w.-]+`)\s*(?:\([^()]{0,30}\)\s*)?(?:against|versus|vs\.?)\s+(?:[\w-]+\s+){0,3}?`[\w.-]+`",
    r"\bpredict(?:s|ed|ing)?\s+(?:the\s+)?((?:[\w-]+\s+){0,2}?[\w-]+)"
    r"(?=\s+(?:at|for|from|on|of|in|with|as|given|over|across|using|by)\b|\s*[,.;(]|$)",
    r"\b(?:the|a)\s+((?:[\w-]+\s+){0,2}?[\w-]+)\s+in\s+`?[\w./-]+\.(?:csv|tsv|txt)\b",
    # "the dominant frequency of each call is in data/calls.csv (column dom_freq_khz)": the one quantity a file holds
    r"\bis\s+in\s+`?[\w./-]+\.(?:csv|tsv|txt)`?\s*\(\s*(?:the\s+|its\s+)?column\s+(`[\w.-]+`|\w+)\s*\)",
    # "a posterior for survival modelled as logistic in those two predictors"
    r"\b(?:for|of)\s+(`[\w.-]+`|\w+)\s+modell?ed\s+as\s+(?:a\s+)?(?:logistic|linear|Bernoulli|Gaussian|normal)\b",
    # "a prior-data fitted network for hardness — a transformer ...": the quantity, as one column its words name
    r"\b(?:network|model|regressor|emulator|surrogate)\s+for\s+(?:the\s+)?((?:[\w-]+\s+)?[\w-]+)"
    r"(?=\s*[—–,.;:(]|\s+(?:from|on|given|against|as|using|with|in)\b)",
]

#: the width of zero-centred Gaussian priors on every coefficient: "N(0, 3²) priors", "prior sd 2",
#: "standard-normal priors"
_PRIOR_STD: list[Any] = [
    rf"\bN\(\s*0\s*,\s*({_NUM}){_SQUARED}\s*\)\s*priors?\b",
    rf"\bpriors?\s*(?:of\s+|~\s*|:\s*|is\s+|are\s+)?N\(\s*0\s*,\s*({_NUM}){_SQUARED}\s*\)",
    rf"\bprior\s+(?:standard\s+deviation|sd|std|width|scale)\s*(?:σ\s*)?(?:of\s+|=\s*|:\s*|is\s+)?({_NUM})\b"
    rf"{_ALONE_AFTER}",
    rf"\bpriors?\s+(?:with|of)\s+(?:a\s+)?(?:standard\s+deviation|sd|width|scale)\s+(?:of\s+)?({_NUM})\b"
    rf"{_ALONE_AFTER}",
    (r"\bstandard[- ]normal\s+priors?\b", 1.0),
    (r"\bunit[- ](?:normal|Gaussian)\s+priors?\b", 1.0),
    (r"\bN\(\s*0\s*,\s*1(?:\.0+)?(?:²|\^\s*2)?\s*\)\s*priors?\b", 1.0),
    (r"\bpriors?\s*(?:of\s+|~\s*|:\s*)?N\(\s*0\s*,\s*1(?:\.0+)?(?:²|\^\s*2)?\s*\)", 1.0),
]

#: optimiser steps of an amortised network's training: "trained for 2000 steps", "3000 training steps"
_TRAIN_STEPS = [
    r"\btrain(?:ed|ing)?\s+(?:it\s+|the\s+(?:network|transformer|model)\s+)?for\s+(\d[\d,]*)\s+"
    r"(?:optimi[sz](?:er|ation)\s+|gradient\s+)?(?:steps|iterations)\b",
    r"\b(\d[\d,]*)\s+(?:training|optimi[sz]er)\s+(?:steps|iterations)\b",
]

#: a share of the data held out for testing: "hold out a quarter", "20% held out", "a fifth for testing"
_SHARE = r"(?:a\s+)?(?:half|third|quarter|fifth|tenth)|\d+(?:\.\d+)?\s*%|0?\.\d+"
_TEST_FRACTION = [
    rf"\bhold(?:s|ing)?\s+(?:out|back)\s+({_SHARE})\s+(?:of|for)\b",
    # "hold back one tile in four for testing"
    r"\b(?:hold|keep|set|put)(?:s|ing)?\s+(?:out|back|aside)\s+((?:one|a|1)\s+(?:[\w-]+\s+)?in\s+(?:\d+|two|three|four|five|six|"
    r"eight|ten))\s+(?:for|as)\b",
    rf"\b({_SHARE})\s+(?:of\s+(?:the\s+)?[\w-]+\s+)?(?:is\s+|are\s+)?(?:held[- ]out|kept\s+back|set\s+aside)\b",
    rf"\b({_SHARE})\s+(?:of\s+(?:the\s+)?[\w-]+\s+)?for\s+(?:testing|the\s+test)\b",
    rf"\btest\s+(?:fraction|share)\s*(?:of\s+|=\s*|:\s*)?({_SHARE}){_ALONE_AFTER}",
    # "keep a quarter of the cores aside as the test set"
    rf"\b(?:keep|hold|set|put)(?:s|ing)?\s+({_SHARE})\s+of\s+(?:the\s+)?(?:[\w-]+\s+){{0,2}}?(?:aside|out|back)\b",
    # a part of the whole: "keep 12 of the 40 blocks aside for testing"
    r"\b(?:keep|hold|set|put)(?:s|ing)?\s+(\d[\d,]*\s+of\s+(?:the|its|all|our|their)\s+\d[\d,]*)\s+(?:[\w-]+\s+)?"
    r"(?:aside|out|back)\s+(?:for\s+(?:testing|the\s+test)|as\s+(?:a\s+|the\s+)?test)",
]

field_words(
    "bayes.icl_posterior",
    intents=(
        "Get the full posterior of the regression coefficients with a network trained in context instead of MCMC.",
        "Amortised Bayesian inference for a logistic regression: sample the posterior of the weights.",
        "Posterior distribution of the slope and intercept of this small data set, with credible intervals.",
    ),
    cues={r"\bin-context\b|\bin context\b": 2.0, r"\bamorti[sz]ed\b": 2.0, r"\bflow[- ]matching\b": 2.5,
          r"\bposterior (?:of|over) the (?:weights|coefficients|parameters|slope)": 2.0,
          r"\bBayesian linear regression\b": 2.0, r"\bcredible intervals?\b": 0.8,
          r"\btransformer\b": 0.8},
    data=regression_table,
    arguments={
        # "a logistic regression of germination on the two inputs": the inputs' count
        "n_features": [r"\b(?:on|in)\s+(?:the\s+|its\s+|those\s+|these\s+)?(two|three|four|five|[1-9])\s+"
                       r"(?:inputs|features|predictors|covariates|regressors)\b",
                       (r"\bon\s+both\s+(?:inputs|features|predictors|covariates|regressors)\b", 2),
                       # "intercept + two slopes (two inputs)"
                       r"\(\s*(two|three|four|five|six|seven|eight|[1-8])\s+(?:inputs|features|predictors|regressors)\s*\)",
                       r"\b(?:intercept\s*(?:\+|and|plus)\s*)(two|three|four|five|six|seven|eight|[1-8])\s+slopes\b"],
        # the first family whose words match wins: a mixture's words are the most specific, a line's the least
        "family": {
            "gaussian_mixture_1d": [r"\bmixture\b", r"\bbimodal\b",
                                    # "an equal mix of two unit-variance normals"
                                    r"\bmix\s+of\s+(?:two|2)\b", r"\btwo\s+(?:[\w-]+\s+){0,2}?(?:normals|Gaussians)\b",
                                    # "two clusters", "two equally common clusters", "the two cluster means"
                                    r"\btwo\s+(?:[\w-]+\s+){0,3}?(?:populations|components|clusters?|modes|"
                                    r"sub-?populations)\b"],
            # "when crevassed is regressed logistically on those two inputs"
            "logistic_regression": [r"\blogistic\s+regression\b", r"\blogit\b", r"\bBernoulli\b",
                                    r"\bregress(?:ed|ing)?\s+logistically\b", r"\blogistically\s+regress\w*",
                                    r"\bmodell?ed\s+as\s+(?:a\s+)?logistic\b"],
            "linear_regression": [r"\blinear\s+regression\b", r"\bintercept\s*\+\s*slope\b",
                                  r"\bregress(?:ed|ing)?\s+linearly\b", r"\blinearly\s+regress\w*",
                                  r"\bslope\s*(?:\+|and)\s*intercept\b", r"\bstraight[- ]line\b",
                                  r"\bmodell?ed\s+as\s+(?:a\s+)?linear\b"],
        },
        "target": _TARGET,
        "columns": _INPUTS,
        "prior_std": _PRIOR_STD,
        # the largest data set training sees: "let training see data sets of up to 80 birds", "training sets of at
        # most 120 points"
        "n_max": [r"\b(?:data\s+sets?|training\s+sets?|sets?|contexts?)\s+of\s+(?:up\s+to|at\s+most|no\s+more\s+than)\s+"
                  r"(\d[\d,]*)\s+(?:[\w-]+\s+)?(?:points|rows|observations|birds|samples|records|items|[a-z]+s)\b"],
        "noise_std": [
            rf"\bnoise\s+(?:with\s+|of\s+)?(?:a\s+|known\s+|fixed\s+)*(?:standard\s+deviation|sd|std|σ|sigma|scale)"
            rf"\s*(?:of\s+|=\s*|:\s*|is\s+)?({_NUM})\b{_ALONE_AFTER}",
            rf"\b(?:standard\s+deviation|sd|σ)\s+(?:of\s+)?({_NUM})\s+(?:for|of|on)\s+the\s+noise\b",
            rf"\bnoise\s+(?:σ|sigma|sd)\s*=\s*({_NUM})\b{_ALONE_AFTER}",
        ],
        "train_steps": _TRAIN_STEPS,
    },
)

field_words(
    "bayes.pfn_regression",
    intents=(
        "Predict the curve with uncertainty from a Gaussian-process prior, using a prior-data fitted network.",
        "Fit this noisy one-dimensional curve and give predictive intervals, compared with an exact Gaussian process.",
        "Posterior predictive of a GP regression done in one forward pass of a transformer.",
    ),
    cues={r"\bGaussian[- ]process\b|\bGP\b": 2.0, r"\bprior[- ](?:data[- ])?fitted\b|\bPFN\b": 3.0,
          r"\bpredictive (?:distribution|intervals?|uncertainty)\b": 1.0, r"\bsmooth (?:curve|function)\b": 1.0},
    data=regression_table,
    arguments={
        "target": _TARGET,
        "columns": _INPUTS,
        "test_fraction": _TEST_FRACTION,
        "train_steps": _TRAIN_STEPS,
        # "length scale 0.15", "output scale 1", "noise 0.1" are read by the arguments' own names; in other words:
        # "its correlation length should be 0.25", "its noise level is 0.15"
        "length_scale": [rf"\b(?:correlation|characteristic)\s+length(?:[- ]?scale)?\s+(?:should\s+be\s+|is\s+|of\s+|=\s*|:\s*|"
                         rf"at\s+)?({_NUM})\b{_ALONE_AFTER}"],
        "noise": [rf"\bnoise\s+(?:level|sd|std|standard\s+deviation|amplitude)\s+(?:should\s+be\s+|is\s+|of\s+|=\s*|:\s*|"
                  rf"at\s+)?({_NUM})\b{_ALONE_AFTER}"],
        "output_scale": [rf"\b(?:signal|amplitude)\s+(?:scale|sd|standard\s+deviation)\s*(?:of\s+|=\s*|:\s*)?"
                         rf"({_NUM})\b{_ALONE_AFTER}"],
        "max_context": [r"\bcontexts?\s+of\s+(?:up\s+to|at\s+most|no\s+more\s+than)\s+(\d+)\s+points\b",
                        rf"\bmax(?:imum)?\s+context\s+(?:size\s+)?(?:of\s+|=\s*|:\s*)?(\d+){_ALONE_AFTER}"],
    },
)

#: generators of a finite group, as physics states a symmetry: "rotations of 120° about the z axis",
#: "three-fold rotation about z", "reflection through the z plane", "exchanging the two angles"
_FOLD = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 8: "eight", 12: "twelve"}
_PART = {2: "half", 3: "third", 4: "quarter", 5: "fifth", 6: "sixth", 8: "eighth", 12: "twelfth"}
_GENERATORS: dict[str, list[str]] = {
    "swap:0,1": [r"\b(?:exchang|swap|interchang)\w*\s+(?:of\s+)?(?:the\s+)?(?:two|both)\s+(?:[\w-]+\s+)?"
                 r"(?:angles|inputs|coordinates|variables|arguments)\b"],
}
for _axis in "xyz":
    for _k, _word in _FOLD.items():
        _angle = f"{360 / _k:g}"
        _GENERATORS[f"rot:{_axis}:{_k}"] = [
            rf"(?:(?<![\d.]){_angle}\s*(?:°|degrees?\b)|2\s*π\s*/\s*{_k}\b|\b{_word}-fold)[^.;]{{0,30}}?"
            rf"\b(?:about|around|along)\s+(?:the\s+)?{_axis}[- ]?axis\b",
            # "a rotation by a third of a turn about z"
            rf"\b(?:a|one)\s+{_PART[_k]}\s+of\s+a\s+(?:full\s+)?(?:turn|revolution|rotation)\s+(?:about|around)\s+"
            rf"(?:the\s+)?{_axis}\b(?![\w-])",
        ]
    _GENERATORS[f"reflect:{_axis}"] = [
        rf"\breflections?\s+(?:in|through|across|of)\s+(?:the\s+)?{_axis}\b(?![- ]?axis)",
        rf"\b{_axis}\s*(?:→|->|↦)\s*[−-]\s*{_axis}\b",
    ]
# shifts on the torus, by 2π/k in both angles: "those two 120-degree shifts", "both angles shifted by a third of a turn"
for _k, _word in _FOLD.items():
    _both = (rf"\b(?:two|both(?:\s+the)?)\s+{360 / _k:g}[- ]?(?:°|degrees?)\s+shifts\b",
             rf"\b(?:both|each\s+of\s+the\s+two)\s+angles?\s+(?:shifted|advanced|moved)\s+by\s+(?:a|one)\s+{_PART[_k]}\s+"
             r"of\s+a\s+(?:full\s+)?turn\b")
    _GENERATORS[f"shift:0:{_k}"] = list(_both)
    _GENERATORS[f"shift:1:{_k}"] = list(_both)

field_words(
    "bayes.spec_avg",
    intents=(
        "Regression of a function that is exactly invariant under sign flips of its inputs.",
        "Fit a target on the sphere that is symmetric under rotations, and compare with kernel ridge regression.",
        "Learn a function with a known symmetry group using invariant eigenfunctions.",
    ),
    cues={r"\binvarian(?:t|ce)\b": 2.0, r"\bsymmetr(?:y|ic)\b": 1.5, r"\bsign flips?\b": 2.0,
          r"\bspherical harmonics\b": 2.5, r"\btorus\b": 2.0, r"\bsphere\b": 1.0,
          # kernel ridge as the baseline, not as double machine learning's nuisance learner
          r"\bkernel ridge\b(?![^.;]{0,30}\bnuisance)": 1.0,
          # the symmetry group, not "the agronomy group"
          r"\b(?:finite|cyclic|permutation|rotation|dihedral)\s+group\b|\bgroup\s+(?:averag\w*|actions?|elements?|orbits?)\b"
          r"|\bgenerate\s+the\s+group\b": 0.5,
          r"\beigenfunctions?\b": 1.5},
    data=regression_table,
    # a symmetry described in words the generators' phrases do not spell is asked about, not run on the default group
    said_by={"generators": (r"\brepeats?\s+(?:itself\s+)?every\b", r"\bmirror[- ]symmetr\w*|\bsymmetric\s+(?:under|across|about)\b",
                            r"\b(?:unchanged|invariant)\s+(?:when|under|if)\b|\bdoes\s+not\s+change\s+when\b",
                            r"\b(?:two|three|four|five|six|[2-9])-?fold\s+(?:rotor|symmetry|rotation|axis)\b")},
    arguments={
        "target": _TARGET,
        "columns": _INPUTS,
        "generators": _GENERATORS,
        "coefficients": {
            "average": [r"\bempirical\s+averages?\b",
                        r"\b(?:plain\s+|simple\s+)?averag\w*\s+(?:for|of)\s+the\s+(?:spectral\s+)?coefficients\b",
                        r"\bcoefficients?\s+(?:as|by|from)\s+(?:plain\s+|empirical\s+|sample\s+)?averag"],
            "least_squares": [r"(?<!rather than )(?<!instead of )\bleast[- ]squares\b"],
        },
        "n_values": [rf"\bat\s+({_LIST})\s+training\s+(?:points|samples|examples|rows)\b",
                     rf"\btraining\s+(?:set\s+)?sizes?\s*(?:of\s+|=\s*|:\s*)?({_LIST})\b",
                     # "a learning curve with 75, 150 and all 300 training conformers"
                     rf"\b({_LIST})\s+training\s+(?:points|samples|examples|[a-z]{{4,}}s)\b"],
    },
)

field_words(
    "bayes.aisivi",
    intents=(
        "Fit a flexible variational approximation to this unnormalised density and check it against the truth.",
        "Semi-implicit variational inference on a funnel-shaped target.",
        "Approximate the posterior of a Bayesian logistic regression with a variational family richer than a Gaussian.",
    ),
    cues={r"\bvariational\b": 2.5, r"\bELBO\b": 2.0, r"\bsemi-implicit\b": 3.0, r"\bfunnel\b": 1.5,
          # "fitted with the importance-sampled semi-implicit VI"
          r"(?-i:\b(?:SI)?VI\b)": 2.0, r"\bimportance[- ]sampl\w*\b": 1.0,
          r"\bbanana\b": 1.5, r"\bunnormali[sz]ed (?:density|log-density)\b": 2.0, r"\blog[- ]density\b": 1.0,
          # its built-in Bayesian logistic regression, which the in-context posterior also offers: a task that names
          # neither way of getting the posterior reads as both
          r"\b(?:Bayesian|posterior)\b[^.;]{0,30}?\blogistic\s+regression\b": 1.5},
    # its built-in Bayesian logistic regression reads a table of numeric inputs and a 0/1 label
    data=lambda files: 0.5 if labelled_table(files) >= 0.7 else 0.0,
    arguments={
        # "a Bayesian logistic regression of admission on those three inputs": the inputs of the table's regression
        "columns": _INPUTS,
        # a free string: the built-in targets by their usual names (the first that matches wins)
        "target": {
            "funnel": [r"\bfunnel\b"],
            "banana2d": [r"\bbanana\b"],
            "linear_gaussian": [r"\bcorrelated\s+(?:multivariate\s+)?Gaussian\b", r"\blinear[- ]Gaussian\b"],
            "bayes_logreg": [r"\blogistic[\s-]+regression\b"],
        },
        "dim": [rf"\b(?:funnel|Gaussian|target|density|banana)\s*,?\s+in\s+(\d+|{_WORD})\s+dimensions\b",
                rf"\b(\d+|{_WORD})-dimensional\s+(?:funnel|Gaussian|target|banana|density)\b",
                r"\b(\d+)-?D\s+(?:funnel|Gaussian|target|density)\b",
                # "it defines log_prob for a batch of points in two dimensions" (not "plot the samples in two dimensions")
                rf"\b(?:log_prob|log[- ]?density|log[- ]?posterior)\b[^.;]{{0,60}}?\bin\s+(\d+|{_WORD})\s+dimensions\b",
                # "the space is three-dimensional", "a three-parameter dust model"
                rf"\b(?:space|problem|posterior|density|target|model|parameter\s+space)\s+is\s+(\d+|{_WORD})[- ]dimensional\b",
                rf"\b(\d+|{_WORD})[- ]parameter\s+(?:[\w-]+\s+){{0,2}}?(?:model|posterior|density|likelihood)\b",
                rf"\bdimension\s*(?:d\s*)?(?:=\s*|of\s+)?(\d+)\b{_ALONE_AFTER}",
                # "it has three parameters (mean age, log scatter, slope)": a log density's dimension
                rf"\b(?:it|which|that|the\s+(?:model|posterior|density|function))\s+(?:has|takes)\s+(\d+|{_WORD})\s+"
                r"(?:free\s+|model\s+)?parameters\b"],
        "n_proposal": [rf"\b(\d[\d,]*|{_WORD})\s+importance\s+(?:samples|draws)\b",
                       r"\bimportance\s+samples?\s*(?:per\s+\w+\s*)?(?:=|:|of)\s*(\d+)",
                       r"\b(\d+)\s+proposals?\s+(?:per|for\s+each)\b"],
        "kernel": {
            "mlp": [r"\bMLP\s+kernel\b", r"\bneural[- ]network\s+kernel\b"],
            "linear": [r"\blinear\s+(?:\([^()]{0,20}\)\s+)?kernel\b", r"\bGaussian\s+q\b",
                       r"\(\s*linear\s*\)\s+kernel\b"],  # "the Gaussian (linear) kernel"
        },
        "prior_std": _PRIOR_STD,
    },
    overrides={"log_density": ["target"]},
)
