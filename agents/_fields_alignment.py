"""The words of alignment with surveys: how its scientists ask for the methods of the ``alignment`` family, and how
their prose states those methods' arguments (see :mod:`cmbagent.agents._fields` for the format)."""

from __future__ import annotations

from collections.abc import Sequence

from cmbagent.agents._fields import LEVEL, _tables, field_words
from cmbagent.profiles import FileProfile


def survey_table(files: Sequence[FileProfile]) -> float:
    """Answers to survey questions: a respondent-level table with several categorical text columns."""
    for f in _tables(files):
        answers = [c for c in f.columns if not c.numeric and 2 <= c.unique <= 30]
        if len(answers) >= 3:
            return 1.0
        if answers:
            return 0.3
    return -0.5 if files else -1.0


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
    arguments={  # beside the method's own phrases: how survey methodologists write the same settings
        "n_bootstrap": [r"\b(\d[\d,]*)\s+bootstrap\s+(?:replicates|replications|draws|resamples|samples)\b",
                        r"\bbootstrap\w*\s+(?:with\s+)?(\d[\d,]*)\s+(?:replicates|replications|draws|resamples|times)\b"],
        "confidence": LEVEL,
        "weighting": {"ipw": [r"\binverse[- ]probability\s+weight",
                              # "with a logistic inverse-propensity model on age and education"
                              r"\binverse[- ]propensity\b", r"\blogistic\s+propensity\b"],
                      "cbps": [r"\bcovariate[- ]balancing\s+propensity"],
                      # "the base weights ... used exactly as they are, with no further adjustment on top"
                      "none": [r"\bno\s+further\s+(?:adjustment|re-?weighting|calibration)\b",
                               r"\bwithout\s+(?:any\s+)?further\s+(?:adjustment|re-?weighting|calibration)\b",
                               r"\b(?:design|base)\s+weights\b[^.;]{0,60}?\b(?:exactly\s+)?as\s+(?:they\s+are|is)\b",
                               # "no census to weight to, so use the design weights alone"
                               r"\b(?:use|stay\s+with|keep\s+to|rely\s+on)\s+(?:the\s+)?(?:design|base)\s+weights\s+(?:alone|only)\b",
                               r"\bno\s+(?:census|population|margins?|reference)\s+(?:\w+\s+)?to\s+weight\s+(?:to|against)\b"]},
        # "broken down by education", "overall and by age_band": the column named next
        "subgroup": [r"\b(?:broken\s+down|split|separately)\s+by\b",
                     # "region by region (column region)", "compare it by education"
                     r"\b([A-Za-z_]\w*)\s+by\s+\1\b", r"\bcompare\s+(?:it|them|this|that)\s+by\s+`?([A-Za-z_]\w*)`?",
                     r"\boverall\s+and\s+(?:also\s+)?(?:by|per|for\s+each)\b",
                     # "overall and separately within each age band", "then separately for each region": the words
                     # after "each" name the column (a bare cue here would take a column named before it)
                     r"\b(?:overall,?\s+and\s+(?:also\s+)?(?:separately\s+)?|separately\s+)(?:within|for|in)\s+each\s+([A-Za-z_][\w-]*(?:\s+[A-Za-z_][\w-]*)?)"
                     r"(?=\s*(?:[.,;:)]|$))",
                     # "overall and for urban, town and rural respondents separately, using the settlement column"
                     r"\bseparately,?\s+(?:using|from|with)\s+(?:the\s+)?(?=`?\w+`?\s+column\b)"],
        # "half the panel saw a version of the item phrased as a cost — the `form` column says which"
        "ballot": [r"\b(?:versions?|wordings?|phrased|phrasings?)\b[^.]{0,120}?\bthe\s+`?([A-Za-z_]\w*)`?\s+column\s+"
                   r"(?:says|records|shows|tells\s+us|marks)\s+which\b"],
        # "our online panel (question ai_regulation)": the answer columns, kept only when every name is a column
        "questions": [r"\bquestions?\s+\(?(`?[A-Za-z]\w*`?(?:(?:,\s*|\s+and\s+)`?[A-Za-z]\w*`?)*)",
                      # "For q_gallery (how people rate the new gallery) and q_charging (what ...), treat each round"
                      r"\bfor\s+(`?[A-Za-z]\w*_\w*`?\s*(?:\([^()]{0,80}\))?(?:\s*(?:,\s*(?:and\s+)?|\s+and\s+)`?[A-Za-z]\w*_\w*`?"
                      r"\s*(?:\([^()]{0,80}\))?)+)\s*,",
                      # "report licence_support and microchip_check", "compare support_barrage and trust_operator
                      # with the assistant's answers": answer columns after a verb, when every name is a column
                      r"\b(?:report|compare|tabulate|estimate)\s+(`?[A-Za-z]\w*_\w*`?(?:(?:,\s*|,?\s+and\s+)`?[A-Za-z]\w*`?)+)",
                      # "how far the assistant is from the weighted households on q_carbon_tax and q_heat_pump"
                      r"\b(?:how\s+far|distances?|differ\w*|gaps?|compar\w+|closer?)\b[^.;]{0,80}?\bon\s+"
                      r"(`?[A-Za-z]\w*_\w*`?(?:(?:,\s*|,?\s+and\s+)`?[A-Za-z]\w*_\w*`?)+)(?=\s*(?:[.;:?!]|$))",
                      # "each option on the would-you-return question": words that read as one answer column
                      r"\b(?:on|to|for|of)\s+the\s+([\w-]+(?:[\s-][\w-]+){0,3}?)\s+question\b"],
        # the variables weighted on: "rake it to the census margins on sex, age band and region", "inverse
        # propensity weighting on education, age group and urban/rural"
        # (not "how far the chatbot is from the weighted membership on q_oxalic": the weighted public, described)
        "covariates": [r"\b(?:rak(?:e|ed|ing)|(?<!the )(?<!its )(?<!our )(?<!their )weight(?:ed|ing)?|calibrat\w+|"
                       r"post-?stratif\w+|adjust(?:ed|ing)?|propensity)\b"
                       r"(?:[^.;:]|\.(?=\w)){0,100}?\son(?=\s)",
                       # "balance region and sex with CBPS": the variables balanced, then how
                       r"\bbalanc(?:e|es|ing)(?=\s+`?[A-Za-z_]\w*`?(?:\s*(?:,|\band\b)\s*`?[A-Za-z_]\w*`?)+\s+(?:with|by|using|via|through)\b)"],
        # the wave: "three annual rounds (2022 to 2024, in the column round)", "weighting each round separately"
        "wave": [r"\b(?:rounds?|waves?|years?)\b[^.;]{0,40}?\bin\s+(?:the\s+)?column\s+(?:called\s+|named\s+)?`?([A-Za-z_]\w*)`?",
                 # "interviewed in two rounds (column wave: 2024 and 2025)"
                 r"\b(?:rounds?|waves?)\b[^.;()]{0,20}?\(\s*(?:in\s+)?(?:the\s+)?column\s+`?([A-Za-z_]\w*)`?",
                 # "done in two rounds (the round column, 2023 and 2025)"
                 r"\b(?:rounds?|waves?)\b[^.;()]{0,20}?\(\s*(?:in\s+)?(?:the\s+)?`?([A-Za-z_]\w*)`?\s+column\b",
                 r"\bweight\w*\s+each\s+`?([A-Za-z_]\w*)`?\s+separately\b",
                 # "treat each fieldwork round on its own": the column the words name
                 r"\b(?:treat|weight|adjust|rake|take)\w*\s+each\s+((?:[\w-]+\s+)?(?:round|wave|year|survey\s+round))\s+(?:on\s+its\s+own|"
                 r"separately|by\s+itself|independently)\b",
                 # "(rounds in the year column)", "waves in column `w`"
                 r"\b(?:rounds?|waves?)\s+in\s+(?:the\s+)?`?([A-Za-z_]\w*)`?\s+column\b",
                 # "two rounds, 2023 and 2024, with a round column"
                 r"\bwith\s+(?:an?\s+|the\s+|its\s+)?((?:survey\s+)?(?:rounds?|waves?|years?))\s+column\b"],
    },
)
