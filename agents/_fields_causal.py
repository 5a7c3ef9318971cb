"""The words of causal inference: how its scientists ask for the methods of the ``causal`` family, and how
their prose states those methods' arguments (see :mod:`cmbagent.agents._fields` for the format)."""

from __future__ import annotations

from cmbagent.agents._fields import field_words, labelled_table, optional_table, treatment_table

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
