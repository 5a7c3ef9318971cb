"""The words of robustness of models and explanations: how its scientists ask for the methods of the ``robustness`` family, and how
their prose states those methods' arguments (see :mod:`cmbagent.agents._fields` for the format)."""

from __future__ import annotations

from cmbagent.agents._fields import field_words, labelled_table

#: a share in words: "more than a quarter of the mean absolute SHAP"
#: the leading candidate of a search, in the words people use for it ("the strongest pipeline found")
_BEST = r"(?:best|top|leader|leading|highest|strongest|winning|greatest)"
_PART = r"a\s+(?:quarter|third|half|fifth|tenth)|half|one\s+(?:quarter|third|fifth|tenth)"

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
          r"\bover-?parameteri[sz]": 1.0, r"\bpredicted class changes\b": 2.0,
          # in plain words: "how stable are its predictions when the inputs are nudged?", "where its prediction flips"
          r"\bhow\s+(?:robust|stable)\b": 1.5, r"\b(?:nudg|perturb|jiggl|jitter)\w*": 1.2,
          r"\b(?:prediction|class|label|decision|answer)s?\s+(?:flips?|switch(?:es)?)\b": 1.5,
          # "how far do held-out stones sit from where its prediction flips", "distances ... found by line searches"
          r"\bhow\s+far\b[^.;?]{0,60}?\bfrom\s+where\s+(?:its|the)\s+(?:prediction|decision|class|label)\b": 2.5,
          r"\bline\s+searche?s?\b": 1.0, r"\brandom\s+(?:search\s+)?directions\b": 1.0,
          # "estimate how far each lies from the boundary between the two sources"
          r"\bhow\s+far\b[^.;?]{0,60}?\b(?:from|to)\s+the\s+boundary\b": 2.5,
          # a classifier family only this method fits among the catalogue's
          r"\bsupport[- ]vector\s+(?:machine|classifier)s?\b|(?-i:\bSVMs?\b)": 1.0},
    data=lambda files: labelled_table(files) if files else 0.0,
    arguments={
        # the sweep is asked for by its widths; a data set's question is about its points' distances
        "experiment": {
            "width_sweep": [r"\b(?:at|over|for|across)\s+(?:hidden\s+|several\s+|different\s+)?widths?\b",
                            r"\b(?:use|try|train\s+at)\s+hidden\s+widths\b",
                            r"\bwidths?\s+(?:of\s+)?\d", r"\bwider\s+(?:networks?|layers?|models?)\b",
                            r"\bwidth\s+(?:sweep|experiment)\b", r"\bdoes\s+width\b",
                            r"\b(?:against|versus|vs\.?|as\s+a\s+function\s+of)\s+(?:the\s+)?(?:network\s+|hidden\s+)?width\b",
                            # "plot stability ... as width grows", "while the width increases"
                            r"\b(?:as|while|when)\s+(?:the\s+)?(?:network\s+|hidden\s+)?width\s+(?:grows|increases|rises|goes\s+up)\b"],
            "stability": [r"\bhow\s+far\b[^.;?]{0,80}?\bboundary\b", r"\bdistances?\b[^.;?]{0,80}?\bboundary\b"],
        },
        "noise": [  # "with 20% of the labels flipped", "label noise of 0.1"
            r"\b(\d+(?:\.\d+)?\s*(?:%|per\s*cent)|(?:a\s+)?(?:tenth|fifth|quarter|third))\s+of\s+(?:the\s+)?(?:training\s+)?"
            r"labels\s+(?:are\s+|were\s+)?(?:randomly\s+)?(?:flipped|corrupted|swapped|wrong|mislabell?ed)",
            r"\blabel[- ]noise\s+(?:rate\s+|level\s+)?(?:of|at|=|:)?\s*(\d+(?:\.\d+)?\s*%|0?\.\d+)",
            r"\bflip(?:s|ping|ped)?\s+(\d+(?:\.\d+)?\s*%|(?:a\s+)?(?:tenth|fifth|quarter))\s+of\s+(?:the\s+)?(?:training\s+)?labels",
        ],
        # the widths of a sweep as layer sizes: "hidden layers of 30, 60, 180, 600 and 1800 units"
        "widths": [r"\bhidden\s+widths?\b[^.;:]{0,40}:\s*((?:\d[\d,]*\s*(?:,\s*(?:and\s+)?|and\s+))+\d[\d,]*)\b",
                   r"\b(?:hidden\s+)?layers?\s+(?:of|with)\s+((?:\d[\d,]*\s*(?:,\s*(?:and\s+)?|and\s+|or\s+))+\d+)\s+"
                   r"(?:hidden\s+)?(?:units|neurons)\b",
                   r"\b((?:\d+\s*(?:,\s*(?:and\s+)?|and\s+|or\s+))+\d+)\s+(?:hidden\s+)?(?:units|neurons)\s+"
                   r"(?:wide|per\s+(?:hidden\s+)?layer|in\s+the\s+hidden\s+layer)\b",
                   # "one-hidden-layer networks with 60, 240 and 960 hidden units"
                   r"\b(?:networks?|nets?|models?|MLPs?)\s+(?:of|with)\s+((?:\d[\d,]*\s*(?:,\s*(?:and\s+)?|and\s+|or\s+))+\d+)\s+"
                   r"hidden\s+(?:units|neurons)\b"],
        "max_points": [
                       # "estimate ... on no more than 80 events": the held-out rows it evaluates, by any name
                       r"\b(?:on|for|over|and|with)\s+(?:at\s+most|up\s+to|no\s+more\s+than|a\s+maximum\s+of)\s+(\d[\d,]*)\s+"
                       r"(?!training\b|epochs?\b|steps?\b|iterations?\b|directions?\b)[a-z]+\b",
                       r"\b(?:at\s+most|up\s+to|no\s+more\s+than|a\s+maximum\s+of)\s+(\d[\d,]*)\s+(?!training\b)"
                       r"(?:held[- ]out\s+|test\s+|evaluation\s+)?(?:points|samples|rows|examples|candidates|instances)\b",
                       # "no more than 120 held-out lots": the held-out rows, whatever the table calls them
                       r"\b(?:at\s+most|up\s+to|no\s+more\s+than|a\s+maximum\s+of)\s+(\d[\d,]*)\s+(?:held[- ]out|test)\s+[a-z]+\b",
                       # "on held-out finds — 150 of them at most"
                       r"\b(?:held[- ]out|test|evaluation)\s+[\w-]+\b[^.;]{0,12}?\b(\d[\d,]*)\s+(?:of\s+them\s+)?"
                       r"(?:at\s+most|max(?:imum)?)\b"],
        "model": {"linear_svm": [r"\blinear\s+(?:kernel\s+)?SVM\b", r"\blinear\s+support[- ]vector"],
                  "rbf_svm": [r"\b(?:RBF|Gaussian|radial)(?:[- ]kernel)?\s+SVM\b", r"\bkernel\s+SVM\b",
                              r"\b(?:RBF|Gaussian|radial)[- ]kernel\s+support[- ]vector",
                              # "an SVM on a radial basis function kernel", "radial-basis-function SVM"
                              r"\bSVMs?\s+(?:with|on|using)\s+(?:an?\s+)?(?:RBF|Gaussian|radial)\b",
                              r"\bradial[- ]basis(?:[- ]function)?(?:[- ]kernel)?\s+SVM"],
                  "random_forest": [r"\brandom[\s-]+forests?\b"],
                  "mlp": [r"\bMLP\b", r"\bmulti-?layer\s+perceptron\b"],
                  "logistic": [r"\blogistic\s+regression\b"]},
    },
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
    arguments={
        # "make lactate look more important", "a pipeline in which `income` gets less than 5% of the SHAP mass";
        # a captured word that is no column of the data is not taken
        "target_feature": [r"\bmake\s+`?([A-Za-z_][\w.]*)`?\s+(?:look|appear|seem)\b",
                           # ("... while dew_hours gets more than 40% of the |SHAP| mass", "with it carrying ...")
                           r"\b(?:in\s+which|where|so\s+that|while|whilst|with)\s+`?([A-Za-z_][\w.]*)`?\s+(?:gets|carries|has|receives|"
                           r"takes|getting|carrying|having|receiving|taking)\b",
                           # "any where deprivation carries more than 30 percent of the mean absolute SHAP", the column
                           # named by its words ("area deprivation, deprivation_idx")
                           r"\b(?:in\s+which|where|so\s+that|while|whilst|with)\s+((?:[A-Za-z][\w-]*\s+){0,2}?[A-Za-z][\w-]*)\s+"
                           r"(?:gets|carries|has|receives|takes|getting|carrying|having|receiving|taking)\s+"
                           r"(?:more|less|at\s+least|at\s+most|over|under|above|below)\b",
                           r"\b(?:hide|hiding|downplay\w*|promot\w*|inflat\w*|conceal\w*|mask\w*)\s+(?:the\s+)?"
                           r"(?:influence\s+of\s+|importance\s+of\s+|role\s+of\s+)?`?([A-Za-z_][\w.]*)`?"],
        "goal": {"hide": [r"\blook\s+(?:\*?less\*?\s+important|unimportant|irrelevant)\b", r"\bhid(?:e|ing)\b",
                          r"\bdownplay", rf"\b(?:less\s+than|below|under|at\s+most)\s+(?:\d+(?:\.\d+)?\s*%|{_PART})\s+of\s+(?:the\s+)?"
                          r"(?:total\s+)?(?:mean\s+)?(?:\|SHAP\||absolute\s+SHAP|SHAP)"],
                 "promote": [r"\b(?:look|appear|seem)\s+(?:\*?more\*?\s+|very\s+|highly\s+)?important\b",
                             r"\bpromot\w*\b",
                             r"\binflat\w*\s+(?:the\s+)?(?:importance|role|influence)\b",
                             rf"\b(?:more\s+than|above|over|at\s+least|exceed\w*)\s+(?:\d+(?:\.\d+)?\s*%|{_PART})\s+of\s+(?:the\s+)?"
                             r"(?:total\s+)?(?:mean\s+)?(?:\|SHAP\||absolute\s+SHAP|SHAP)"]},
        "threshold": [r"\b(?:less\s+than|more\s+than|below|above|under|over|at\s+least|at\s+most|exceeds?)\s+"
                      r"(\d+(?:\.\d+)?\s*%)\s+of\s+(?:the\s+)?(?:total\s+)?(?:mean\s+)?(?:\|SHAP\||absolute\s+SHAP|SHAP)",
                      r"\bSHAP[- ]share\s+(?:threshold\s+)?(?:of|below|above|under|over|=|:)?\s*(\d+(?:\.\d+)?\s*%|0?\.\d+)"],
        # the label as the data describe it: "(ignition = 1 for cells that had one)"
        "label_column": [r"\b([A-Za-z_]\w*)\s*(?:=|==|is)\s*1\s+(?:for|where|when|if|marks)\b",
                         # "and strike (1 if a strike was reported)"
                         r"\b([A-Za-z_]\w*)`?\s*\(\s*1\s+(?:if|for|when|where|marks|means)\b",
                         # "and `germinated` (1/0)"
                         r"`([A-Za-z_]\w*)`\s*\(\s*(?:1\s*/\s*0|0\s*/\s*1|yes\s*/\s*no)\s*\)",
                         # a list of the table's columns in brackets: "(bleached 0/1, degree heating weeks, depth, ...)"
                         r"[(,]\s*`?([A-Za-z_]\w*)`?\s+(?:1\s*/\s*0|0\s*/\s*1)\s*[,)]"],
        "tolerance": [rf"\bAUC\s+(?:is\s+)?within\s+(\d*\.\d+)\s+of\s+(?:the\s+)?{_BEST}",
                      # "within one hundredth (0.01) of the best validation AUC"
                      rf"\bwithin\s+(?:[a-z]+\s+){{1,2}}\((\d*\.\d+)\)\s+of\s+(?:the\s+)?{_BEST}\b",
                      rf"\bwithin\s+(\d*\.\d+)\s+(?:AUC\s+)?of\s+(?:the\s+)?{_BEST}\s+(?:validation\s+)?AUC",
                      rf"\bwithin\s+(\d*\.\d+)\s+AUC\s+of\s+(?:the\s+)?{_BEST}\b",  # "within 0.03 AUC of the best"
                      r"\bAUC\s+tolerance\s+(?:of\s+)?(\d*\.\d+)",
                      # "its AUC on the validation split trails the best one found by 0.03 or less"
                      rf"\bAUC\b[^.;]{{0,40}}?\btrails?\s+(?:the\s+)?{_BEST}\b[^.;]{{0,20}}?\bby\s+(\d*\.\d+)\s+or\s+less\b",
                      # "its validation AUC no more than 0.01 short of the top one", "at most 0.02 below the best AUC"
                      r"\bAUC\s+(?:is\s+)?(?:no\s+more\s+than|not\s+more\s+than|at\s+most|less\s+than)\s+(\d*\.\d+)\s+"
                      rf"(?:short\s+of|below|under|behind|worse\s+than)\s+(?:the\s+)?{_BEST}\b",
                      r"\b(?:no\s+more\s+than|at\s+most)\s+(\d*\.\d+)\s+(?:AUC\s+)?(?:short\s+of|below|behind)\s+(?:the\s+)?"
                      rf"{_BEST}\s+(?:validation\s+)?AUC\b",
                      # "any pipeline no more than 0.03 AUC below the top one on validation"
                      r"\b(?:no\s+more\s+than|not\s+more\s+than|at\s+most)\s+(\d*\.\d+)\s+AUC\s+(?:short\s+of|below|behind|"
                      rf"under)\s+(?:the\s+)?{_BEST}\b"],
        "search": {"both": [r"\brandom\s+search\s+(?:and|vs\.?|versus|against)\s+(?:TPE|Bayesian)",
                            r"\b(?:TPE|Bayesian\s+optimi[sz]ation)\s+(?:and|vs\.?|versus|against)\s+random\s+search",
                            r"\bboth\s+search"],
                   "tpe": [r"\bTPE\b", r"\bBayesian\s+optimi[sz]ation\b", r"\btree[- ]structured\s+Parzen\b"],
                   "random": [r"\brandom\s+search\b",
                              # "Random sampling of pipelines only (no TPE)"
                              r"\brandom\s+(?:sampling|draws?)\s+of\s+(?:the\s+)?pipelines\b"]},
        "n_trials": [r"\b(\d[\d,]*)\s+(?:pipeline\s+)?(?:evaluations|trials|tries)\b",
                     r"\bbudget\s+of\s+(\d[\d,]*)\s+(?:evaluations|trials|pipelines)\b"],
    },
)
