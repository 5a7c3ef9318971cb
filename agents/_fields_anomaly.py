"""The words of anomaly detection: how its scientists ask for the methods of the ``anomaly`` family, and how
their prose states those methods' arguments (see :mod:`cmbagent.agents._fields` for the format)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from cmbagent.agents._fields import field_words, labelled_table
from cmbagent.profiles import FileProfile

#: where the task's own words for the rare class go (:func:`rare_words`); as it stands it matches no prose
_TASK_RARE = "rare-class-named-by-the-task"
#: column names that say nothing of what the rare class is
_PLAIN_NAMES = {"label", "labels", "y", "target", "class", "outcome", "is", "has", "was", "flag", "flags", "anomaly",
                "anomalies", "gt", "truth", "true", "positive", "status", "any", "ever", "new", "bad"}


def _plural(word: str) -> str:
    return rf"{re.escape(word)}(?:es|s)?" if not word.endswith("y") else rf"{re.escape(word[:-1])}(?:y|ies)"


def rare_words(text: str, profiles: Sequence[FileProfile]) -> list[str]:
    """Patterns of what this task calls its rare class: the words of a rare 0/1 column's name (``hot_box`` ->
    "hot boxes", ``is_jammed`` -> "jammed ..."), and what the text says a 1 marks ("1 where the window ended in a
    cracked batch" -> "cracked batches", "cracks")."""
    words: list[str] = []
    for table in profiles:
        for column in table.columns if table.kind == "table" else ():
            if not column.binary or (column.positive_share is not None and column.positive_share > 0.5):
                continue
            parts = [p for p in re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", column.name.lower()) if p]
            while parts and parts[0] in _PLAIN_NAMES:
                parts = parts[1:]
            if not parts or parts[-1] in _PLAIN_NAMES or any(len(p) < 3 or p.isdigit() for p in parts):
                continue
            head, gap = parts[-1], r"[\s_-]+"
            lead = "".join(re.escape(p) + gap for p in parts[:-1])
            # "is_jammed": the jammed ones; "hot_box": the hot boxes
            words.append(lead + (re.escape(head) + r"\s+[a-z]+" if head.endswith("ed") else _plural(head)))
    for defined in re.finditer(r"\b(?:1|one)\s*(?:=|where|when|for|if|marks?|means?|flags?|indicates?)\s+([^.;)]{0,100})",
                               text, re.I):
        for thing in re.finditer(r"\b(?:a|an|the)\s+([a-z]{3,}ed)\s+([a-z]{3,})\b", defined.group(1), re.I):
            participle, noun = thing.group(1).lower(), thing.group(2).lower()
            words.append(rf"{re.escape(participle)}\s+{_plural(noun)}")
            stem = participle[:-2]
            if len(stem) >= 4 and stem[-1] == stem[-2] and stem[-1] not in "ls":
                stem = stem[:-1]  # "jammed" -> "jam"
            words.append(rf"{re.escape(stem)}e?s\b")  # "cracked" -> "cracks", "damaged" -> "damages"
    return list(dict.fromkeys(words))

#: what the rare class is called: anomalies, faults, frauds, intrusions, ...
_RARE = (r"(?:anomal\w*|faults?|faulty\s+\w+|outliers?|intrusions?|fraud\w*|attacks?|defects?|defective\s+\w+|glitch(?:es)?|"
         r"(?:broken|cracked|failed|damaged)\s+\w+|failures?|"
         r"failures?|leaks?|leaking\s+\w+|abnormal\s+\w+|(?:false|spurious|bogus|tampered|rejected)\s+\w+|"
         # "one in ten of the training cases had been confirmed": the positives of a screening table
         r"(?:clinical\s+|positive\s+)?cases|"
         # the task's own name for them ("hot boxes", "cracks"): see :func:`rare_words`
         rf"{_TASK_RARE})")
_COUNT = r"(\d[\d,]*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|fifty)"
_SHARE = r"(\d+(?:\.\d+)?\s*(?:%|per\s*cent)|(?:a\s+)?(?:half|third|quarter|fifth|tenth|twentieth|hundredth)|" \
         r"(?:one|1)\s+in\s+(?:\d+|five|ten|twenty|fifty|a\s+hundred))"
_UNLABELLED = r"unlabell?ed\s+(?:training\s+)?(?:data|set|rows|part|traffic|readings|records|points|samples|pool|" \
              r"examples|transactions|flows)"

#: the WSAD-DT paper's clean unlabelled set (0), or ADBench's contaminated one (1), as prose says them
_CLEAN_OR_NOT: dict[float, list[str]] = {
    0.0: [  # "keep every other fault out of the unlabelled training pool, so that pool is clean"
          rf"\bkeep\s+(?:every|all|the)\s+(?:other\s+|remaining\s+)?(?:\w+\s+)?{_RARE}\s+out\s+of\s+the\s+{_UNLABELLED}",
          rf"\b{_UNLABELLED}[^.;]{{0,40}}?\b(?:is|are|stays?|remains?)\s+clean\b",
          rf"\b{_UNLABELLED}\s+(?:is|are)\s+(?:assumed\s+|taken\s+)?(?:to\s+be\s+|as\s+)?clean\b",
          rf"\btreat\w*\s+the\s+{_UNLABELLED}\s+as\s+clean\b",
          rf"\bassum\w*\s+(?:that\s+)?the\s+{_UNLABELLED}\s+(?:is|are)\s+clean\b",
          rf"\bclean\s+{_UNLABELLED}\b", rf"\bno\s+(?:hidden\s+|unlabell?ed\s+)?{_RARE}\s+(?:among|in)\s+"
          r"(?:it|them|the\s+unlabell?ed)\b",
          # "the unlabeled training pool contains no anomalies", "the paper's own clean setting"
          rf"\b{_UNLABELLED}\s+(?:contains?|includes?|holds?|has)\s+no\s+(?:hidden\s+)?{_RARE}",
          # "the unlabelled training rows must not contain any swarm days at all"
          rf"\b{_UNLABELLED}\s+(?:must|should|may|can|will|do|does)\s*(?:not|n't)\s+(?:contain|include|hold|have|hide)\s+"
          rf"(?:any\s+)?(?:hidden\s+)?{_RARE}",
          r"\b(?:paper's|paper’s|authors'|authors’)\s+(?:own\s+)?clean\s+(?:setting|protocol|set-?up)\b",
          # "the clean setup of the method's original paper", "keep every faulty unit out of the unlabelled part"
          r"\bclean\s+(?:setting|protocol|set-?up)\s+of\s+the\s+(?:\w+(?:'s|’s)\s+)?(?:original\s+)?paper\b",
          rf"\b(?:keep|leave)\s+(?:every|all|each|the)\s+{_RARE}\s+out\s+of\s+the\s+{_UNLABELLED}",
          # "keep the unlabelled training pool clean", "the faulty units whose labels are hidden are dropped"
          rf"\b(?:keep|leave)\w*\s+the\s+{_UNLABELLED}\s+clean\b",
          rf"\b{_RARE}\s+whose\s+labels?\s+(?:are|is|were|was)\s+hidden\s+(?:should\s+be\s+|are\s+|is\s+)?"
          r"(?:dropped|removed|excluded|left\s+out)",
          # "the unlabelled training pool cleaned of anomalies", "drop every unlabelled anomaly"
          rf"\b{_UNLABELLED}\s+(?:is\s+|are\s+)?(?:cleaned|cleared|purged|emptied)\s+of\s+(?:all\s+|any\s+)?{_RARE}",
          rf"\b(?:drop|remove|exclude|discard)\w*\s+(?:every|all|each|any)\s+(?:of\s+the\s+)?(?:unlabell?ed|hidden)\s+"
          rf"(?:training\s+)?{_RARE}"],
    1.0: [rf"\b{_UNLABELLED}\s+(?:also\s+|still\s+)?(?:contains?|includes?|hides?)\s+(?:some\s+|hidden\s+)?{_RARE}",
          rf"\b(?:all|every\s+one)\s+of\s+the\s+(?:other|remaining|unlabell?ed)\s+{_RARE}\s+(?:stays?|remains?|"
          rf"(?:are|is)\s+kept|go(?:es)?)\s+in(?:to)?\s+the\s+{_UNLABELLED}",
          rf"\bhidden\s+{_RARE}\s+(?:among|in)\s+the\s+unlabell?ed\b"],
}


field_words(
    "anomaly.wsad_dt",
    intents=(
        "A few of the faulty readings were flagged by engineers; find the rest of the anomalies.",
        "Detect the fraudulent transactions using the handful of cases that were already confirmed.",
        "Weakly supervised anomaly detection with a small number of labelled outliers.",
        "Which of the sensor records are abnormal? We labelled some of them by hand.",
        "Which machines behave unusually? A few were found broken when they were inspected; the rest were never checked.",
    ),
    cues={r"\banomal(?:y|ies|ous)\b": 3.0, r"\boutliers?\b": 2.0, r"\bfault(?:y|s)?\b": 2.0, r"\bfraud": 2.5,
          r"\babnormal\b": 2.0, r"\b(?:flagged|labell?ed|confirmed) (?:by hand|cases|anomal|fault|outlier)": 1.5,
          r"\bintrusion\b": 2.0, r"\bdefect": 1.5, r"\bweakly supervised\b": 1.5, r"\bAUC[- ]?PR\b": 0.8,
          # "windows we have confirmed as instrument glitches", "compare it only with the deviation network"
          r"\bglitch(?:es|y)?\b": 2.0, r"\bdeviation\s+network\b|\bDevNet\b": 2.0,
          # the same question in plain words: "which turbines look like they are about to fail?", "how unusual",
          # "behave oddly", "flag the suspicious ones", "the handful we know are broken"
          r"\b(?:unusual(?:ly)?|odd(?:ly)?|strange(?:ly)?|weird|suspicious|suspect)\b": 1.0,
          r"\b(?:about|likely|going)\s+to\s+(?:fail|break|go\s+wrong)\b|\bfailing\b": 1.2,
          # the rare class by its trade's word: "the likeliest leaks", "a leaking valve"
          r"\bleak(?:s|ing|y)?\b": 1.0,
          r"\b(?:broken|damaged|cracked|worn|failed|faulty)\b[^.?!]{0,60}\b(?:inspect\w*|check\w*|found|known|confirmed)\b|"
          r"\b(?:inspect\w*|check\w*|found|known|confirmed)\b[^.?!]{0,60}\b(?:broken|damaged|cracked|worn|failed)\b": 1.5,
          # labels for a few rows and none for the rest: "1 means they confirmed the claim was staged, 0 that they
          # cleared it, and an empty cell means nobody has looked at it yet"; "the unchecked claims that look most
          # like the staged ones"
          r"\b(?:nobody|no\s+one|none\s+of\s+us)\s+has\s+(?:yet\s+)?(?:looked|checked|reviewed|audited)\b|"
          r"\b(?:unchecked|unreviewed|unaudited|not\s+yet\s+(?:checked|reviewed|audited))\b": 1.5,
          r"\blook\s+most\s+like\b": 1.0},
    data=lambda files: labelled_table(files, rare=True),
    arguments={
        "n_labeled": [  # "the labels of just 8 faulty readings are known", "only 12 confirmed frauds"
            # no labels: the rows an isolation forest scores highest stand in ("the 15 strokes isolation forest finds
            # most suspicious as the anomalies to learn from", "its top 20 isolation-forest scores as pseudo-labels")
            rf"\b{_COUNT}\s+(?:[\w-]+\s+){{0,2}}?(?:that\s+|which\s+)?(?:an?\s+|the\s+)?(?:isolation[\s-]*forest|iForest)"
            r"\s+(?:finds|flags|ranks|scores|rates|considers|marks)\s+(?:as\s+)?(?:the\s+)?(?:most\b|[a-z]+est\b)",
            rf"\btop\s+{_COUNT}\s+(?:[\w-]+\s+){{0,3}}?(?:as\s+)?pseudo[- ]?(?:labels|labell?ed|anomal)",
            # "let the 20 most isolated bearings stand in as the labelled anomalies", "the twelve most anomalous nights
            # according to an isolation forest as the pseudo-labelled leaks"
            rf"\b{_COUNT}\s+most\s+(?:isolated|anomalous|outlying|suspicious|unusual|extreme)\s+(?:[\w-]+\s+){{0,6}}?"
            r"(?:stand(?:s|ing)?\s+in|serv(?:e|es|ing)|act(?:s|ing)?|count(?:s|ing)?|as\s+(?:the\s+)?(?:pseudo[- ]?)?label|"
            # "take the twenty most isolated claims as the seed anomalies"
            r"as\s+(?:the\s+)?(?:seed|pseudo[- ]?|stand-in|proxy)\s*(?:labels?|anomal\w*|positives?|cases?))",
            rf"\blabels?\s+(?:of|for)\s+(?:just\s+|only\s+)?{_COUNT}\s+(?:\w+\s+)?{_RARE}",
            rf"\b(?:only|just)\s+{_COUNT}\s+(?:\w+\s+)?{_RARE}\s+(?:\w+\s+){{0,4}}?(?:are|is|were|was)\s+"
            r"(?:labell?ed|known|confirmed|flagged|tagged)\b",
            rf"\b{_COUNT}\s+(?:confirmed|labell?ed|known|flagged|tagged)\s+{_RARE}",
            # "with only eight of the training hot boxes revealed as labelled", "just 10 of the faults labelled"
            rf"\b(?:only|just)\s+{_COUNT}\s+of\s+the\s+(?:training\s+)?(?:\w+\s+)?{_RARE}\s+(?:\w+\s+){{0,2}}?"
            r"(?:revealed|labell?ed|known|confirmed|flagged|tagged|kept\s+as\s+labell?ed|carry\s+(?:a|their|its)\s+labels?|"
            r"keep\s+(?:a|their|its)\s+labels?)\b",
            # "reveal the label for just twelve of the broken welds"
            rf"\blabels?\s+(?:for|of)\s+(?:just\s+|only\s+)?{_COUNT}\s+of\s+the\s+(?:\w+\s+)?{_RARE}",
            # "the engineers confirmed only 12 defective wafers", "reveal fifteen labels", "label 20 of the faults"
            rf"\b(?:confirmed|labell?ed|flagged|tagged|verified)\s+(?:only\s+|just\s+)?{_COUNT}\s+(?:\w+\s+)?{_RARE}",
            # "can it pick out jams when shift engineers confirmed only 12 of them"
            rf"\b(?:confirmed|labell?ed|flagged|tagged|verified)\s+(?:only\s+|just\s+)?{_COUNT}\s+of\s+(?:them|those|these)\b",
            rf"\breveal\w*\s+(?:the\s+labels?\s+of\s+)?(?:only\s+|just\s+)?{_COUNT}\s+(?:of\s+the\s+)?(?:labels?\b|(?:\w+\s+)?{_RARE})",
            # "the detector ... only gets to see 15 of the labelled faults in the training part"
            rf"\b(?:gets?\s+to\s+(?:see|use|know)|sees?|knows?|is\s+(?:shown|given)|learns?\s+from)\s+(?:only\s+|just\s+)?"
            rf"{_COUNT}\s+of\s+the\s+(?:labell?ed\s+|known\s+|confirmed\s+|flagged\s+)(?:\w+\s+)?{_RARE}",
        ],
        # how many of the top-scoring rows the result lists: "list the 25 most suspicious hours nobody has checked",
        # "show me the top 15 candidates", "name the twelve likeliest faults"; not the stand-in labels above
        "n_listed": [
            rf"\b(?:list|name|show|give|print|report|return|send|hand|pass|pick\s+out)\w*\s+(?:me\s+|us\s+)?(?:over\s+)?"
            rf"(?:the\s+)?(?:top\s+)?"
            rf"{_COUNT}\s+(?:most\s+(?:suspicious|abnormal|anomalous|unusual|strange|odd|likely|extreme|isolated|outlying)|"
            r"likeliest|strangest|oddest|worst|highest[- ]scoring|top[- ]ranked|best\s+candidates|leading)\b"
            r"(?![^.;]{0,60}\b(?:stand(?:s|ing)?\s+in|as\s+(?:the\s+)?(?:pseudo|seed|stand-in|proxy)))",
            # "give me the 25 crossings it ranks as most suspicious"
            rf"\b(?:list|name|show|give|print|report|return|send)\w*\s+(?:me\s+|us\s+)?the\s+{_COUNT}\s+[\w-]+\s+(?:that\s+)?"
            r"(?:it|the\s+(?:model|detector|method))\s+(?:ranks?|rates?|scores?|finds?)\s+(?:as\s+)?(?:the\s+)?"
            r"(?:most\s+(?:suspicious|abnormal|anomalous|unusual|likely)|highest|worst)\b",
            rf"\b(?:list|name|show|give|print|report|return)\w*\s+(?:me\s+|us\s+)?the\s+top\s+{_COUNT}\b"
            r"(?![^.;]{0,60}\b(?:pseudo|seed\s+anomal|stand(?:s|ing)?\s+in))",
            # "gives me the 20 unchecked claims that look most like staged ones"
            rf"\b(?:list|name|show|give|print|report|return|send|hand)\w*\s+(?:me\s+|us\s+)?(?:over\s+)?the\s+{_COUNT}\s+"
            r"(?:[\w-]+\s+){1,2}?(?:that\s+|which\s+)?(?:look|looks|seem|seems|are|is)\s+most\s+(?:like|suspicious|"
            r"anomalous|unusual)\b",
        ],
        # "In the audit_outcome column, 1 means they confirmed the claim was staged, 0 means they cleared it"
        "label": [r"\bin\s+the\s+`?([A-Za-z_]\w*)`?\s+column,?\s+(?:a\s+)?1\s+(?:means|marks|says|is)\b"],
        "label_ratio": [  # "only a tenth of the intrusions carry a label", "label 5% of the anomalies"
            rf"\b{_SHARE}\s+of\s+(?:the\s+)?(?:training\s+)?{_RARE}\b[^.;]{{0,60}}?\b(?:labell?ed|carry\s+a\s+label|"
            r"have\s+(?:a\s+)?labels?|are\s+known|is\s+known|revealed|confirmed|keep\s+(?:their|its)\s+labels?)",
            rf"\blabel(?:s|led)?\s+(?:for\s+|of\s+)?(?:only\s+|just\s+)?{_SHARE}\s+of\s+(?:the\s+)?(?:training\s+)?{_RARE}",
            # "if the beekeepers had confirmed only a quarter of the queenless days in the training part"
            rf"\b(?:confirmed|revealed|flagged|tagged|verified|checked)\s+(?:only\s+|just\s+)?{_SHARE}\s+of\s+(?:the\s+)?"
            rf"(?:training\s+)?(?:\w+\s+)?{_RARE}",
            # "let the model see the label of one collapse in four": whatever the rare class is called
            r"\blabels?\s+(?:of|for|on)\s+(?:only\s+|just\s+)?((?:one|1)\s+(?:[a-z-]+\s+)?in\s+(?:\d+|two|three|four|"
            r"five|six|seven|eight|nine|ten|twenty|fifty))\b",
        ],
        "unlabeled_anomalies": [
            *((pattern, value) for value, patterns in _CLEAN_OR_NOT.items() for pattern in patterns),
            # "keep a quarter of the other training glitches hidden in the unlabelled rows"
            rf"\bkeep\s+{_SHARE}\s+of\s+the\s+(?:other|remaining)\s+(?:training\s+)?{_RARE}\s+(?:hidden\s+)?in\s+the\s+"
            rf"{_UNLABELLED}",
            # "Of the hot boxes left unlabelled in training, keep half in the unlabelled pool (and drop the rest)"
            rf"\bof\s+the\s+(?:\w+\s+)?{_RARE}\s+(?:left|kept|that\s+(?:are|stay|remain)|still)\s+unlabell?ed\b[^.;]{{0,40}}?,"
            rf"\s*keep\s+{_SHARE}\s+(?:of\s+them\s+)?(?:in\s+the\s+)?{_UNLABELLED}",
            # a share of them: "only half of the remaining anomalous channels stay in the unlabelled training pool"
            rf"\b{_SHARE}\s+of\s+the\s+(?:other|remaining|unlabell?ed|hidden)\s+{_RARE}(?:\s+[a-z]+)?\s+(?:stays?|remains?|"
            rf"(?:are|is)\s+kept|go(?:es)?)\s+in(?:to)?\s+the\s+{_UNLABELLED}"],
        # "run it on the CPU (the node has no GPU)", "on the GPU": the torch device ("auto" is the default)
        "device": {"cpu": [r"\bon\s+(?:the\s+|a\s+)?CPUs?\b", r"\bCPU[- ]only\b", r"\bno\s+GPUs?\b",
                           # "force CPU, the greenhouse PC has no graphics card"
                           r"\b(?:force|use|stick\s+to|keep\s+to|only)\s+(?:the\s+)?CPUs?\b", r"\bno\s+graphics\s+card\b"],
                   "cuda": [r"\bon\s+(?:the\s+|a\s+)?(?:GPUs?|CUDA)\b"]},
        # not the forest that picks the stand-in anomalies ("the fifteen hours isolation forest finds strangest")
        # nor "the twelve most anomalous nights according to an isolation forest as the pseudo-labelled leaks"
        "baselines": {"iforest": [r"(?<!according to an )(?<!according to the )(?<!by an )(?<!from an )"
                                  r"\b(?:isolation[\s-]*forests?|iForest)\b(?!\s+(?:finds|flags|ranks|scores|rates|considers|"
                                  r"marks|picks|singles)\b)(?![^.;]{0,40}\bpseudo[- ]?label)"], "xgbod": [r"\bXGBOD\b",
                                  # "the XGBoost outlier baseline", "XGBoost-based outlier detection"
                                  r"\bXGBoost(?:[- ]based)?\s+(?:outlier|anomaly)\s+(?:baseline|detect\w*|model)\b"],
                      "devnet": [r"\bdeviation\s+networks?\b", r"\bDevNet\b"]},
    },
    # detectors of the field that are no baseline of the method
    unoffered={"baselines": {
        "local outlier factor": [r"\blocal\s+outlier\s+factor\b", r"(?-i:\bLOF\b)"],
        "a one-class SVM": [r"\bone[- ]class\s+(?:SVM|support[- ]vector)"],
        "an autoencoder": [r"\bauto-?encoders?\b"],
        "k-nearest neighbours": [r"\bk-?(?:NN|nearest[- ]neighbou?rs?)\b"],
        "ECOD/COPOD/HBOS": [r"(?-i:\b(?:ECOD|COPOD|HBOS)\b)"],
    }},
    terms={_TASK_RARE: rare_words},
)
