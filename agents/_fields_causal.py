"""The words of causal inference: how its scientists ask for the methods of the ``causal`` family, and how
their prose states those methods' arguments (see :mod:`cmbagent.agents._fields` for the format)."""

from __future__ import annotations

from cmbagent.agents._fields import LEVEL, field_words, labelled_table, optional_table, treatment_table

#: a column defined as the treatment's indicator: "`new_drug` (1 if given)", "`tutored` is 1 for them" (not
#: "`female` (1 if female)"); the cue runs to the clause's end, so the column it defines is the one before it
_INDICATOR = (r"(?:\(\s*|\b(?:is|=)\s*)1\s+(?:if|when|for)\s+(?:\w+\s+){0,3}?(?:given|treated|received|took|enrolled|"
              r"assigned|offered|exposed|participated|dosed|vaccinated|selected|picked|chosen|them|those)\b[^.;]*")
#: "the effect of X on `y`": an outcome named right after its cue
_EFFECT_ON = r"\beffects?\s+(?:of\s+[^.;]{1,60}?\s+)?on\s+(?=`)"
_SHARE = r"(\d+(?:\.\d+)?\s*(?:%|per\s*cent)|0?\.\d+|(?:a\s+)?(?:half|third|quarter|fifth|tenth))"
#: "use a ...", "report the ...", but not "compare with a ..."
#: an offer made at random: "handed out at random", "assigned by lottery", "a randomised invitation" (not "watering
#: was not assigned at random", which says why an adjustment is needed)
_AT_RANDOM = (r"(?<!\bnot )(?<!n't )(?<!\bnever )\b(?:assigned|allocated|offered|handed\s+out|given\s+out|drawn|sent)\b[^.?!;]{0,40}?\b(?:at\s+random|"
              r"by\s+(?:a\s+)?lottery|randomly)\b|\b(?:random|randomi[sz]ed)\s+(?:offer|invitation|allocation)\b")
_REPORTED = r"(?<!compare )(?<!compared )\b(?:use|using|with|report|from|by)\s+(?:a\s+|the\s+)?"
_COST = r"(?:costs?(?:\s+(?:us|me|them|the\s+\w+))?|is\s+priced\s+at|at\s+a\s+cost\s+of)\s+(?:about\s+|roughly\s+|around\s+)?" \
        r"[$€£]?\s*(\d+(?:\.\d+)?)"

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
    # the indirect question: "tell me how much the wall length on a plot raises coffee yield"
    r"\bhow much (?:the |a |an )?[\w-]+(?: [\w-]+){0,5}? (?:changes|changed|raises|raised|lowers|lowered|reduces|"
    r"reduced|increases|increased|affects|affected|improves|improved)\b": 0.8,
    r"\bpartially[- ]linear\b": 1.5, r"\bbinary[- ]treatment\b": 0.8,
    # "repeat the cross-fitting split twice", "with building density, elevation and river distance as controls"
    r"\bcross[- ]?fit(?:ting|ted)?\b": 1.5, r"\bas\s+(?:the\s+)?controls\b": 1.0,
    # the method's name in its other spellings: "debiased machine learning", "double/debiased ML"
    r"\b(?:debiased|double|orthogonal)(?:/(?:debiased|double))?\s+(?:machine[- ]learning|ML)\b": 2.5,
    # "for the nuisance fits use kernel ridge": the learner named is double machine learning's, not a method's own
    r"\bnuisance\s+(?:fits?|functions?|models?|regressions?|learners?|estimat\w*)\b": 2.0,
    r"\buplift\b": 1.5,
    r"\bpropensit": 1.2,
    r"\bobservational\b": 0.8,
    # the same question in any field's words, whatever the treatment and the outcome are called: "did planting a
    # cover crop reduce soil loss, accounting for rainfall?", "how much less ..., holding slope fixed",
    # "would yields have been lower without irrigation?"
    r"\baccount(?:ing|ed)?\s+for\b|\btak(?:en|ing|es?)\s+(?:[^.?!;]{1,60}?\s+)?into\s+account\b|\ballow(?:ing|ed)\s+for\b|"
    r"\bnet\s+of\b": 1.0,
    # a dose and its response: "does a longer shift cause more errors?", "heavier bags lead to more back pain",
    # "how many extra nests does a flower strip give?", "the effect per extra kilogram"
    r"\b(?:cause[sd]?|lead(?:s|ing)?\s+to|led\s+to|result(?:s|ed)?\s+in)\s+(?:more|less|fewer|higher|lower|longer|"
    r"shorter|bigger|smaller|greater|worse|better)\b": 1.0,
    r"\bhow\s+(?:much|many)\s+(?:extra|more|additional|fewer|less)\b": 0.8,
    r"\b(?:effect|change|increase|rise|drop|difference)\s+(?:per|for\s+each|of\s+each|of\s+one|from\s+each)\s+"
    r"(?:extra|additional|more|further)\b": 1.0,
    # "the sugar penalty per millimetre of water", "treat irrigation as a continuous dose"
    r"\b(?:penalty|gain|loss|cost|benefit|return)\s+per\s+(?:extra\s+|additional\s+)?[a-z]+\s+of\s+[a-z]+\b": 1.0,
    r"\bcontinuous\s+(?:dose|exposure|treatment)\b": 1.5,
    r"\bholding\b[^.?!;]{1,50}?\b(?:fixed|constant|equal)\b": 1.2,
    r"\bcorrect(?:ing)?\s+for\s+(?:the\s+fact\s+that|(?:the\s+|how\s+(?:the\s+)?)?(?:groups?\s+)?differ)": 1.2,
    r"\b(?:would|might)\b[^.?!;]{1,60}?\bhave\s+been\b[^.?!;]{1,60}?\b(?:without|had\s+(?:they|it|we)|if\s+(?:they|it|we))\b": 1.5,
    r"\b(?:did|does|do|has|have|will)\s+(?:[\w'-]+\s+){1,6}?(?:reduce|raise|cut|lower|increase|improve|boost|harm|"
    r"hurt|change|affect|worsen|shorten|lengthen|prevent|cause|lead\s+to)\b[^.?!]*\?": 1.0,
    # "how many extra pain days does each kilogram add?"
    # "how many extra words does each extra daily minute of therapy buy?"
    r"\b(?:each|every|one|per)\s+(?:extra\s+|additional\s+|more\s+)?[\w-]+(?:\s+[\w-]+)?(?:\s+of\s+[\w-]+)?\s+(?:add|adds|added|"
    r"cost|costs|saves?|buys?|brings?)\b": 0.8,
    # a dose that was not handed out at random: "sicker and younger children got more minutes"
    r"\b(?:got|get|received|receive|were\s+given|was\s+given)\s+more\s+(?:of\s+(?:the\s+)?)?[\w-]+\b": 0.8,
    # the partially linear model in plain words
    r"\b(?:one|a\s+single)\s+common\s+slope\b": 1.0,
    r"\b[\w-]+(?:'s)?\s+effects?\s+on\b|\beffects?\s+of\s+[^.?!;]{1,50}?\s+on\b": 1.0,
    # who got the treatment was not random: "farmers chose where to plant them, and wetter fields got them more often"
    r"\b(?:chose|chosen|decided|opted|self-selected|picked)\b[^.?!]{0,80}?\bmore\s+(?:often|likely)\b": 1.0,
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
        # the question without a social scientist's words
        "Did doing this lower that, once the other factors that differ between the units are accounted for?",
        "How much would the outcome have changed without the exposure, holding everything else fixed?",
        "Compare the exposed and unexposed units, correcting for how the two groups differ.",
    ),
    cues=_CAUSAL_EFFECT,
    data=treatment_table,
    arguments={
        "outcome": [r"\buplift\s+in\b", r"\b(?:average|mean)\s+(?:gain|increase|rise|drop|reduction|change)\s+in\b",
                    _EFFECT_ON,
                    # "the coefficient on canopy_pct in a partially linear model for lst_c"
                    r"\b(?:partially\s+linear|regression)\s+model\s+(?:for|of)\b"],
        "treatment": [_INDICATOR,
                      # the dose: "... drops per unit of tariff", "how many fewer cups do we sell per unit of price_gbp",
                      # "the cooling per percentage point of canopy"
                      r"\b(?:per|for\s+(?:each|every))\s+(?:extra\s+|additional\s+|further\s+)?(?:unit|percentage\s+point)\s+of\b",
                      r"\bcoefficient\s+(?:on|of)\b"],
        # the repetitions of the sample split: "the sample split repeated three times", "repeat the split 4 times"
        "n_rep": [r"\b(?:sample\s+)?split(?:ting|s)?\s+(?:is\s+|are\s+)?repeated\s+(\w+)\s+times\b",
                  r"\brepeat\w*\s+the\s+(?:sample\s+|cross-fitting\s+)?split(?:ting|s)?\s+(\w+)\s+times\b",
                  r"\b(\w+)\s+repetitions\s+of\s+the\s+(?:sample\s+)?split",
                  (r"\b(?:sample\s+)?split(?:ting|s)?\s+(?:is\s+|are\s+)?repeated\s+twice\b", 2),
                  (r"\brepeat\w*\s+the\s+(?:sample\s+|cross-fitting\s+)?split(?:ting|s)?\s+twice\b", 2),
                  # "repeat the random split twice", "the sample split will be redrawn three times"
                  r"\b(?:repeat|redr[ae]w|redo|rerun)\w*\s+the\s+(?:random\s+|sample\s+|cross-fitting\s+)*"
                  r"(?:split(?:ting|s)?|fold\s+assignment|partition)\s+(\w+)\s+times\b",
                  (r"\b(?:repeat|redr[ae]w|redo|rerun)\w*\s+the\s+(?:random\s+|sample\s+|cross-fitting\s+)*"
                   r"(?:split(?:ting|s)?|fold\s+assignment|partition)\s+twice\b", 2),
                  r"\bsplit(?:ting|s)?\s+(?:(?:will|should|must|would|is\s+to)\s+be\s+|is\s+|are\s+)?(?:repeated|redrawn|redone)\s+(\w+)\s+times\b",
                  (r"\bsplit(?:ting|s)?\s+(?:(?:will|should|must|would|is\s+to)\s+be\s+|is\s+|are\s+)?(?:repeated|redrawn|redone)\s+twice\b", 2),
                  # "the sample split done twice over", "the split done three times"
                  (r"\bsplit(?:ting|s)?\s+(?:(?:is|was|to\s+be)\s+)?(?:done|made|drawn|performed|run)\s+twice(?:\s+over)?\b", 2),
                  r"\bsplit(?:ting|s)?\s+(?:(?:is|was|to\s+be)\s+)?(?:done|made|drawn|performed|run)\s+(\w+)\s+times(?:\s+over)?\b"],
        # the nuisance learner in words: "the neural-network learner", "small neural networks" (an MLP); the other
        # learners are read by their own words ("random forests", "gradient-boosted trees", "lasso")
        "learner": {"mlp": [r"\bneural[- ]net(?:work)?s?\b", r"\bmulti-?layer\s+perceptrons?\b"],
                    # "use boosted trees for those nuisance fits"
                    "gradient_boosting": [r"\bboost(?:ed|ing)\s+(?:decision\s+|regression\s+)?trees?\b",
                                          r"\bgradient[- ]boost\w*", r"\b(?:XGBoost|LightGBM|CatBoost)\b"]},
        # trimming the propensities: "trim the propensity scores so they stay between 5% and 95%"
        "clipping": [r"\b(?:trim|clip|bound|truncat)\w*\s+(?:the\s+)?(?:estimated\s+)?propensit\w*(?:\s+scores?)?"
                     r"[^.;]{0,40}?\bbetween\s+(\d+(?:\.\d+)?\s*%|0?\.\d+)\s+and\b",
                     # "cut the propensity scores off at 5% and 95%"
                     r"\b(?:cut|clip|trim|cap|truncat)\w*\s+(?:the\s+)?(?:estimated\s+)?propensit\w*(?:\s+scores?)?\s+"
                     r"(?:off\s+)?at\s+(\d+(?:\.\d+)?\s*%|0?\.\d+)\s+and\b",
                     # "trim the estimated propensities at 2 percent on either side"
                     r"\b(?:cut|clip|trim|cap|truncat)\w*\s+(?:the\s+)?(?:estimated\s+)?propensit\w*(?:\s+scores?)?\s+"
                     r"(?:off\s+)?at\s+(\d+(?:\.\d+)?\s*%|0?\.\d+)\s+(?:on|at|from)\s+(?:either|each|both)\s+(?:sides?|ends?|tails?)\b",
                     # "the propensities should be trimmed at 0.05 and 0.95"
                     r"\bpropensit\w*(?:\s+scores?)?\s+(?:(?:are|is|should\s+be|must\s+be|will\s+be|to\s+be|be|get)\s+)?"
                     r"(?:trimmed|clipped|bounded|truncated)\s+"
                     r"(?:to\s+(?:the\s+)?(?:range\s+|interval\s+)?|at\s+)(\d+(?:\.\d+)?\s*%|0?\.\d+)\b"],
        "confidence": LEVEL,  # the interval's level: "a 90% range", "at the 90% level", "the interval at 99%"
        "text_column": [r"\b(?:the|those|these|their|its|clinical|admission|triage|case)\s+notes\b", r"\bfree[- ]text\b",
                        r"\bnarratives?\b", r"\btext\s+(?:column|field)\b",
                        # "turn post_text into sentence embeddings", "embed the abstracts"
                        r"\b(?:sentence|text)\s+embeddings?\b", r"\bembed(?:s|ded)?\b"],
    },
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
          r"\bManski\b": 2.5, r"\bencouragement\b": 1.5, r"\bCATE\b": 1.5, r"\bnon-?compliance\b": 1.5,
          # the same design in plain words: an offer made at random that people were free to take up ("vouchers
          # handed out at random, but people decided themselves whether to go", "assigned by lottery; uptake ...")
          _AT_RANDOM: 1.5,
          r"\buptake\b|\btake-?up\b|\b(?:decided|chose)\s+(?:for\s+)?themselves\s+whether\b|"
          r"\bnot\s+everyone\s+(?:who|that)\s+(?:got|was\s+offered|received|won)\b": 1.5},
    data=treatment_table,
    # without an instrument the method answers another question (the no-instrument bounds): asked, never run so
    one_of=[("instruments", "instrument_file")],
    arguments={
        "outcome": [_EFFECT_ON, r"\boutcomes?\b"],
        # who took the treatment up, as opposed to who was offered it (the instrument)
        "treatment": [r"\b(?:attend(?:ing|ed|ance)|took\s+(?:\w+\s+)?up|take[- ]?up|uptake|complied|compliance)\b",
                      r"\b(?:decided|chose)\s+(?:for\s+)?themselves\s+whether\b", _INDICATOR],
        "covariates": [r"\bas\s+a\s+function\s+of\b", r"\bcondition(?:al|ed)?\s+on\b",
                       r"\bheterogene\w*\s+(?:in|by|across|over|with)\b", r"\bvar(?:y|ies|ying)\s+with\b"],
        "instruments": [r"\binstruments?\b", r"\brandomi[sz]ed\b", r"\blotter(?:y|ies)\b", r"\bencouragement\b",
                        _AT_RANDOM],
        # a column that holds the known effect (simulations): "`cate_sim` is the simulated true effect"
        "reference_cate": [r"\b(?:holds?|contains?|is|gives?|stores?)\s+the\s+(?:simulated\s+|known\s+)?true\s+"
                           r"(?:conditional\s+)?(?:treatment\s+)?effects?\b",
                           r"\bsimulated\s+true\s+(?:conditional\s+)?effects?\b", r"\b(?:known|true)\s+CATE\b",
                           # "there is a column of true effects, true_cate"
                           r"\bcolumn\s+(?:of|with|holding)\s+(?:the\s+)?(?:simulated\s+|known\s+)?true\s+(?:conditional\s+)?"
                           r"(?:treatment\s+)?effects?\b",
                           # "use the true effect column to check coverage": the column by its words
                           r"\b(?:use|take)\s+(?:the\s+)?([A-Za-z][\w -]{2,30}?)\s+column\s+to\s+(?:check|measure|assess|"
                           r"score)\s+(?:the\s+)?(?:coverage|bounds)\b"],
        "outcome_support": [  # "the outcome is known to lie between 0 and 100"
            r"\b(?:outcome|score|response)s?\s+(?:is\s+|are\s+)?(?:known\s+to\s+|assumed\s+to\s+)?(?:lie|lies|be|bounded|"
            r"ranges?)\s+(?:\w+\s+)?between\s+(-?\d+(?:\.\d+)?\s+and\s+-?\d+(?:\.\d+)?)",
            r"\b(?:outcome|score|response)s?\s+(?:is\s+|are\s+)?(?:in|on|within)\s+\[\s*(-?\d+(?:\.\d+)?\s*,\s*-?\d+(?:\.\d+)?)\s*\]",
            # "so the outcome cannot leave [0, 1]"
            r"\b(?:outcome|score|response)s?\s+(?:cannot|can't|can\s+never|never|does\s+not|doesn't|won't|will\s+not)\s+"
            r"(?:leave|exceed|go\s+(?:outside|beyond)|fall\s+outside|escape)\s+(?:the\s+(?:range|interval)\s+)?"
            r"\[\s*(-?\d+(?:\.\d+)?\s*,\s*-?\d+(?:\.\d+)?)\s*\]",
            # "GPA is on a 0 to 4 scale; take that as the outcome's range"
            r"\bon\s+an?\s+(-?\d+(?:\.\d+)?\s*(?:to|–|-)\s*-?\d+(?:\.\d+)?)[- ]point\s+scale\b[^.]{0,60}?\b(?:outcome|range|bounds?)\b",
            r"\bon\s+an?\s+(-?\d+(?:\.\d+)?\s*(?:to|–|-)\s*-?\d+(?:\.\d+)?)\s+scale\b[^.]{0,60}?\b(?:outcome|range|bounds?)\b",
            # "the recovery score (recovery_0_100, which by construction runs from 0 to 100)"
            r"\b(?:outcome|score|response|index)\b[^.;]{0,60}?\b(?:runs?|ranges?|goes|go|lies|lie|spans?|is\s+bounded)\s+"
            r"(?:\w+\s+)?from\s+(-?\d+(?:\.\d+)?\s+to\s+-?\d+(?:\.\d+)?)\b"],
        # the partition whose bounds are reported; one only compared with is not it ("compare with quantile
        # cells" reports the learned one, the default)
        "partition": {
            "kmeans": [rf"{_REPORTED}k-?means\s+(?:cells|partition|clusters)"],
            "quantile": [rf"{_REPORTED}quantile\s+(?:cells|partition|bins)"],
            "learned": [rf"{_REPORTED}learn(?:ed|t)\s+(?:neural\s+)?partition",
                        r"\bcompar(?:e|ed|ing)\s+(?:\w+\s+)?(?:with|to|against)\s+(?:a\s+|the\s+)?(?:k-?means|quantile)"],
        },
    },
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
          r"\bbetter (?:predictor|prediction model|risk model)\b": 1.0, r"\breach(?:es|ing)? (?:more )?people\b": 1.0,
          # "would it pay more to enlarge the scheme or to improve the model?"
          r"\b(?:enlarg|expand|grow|widen|extend|scal)\w*\s+(?:the\s+)?(?:scheme|programme|program|capacity|service|"
          r"intervention|budget)\b[^.?]{0,40}?\bor\s+(?:to\s+)?(?:improv|sharpen|refin|retrain)\w*\s+(?:the\s+)?"
          r"(?:model|predictor|prediction|forecast|screen)": 2.5,
          # in plain words: "visit more households or improve the model?", "how many of the poorest tenth do we reach"
          r"\b(?:visit|reach|help|serve|screen|contact)\w*\s+(?:more|extra|additional)\s+(?:\w+\s+)?"
          r"(?:households|people|families|clients|patients|pupils|farms|cases)\b[^.?]{0,40}?\bor\b": 2.0,
          r"\b(?:poorest|neediest|most\s+vulnerable|most\s+deprived|worst[- ]placed)\s+(?:\d+\s*%|tenth|fifth|quarter|"
          r"decile|quintile|ones)\b": 2.0},
    data=optional_table,
    arguments={
        # the capacity: the share the programme can reach ("can visit 15% of its households")
        "alpha": [r"\b(?:can|could|is\s+able\s+to|are\s+able\s+to|has\s+room\s+to|have\s+room\s+to)\s+(?:only\s+)?(?:[a-z]+ly\s+)?"
                  r"(?:visit|reach|serve|screen|treat|help|take\s+on|enrol|enroll|support|cover|contact|call|phone|mentor|see|test|"
                  rf"inspect|offer\s+\w+\s+to)\s+(?:only\s+|just\s+|up\s+to\s+|about\s+|roughly\s+)?(?:the\s+)?{_SHARE}(?![\w%])",
                  rf"\b(?:screening\s+)?capacity\s+(?:of|is|=|:)\s*(?:about\s+)?{_SHARE}(?![\w%])",
                  rf"\b{_SHARE}\s+(?:screening\s+)?capacity\b",
                  # "the virtual ward has room for 8% of patients"
                  rf"\b(?:has|have|with)\s+(?:the\s+)?(?:room|capacity|places|space)\s+for\s+(?:only\s+|just\s+|about\s+|"
                  rf"roughly\s+)?{_SHARE}\s+of\b"],
        # the worst-off: "the poorest 5%", "the 10% most-absent students", "the bottom fifth"
        "beta": [rf"\b(?:poorest|neediest|worst[- ]off|most\s+deprived|most\s+vulnerable|bottom|lowest-income)\s+{_SHARE}(?![\w%])",
                 # "reaching the coldest fifth of homes": any superlative before the share of a population
                 rf"\b(?:reach\w*|target\w*|find\w*|help\w*|serv\w*|the)\s+(?:the\s+)?(?!(?:best|latest|largest|smallest)\b)"
                 rf"[a-z]{{3,}}est\s+{_SHARE}(?![\w%])\s+of\b",
                 rf"\b{_SHARE}\s+(?:poorest|neediest|worst[- ]off|most[- ](?!likely\b)[a-z]+)\b",
                 rf"\bworst[- ]off\s+(?:are|as|being)\s+(?:the\s+)?(?:bottom|poorest|lowest)\s+{_SHARE}(?![\w%])",
                 # "the people we mean to reach are the 5% with the most bed days"
                 rf"\bthe\s+{_SHARE}\s+(?:of\s+\w+\s+)?with\s+the\s+(?:most|highest|largest|worst|lowest|least|fewest)\b",
                 # "finding the lowest 15 per cent of yields", "the highest 10% of arrears"
                 rf"\b(?:finding|find|reach\w*|target\w*|identify\w*|catch\w*)\s+the\s+(?:lowest|highest|worst|bottom|top)\s+"
                 rf"{_SHARE}(?![\w%])"],
        # "Use capacity steps of 0.02", "a capacity step of 0.005"
        "delta_alpha": [r"\bcapacity\s+(?:steps?|increments?)\s+(?:of\s+|=\s*|:\s*)?(0?\.\d+)(?!\d|\.\d)",
                        r"\b(?:steps?|increments?)\s+(?:of\s+)?(0?\.\d+)\s+in\s+(?:the\s+)?capacity\b"],
        # "the reach curves at three R² values: 0.2, 0.4, 0.6"
        "r2_grid": [r"\bR(?:²|\^?2|-squared)\s+(?:values?|grid|levels?)\s*(?:of\s+|:\s*|=\s*)?"
                    r"((?:0?\.\d+)(?:\s*(?:,\s*(?:and\s+)?|\band\s+|\bor\s+)(?:0?\.\d+))+)",
                    # "show curves for R² of 0.25, 0.5 and 0.75": one curve per value
                    r"\b(?:curves?|lines?|panels?)\s+(?:for|at)\s+(?:an?\s+)?R(?:²|\^?2|-squared)\s*(?:of\s+|=\s*|values?\s+)?"
                    r"((?:0?\.\d+)(?:\s*(?:,\s*(?:and\s+)?|\band\s+|\bor\s+)(?:0?\.\d+))+)"],
        "r2": [r"\bR(?:²|\^?2|-squared)\s*(?:of|=|is|:|≈|around|about)\s*(?:roughly\s+|about\s+|around\s+|approximately\s+|"
               r"some\s+|nearly\s+|close\s+to\s+)?(0?\.\d+)"],
        "cost_capacity": [  # "Finance prices a unit of capacity at 4 and a unit of R² at 1.5"
                          r"\bpric\w*\b[^.;]{0,60}?\bunit\s+of\s+(?:[\w-]+\s+)?capacity\s+at\s+[$€£]?\s*(\d+(?:\.\d+)?)",
                          rf"\b(?:extra|additional|marginal|more)\s+(?:unit\s+of\s+)?(?:[\w-]+\s+)?capacity\s+{_COST}",
                          rf"\bunit\s+of\s+(?:[\w-]+\s+)?capacity\s+{_COST}",
                          rf"\b(?:raising|expanding|increasing|extending)\s+(?:the\s+)?capacity\s+{_COST}",
                          r"\bcosts?\s+[$€£]?\s*(\d+(?:\.\d+)?)\s+per\s+unit\s+of\s+(?:α|alpha|(?:screening\s+)?capacity)",
                          # "the marginal cost of capacity as 2 per unit of population share"
                          r"\b(?:as|at|is|of)\s+[$€£]?\s*(\d+(?:\.\d+)?)\s+per\s+unit\s+of\s+(?:the\s+)?(?:population\s+share|"
                          r"share\s+of\s+the\s+population|α|alpha|(?:screening\s+)?capacity)\b"],
        "cost_prediction": [r"\bpric\w*\b[^.;]{0,60}?\bunit\s+of\s+R(?:²|\^?2|-squared)\s+at\s+[$€£]?\s*(\d+(?:\.\d+)?)",
                            rf"\b(?:extra|additional|marginal)\s+(?:unit\s+of\s+)?R(?:²|\^?2|-squared)\s+{_COST}",
                            rf"\bunit\s+of\s+R(?:²|\^?2|-squared)\s+{_COST}",
                            # "… costs us about 2, one more unit of R² (a better risk tool) about 3": the verb left out
                            r"\bunit\s+of\s+R(?:²|\^?2|-squared)\s*(?:\([^()]{0,40}\)\s*)?,?\s*(?:about|roughly|around|"
                            r"approximately)\s+[$€£]?\s*(\d+(?:\.\d+)?)",
                            r"\bcosts?\s+[$€£]?\s*(\d+(?:\.\d+)?)\s+per\s+unit\s+of\s+R(?:²|\^?2|-squared)",
                            # "... and of prediction as 5 per unit of R²"
                            r"\b(?:as|at|is|of)\s+[$€£]?\s*(\d+(?:\.\d+)?)\s+per\s+unit\s+of\s+R(?:²|\^?2|-squared)"],
        "higher_is_worse": [r"\b(?:more|higher)\s+(?:[\w-]+\s+){0,3}?(?:is|are|means?)\s+worse\b",
                            r"\bhigh(?:er)?\s+(?:values|scores|outcomes)\s+(?:mark|indicate|mean)\s+(?:the\s+)?worse",
                            # "high arrears are the bad outcome here"
                            r"\bhigh(?:er)?\s+(?:[\w-]+\s+){0,3}?(?:is|are)\s+(?:the\s+)?(?:bad|worse|undesirable|harmful)\s+"
                            r"(?:outcome|direction|end|side)\b"],
        "prediction": [r"\brisk\s+scores?\b", r"\bpredict(?:ed|ion|ions|s)\b", r"\bforecast(?:s|ed)?\b"],
        "outcome": [r"\bthat\s+followed\b", r"\b(?:realised|realized|actual(?:ly)?|observed|subsequent)\b",
                    r"\boutcomes?\b"],
    },
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
          r"\bwhat (?:would|should) (?:they|he|she|the applicant) (?:have to )?change\b": 2.0,
          r"\blatent\s+causes?\b": 2.0, r"\bclosest\s+(?:approved|accepted|admitted|positive)\b": 2.0,
          # "what would it take for a declined farm to qualify?", "what they would have needed to look like"
          r"\bwhat\s+would\s+it\s+take\b[^.?]{0,40}?\b(?:qualify|approv\w*|accept\w*|pass|admitt?\w*)\b": 2.0,
          r"\b(?:would\s+have\s+)?needed\s+to\s+look\s+like\b": 2.0,
          r"\b(?:declined|refused|turned\s+down)\s+(?:\w+\s+)?(?:farm|member|applicant|customer|firm|client)s?\b": 1.0,
          r"\bunderlying\s+causes\b": 1.0},
    data=lambda files: labelled_table(files),
    arguments={
        "label": [r"\b(?:model|classifier|predictor|screen)\s+(?:of|for|predicting)\b", r"\bpredicts?\b"],
        "target_class": {1: [r"\btowards?\s+(?:being\s+|getting\s+)?(?:hired|approved|accepted|admitted|selected|granted)\b",
                             r"\b(?:target|desired)\s+class\s+(?:of\s+|is\s+|=\s*)?1\b",
                             # "the counterfactual that flips each to an approval"
                             r"\bflips?\s+(?:each|it|them|the\s+\w+)?\s*(?:in)?to\s+(?:an?\s+)?(?:approval|acceptance|admission|"
                             r"hire|grant|yes)\b",
                             # "the nearest realistic profile that would have got an offer"
                             r"\bwould\s+have\s+(?:got|gotten|received|been\s+given|been\s+offered)\s+(?:an?\s+)?(?:offer|place|"
                             r"approval|loan|grant|job|admission|yes)\b"],
                         0: [r"\b(?:target|desired)\s+class\s+(?:of\s+|is\s+|=\s*)?0\b"]},
        # names, or words that name one column ("Age obviously cannot be changed" for `age`); a word that names no
        # column ("Experience cannot be changed") is left to the person
        "immutable": [r"`?([A-Za-z_]\w*)`?\s+(?:[a-z]+ly\s+)?(?:cannot|can't|must\s+not|may\s+not)\s+(?:be\s+)?(?:chang|alter|modif)\w*",
                      r"\b(?:keep|keeping|hold|holding)\s+`?([A-Za-z_]\w*)`?\s+(?:fixed|constant|unchanged)\b",
                      # said of a feature in words only: a question
                      r"\b(?:cannot|can't|must\s+not|may\s+not)\s+(?:be\s+)?(?:chang|alter|modif)\w*",
                      r"\bimmutable\b", r"\b(?:kept|held)\s+(?:fixed|constant)\b"],
        "instances": [r"\brows?\s+(\d+(?:\s*(?:,|and)\s*\d+)*)(?![\d.]|\s*(?:to|–|-|—)\s*\d)",
                      # rows named by their place in words ("the fifth, twelfth and eighteenth rows"): a question,
                      # since the method counts rows from 0
                      r"\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|"
                      r"\w+teenth|twentieth)\b(?:\s*(?:,|and)\s*\w+)*\s+rows?\b"],
        # ("with λ taking the values 0, 1 and 5")
        "lambdas": [r"\btrade-?off\s+(?:weight|parameter)\s+(?:over|across|through|at|of|to|:)\s*"
                    r"(-?\d+(?:\.\d+)?(?:\s*(?:,\s*(?:and\s+)?|\band\s+)-?\d+(?:\.\d+)?)+)",
                    r"(?:λ|\blambda)\s*(?:values?\s+)?(?:=|:|of|at|set\s+to|∈|in|(?:taking|takes|take|with|over|across)\s+"
                    r"(?:the\s+)?values?(?:\s+of)?)?\s*[\[{(]?\s*"
                    r"(-?\d+(?:\.\d+)?(?:\s*(?:,|and)\s*-?\d+(?:\.\d+)?)+)"],
        # a causal graph or a structural model written in words or equations is not read: it is a question
        "parents": [r"\bcausally\s+(?:linked|related|connected|ordered)\b", r"\bcausal\s+(?:graph|links?|order(?:ing)?|diagram)\b",
                    r"\b(?:drives?|driven\s+by)\b", r"\bparents?\s+of\b", r"\bDAG\b", r"\bfeeds?\s+(?:into\s+)?",
                    r"\bcausal\s+story\b",
                    r"\bcausal\s+(?:structure|model|relations?|dependenc\w+)\b", r"\bdepends?\s+on\b"],
        "classifier": {"mlp": [r"\bneural[- ]net(?:work)?\s+classifier\b", r"\bMLP\b", r"\bmulti-?layer\s+perceptron\b"],
                       "logistic": [r"\blogistic\s+(?:regression|classifier|model)\b"]},
        "scm_weights": [r"\b[A-Za-z_]\w*\s*=\s*[-−]?\d*\.?\d+\s*[×*·]\s*[A-Za-z_]\w*\s*[-+−]"],
        "noise_std": [r"\bnoise\s+(?:with\s+)?(?:sd|s\.d\.|std|standard\s+deviation|σ)\b", r"\((?:sd|σ)\s*=?\s*\d"],
        "classifier_weights": [r"[-−]?\d*\.?\d+\s*[×*·]\s*[A-Za-z_]\w*\s*[-+−]\s*[-−]?\d*\.?\d+\s*[×*·]\s*[A-Za-z_]\w*"
                               r"(?:[^.;]|\.\d){0,40}[<>]"],
    },
)
