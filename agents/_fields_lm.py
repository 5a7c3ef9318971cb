"""The words of language models: how its scientists ask for the methods of the ``lm`` family, and how
their prose states those methods' arguments (see :mod:`cmbagent.agents._fields` for the format).

The argument patterns are written for the ways the field states a setting in general: a model as "3 layers of
4 attention heads" or "2 layers × 8 heads", context lengths as "500, 1K and 2K tokens", a held-out share as
"hold out 20%", seeds as "seeds 0–4" or "five seeds".  A space in a pattern matches any run of white space,
line breaks included (task text wraps its lines).  Each pattern has sentences of its own in
``tests/reading/test_field_words_c.py``, including sentences that must not set it.  Where prose gives a value
these patterns cannot read ("haystacks of 250 to 8K tokens", "numbers below 100"), the reader asks (a captured
value with digits that does not parse is a question), so nothing here runs on a default the text contradicts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cmbagent.agents._fields import field_words
from cmbagent.profiles import FileProfile

# -- shared pieces of patterns ----------------------------------------------------------------------------
#: a count as prose writes it: digits (2,000) or a word ("eight")
_COUNT = r"(\d[\d,]*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|fifty)"
_DECIMAL = r"(\d+(?:\.\d+)?|\.\d+)"
#: a share held out for testing: "20%", "a fifth", "0.2"
_SHARE = r"(\d+(?:\.\d+)?\s*%|\d+(?:\.\d+)? per ?cent|0?\.\d+|(?:a |one )?(?:half|third|quarter|fifth|tenth))"
_HELD_OUT = (
    rf"\bhold(?:s|ing)?[- ]?(?:back|out|aside)\s+{_SHARE}",
    rf"\b(?:keep|set|put)(?:ing)? (?:back|aside)\s+{_SHARE}",
    rf"\b{_SHARE} (?:of (?:the |our )?(?:rows|data|examples|problems|prompts|items|pairs) )?(?:is |are )?"
    r"(?:held[- ]out|kept back|set aside|for (?:the )?test(?:ing)?|as (?:a |the )?test(?: set)?)\b",
    rf"\b{_SHARE} test split\b",
    rf"\btest (?:share|fraction|split) (?:of |=\s*|is )?{_SHARE}",
    # "hold a quarter of the rows out"
    rf"\b(?:hold|keep|set|put)(?:s|ing)?\s+{_SHARE}\s+of\s+(?:the\s+|our\s+)?(?:[\w-]+\s+)?(?:out|back|aside)\b",
)
#: seeds as a range ("seeds 0–4", "five seeds each (0 to 4)") or a count ("five seeds": 0 … 4)
_SEEDS = (
    # "seeds 0–3", "seeds from 3 to 6", "four seeds, 3 to 6"
    r"\bseeds?\s*(?:each\s*)?(?:=|:|\(|,|\bfrom\b)?\s*\[?\s*(\d+\s*(?:–|—|-|…|\.\.\.?|\bto\b|\bthrough\b)\s*\d+)",
    # "Three seeds, numbered 4, 5 and 6": the numbers, not the count
    r"\bseeds?,?\s+(?:numbered|labell?ed|with\s+numbers|namely)\s+(\d+(?:\s*(?:,\s*(?:and\s+)?|\band\s+)\d+)+)",
    rf"\b(?P<count>{_COUNT[1:-1]}) (?:random |different |independent )?seeds\b(?! (?:of|from|at|=|:))",
)

#: the width of a small model: "width 32", "d_model = 64", "a 64-dimensional model"
_WIDTH = (r"\b(?:model )?width (?:of |=\s*|is )?(\d+)\b", r"\bd_?model\s*(?:=|:|of|is)\s*(\d+)\b",
          r"\b(\d+)[- ]dimensional (?:model|hidden states?|residual stream)\b")
#: the rest of a clause, across the line breaks of a wrapped paragraph (not across a blank line, nor into the
#: next item of a list: "* plant edits on head 3 …" then "* 500 steps")
_CLAUSE = r"((?:[^.;\n]|\.(?=[\w(])|\n(?![ \t]*(?:\n|[-*•+]\s|\d{1,2}[.)]\s)))*)"  # "0.2", "layer.head" end nothing
#: a character of a sentence that has not turned to what is written out ("save the plots in the folder out/")
_NOT_OUTPUT = r"(?:(?!\b(?:save|saved|saving|write|writes|written|writing|output|figures?|plots?)\b)[^.\n])"


def _spaced(pattern: str) -> str:
    """``pattern`` with each literal space outside character classes and lookbehinds as ``\\s+`` (`` ?`` as
    ``\\s*``): task text wraps its lines, so "8 timesteps with 10 edits" may hold a line break anywhere."""
    out: list[str] = []
    behind: list[bool] = []  # per open group: is it a lookbehind (fixed width: spaces stay)?
    in_class, i = False, 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(":
            behind.append(pattern.startswith(("(?<!", "(?<="), i))
        elif char == ")" and behind:
            behind.pop()
        elif char == " " and not any(behind):
            optional = pattern[i + 1:i + 2] == "?"
            out.append(r"\s*" if optional else r"\s+")
            i += 2 if optional else 1
            continue
        out.append(char)
        i += 1
    return "".join(out)


def _wrapped(arguments: dict[str, Any]) -> dict[str, Any]:
    """Every argument pattern through :func:`_spaced` (choices' patterns too)."""
    def spaced(entry: Any) -> Any:  # a pattern, or (pattern, fixed value)
        return (_spaced(entry[0]), entry[1]) if isinstance(entry, tuple) else _spaced(entry)

    return {name: {value: tuple(map(spaced, patterns)) for value, patterns in spec.items()}
            if isinstance(spec, dict) else tuple(map(spaced, spec)) for name, spec in arguments.items()}


def _tables(files: Sequence[FileProfile]) -> bool:
    return any(f.kind in {"table", "headerless"} or f.name.endswith((".jsonl", ".json")) for f in files)


def _optional_table(files: Sequence[FileProfile]) -> float:
    """A method that runs without data and also reads a user's table (prompts, needles, a stream of facts):
    a table is welcome, other files are not what it reads."""
    if not files:
        return 0.3
    return 0.2 if _tables(files) else -0.4


def _embeddings_and_labels(files: Sequence[FileProfile]) -> float:
    """A simulation study without data, or a model's embeddings (a 2-D array) with a table of their labels."""
    if not files:
        return 0.3
    arrays = any(f.kind in {"arrays", "matrix"} and not f.covariance_like for f in files)
    return 1.0 if arrays and _tables(files) else 0.3 if arrays else -0.4


#: a small whole number in words ("one, two, three or four combinations")
_SMALL = r"(?:one|two|three|four|five|six|seven|eight|nine|ten)"


field_words(
    "lm.compositional_diversity",
    intents=(
        "Does seeing more combinations of the concepts in training help the model generalise to unseen combinations?",
        "How does combinatorial coverage of the training data drive compositional generalisation?",
        "Check whether the embeddings represent the two concepts additively.",
        "Are our model's embeddings additive in colour and shape, and do linear probes transfer to held-out "
        "combinations?",
    ),
    cues={r"\bcompositional": 3.0, r"\bunseen combinations?\b": 2.5, r"\bcombinatorial coverage\b": 3.0,
          r"\badditive(?:ly)? (?:representation|structure|factori)": 2.0, r"\bconcepts?\b": 0.8,
          r"\badditiv(?:e|ity)\b[^.?!]{0,40}\b(?:colou?rs?|shapes?|concepts?|attributes?|factors?)\b": 2.5,
          r"\badditive (?:fit|model|decomposition)\b": 1.5, r"\blinear probes?\b": 1.0,
          r"\b(?:held[- ]out|unseen|novel) (?:[\w–-]+ )?combinations\b": 1.5},
    data=_embeddings_and_labels,
    arguments=_wrapped({
        # the grid: "a 5 × 5 grid", "5 colours × 5 shapes", "6 values per concept"
        "n": (r"\b(\d+)\s*(?:[×x]|by)\s*\1\s+(?:grid|combinations)\b", r"\bgrid of (\d+)\s*(?:[×x]|by)\s*\1\b",
              r"\b(\d+) [a-z]+s?\s*[×x]\s*\1 [a-z]+s?\b(?=[^.;]{0,40}\bconcepts?\b|\))",
              rf"\b{_COUNT} values (?:per|for each|of each|in each) concept\b",
              rf"\b(?:each|every) (?:of the (?:two )?)?concepts? (?:takes|has|with) {_COUNT} values\b"),
        # coverage levels: "k from 1 to 4", "coverage levels 1–3" (a list "k = 1, 2, 3" is read by its name)
        "ks": (r"\bk\s*(?:=|from|in|between)?\s*(\d+\s*(?:–|—|-|…|\.\.\.?|\bto\b|\bthrough\b|\band\b)\s*\d+)\b"
               r"(?!\s*(?:,|and)\s*\d)",
               r"\bcoverage (?:levels? |of |values )?(?:k\s*)?(?:=\s*|from |of )?(\d+\s*(?:–|—|-|…|\.\.\.?|"
               r"\bto\b|"
               r"\bthrough\b)\s*\d+)",
               # "encoders that see one, two, three or four combinations per value"
               rf"\b((?:{_SMALL}|\d+)(?:\s*,\s*(?:{_SMALL}|\d+))*,?\s+(?:or|and)\s+(?:{_SMALL}|\d+))\s+"
               r"(?:training\s+)?combinations?\s+(?:per|for\s+each|of\s+each)\s+(?:value|concept\s+value)\b"),
        "n_train": (rf"\b{_COUNT} training (?:samples|examples|images|points|items|inputs)\b",
                    rf"\btraining[- ](?:set )?size (?:of |=\s*|is |fixed at )?{_COUNT}",
                    rf"\b(?:a )?(?:fixed )?(?:budget|data size) of {_COUNT} (?:training )?(?:samples|examples)\b"),
        "seeds": _SEEDS,
    }),
)

field_words(
    "lm.jola",
    intents=(
        "Which attention heads need editing to adapt the frozen language model, with gates that switch heads off?",
        "Localise the attention heads responsible for the behaviour and edit their activations.",
        "Parameter-efficient adaptation by editing a few heads' outputs instead of fine-tuning.",
    ),
    cues={r"\battention heads?\b": 2.5, r"\bactivation edit": 3.0, r"\bgated?\b": 1.0,
          r"\bhead[- ]edit|\bedit(?:s|ing)? (?:the )?(?:attention )?heads\b|\bper[- ]head\b": 2.0,
          r"\bplanted (?:edits?|heads?)\b": 1.5,
          r"\bfrozen (?:language )?model\b": 1.5, r"\bparameter-efficient\b": 1.5, r"\bJoLA\b": 3.0},
    data=_optional_table,
    arguments=_wrapped({
        # the planted heads: the clause after "plant" / "planted heads" lists [layer, head] pairs
        "planted_heads": (rf"\bplant(?:ed|s|ing)?\b(?! check){_CLAUSE}",
                          r"\b((?:head|layer)\s*\d+[^.;\n]{0,40}?)\b(?:carries|carry|holds?|has|have|gets?|get|"
                          r"receives?|takes?) the planted\b",
                          rf"\b(?:target|true|ground[- ]truth|edited) heads?\b{_CLAUSE}",
                          r"\bteacher\b[^.;]{0,40}?\b(?:edit(?:s|ed|ing)?|differs?|chang(?:es|ing)|"
                          r"modif(?:ies|ying))\b"
                          rf"{_CLAUSE}",
                          # any run of two or more "head N" / "layer N" mentions ("(layer 3, head 1)")
                          r"((?:\b(?:head|layer)\s*\d+\b[\s,()\[\]]*(?:(?:of|in|and|on|at)\b[\s,()\[\]]*)?"
                          r"(?:the\s+)?){2,})"),
        # the tiny model: "3 layers of 4 attention heads", "2 layers × 8 heads", "a 3-layer model"
        "n_layers": (rf"\b{_COUNT}\s+(?:transformer |decoder )?layers?\s*(?:[×x]|of|with|each with|,)\s*\w+\s+"
                     r"(?:attention\s+)?heads\b",
                     rf"\b{_COUNT}[- ]layer\b(?=[^.;]{{0,30}}\b(?:model|transformer|GPT|network)\b)",
                     rf"\b(?:model|transformer|GPT|network) (?:with|of) {_COUNT} (?:transformer )?layers\b"),
        "n_heads": (r"\blayers?\s*(?:[×x]|of|with|each with|,)\s*" + _COUNT + r"\s+(?:attention\s+)?heads\b",
                    rf"\b{_COUNT} (?:attention )?heads (?:per|in each|in every|on each|on every|each) layer\b",
                    rf"\b{_COUNT} (?:attention )?heads each\b",
                    rf"\b{_COUNT}[- ]head(?:ed)?\b(?=[^.;]{{0,30}}\b(?:model|transformer|GPT|network|attention|"
                    r"layers?)\b)"),
        # the planted edit's size: "edit vectors of standard deviation 3", "the planted edits have scale 3"
        "d_model": _WIDTH,
        "edit_scale": (r"\b(?:edit|planted|teacher)(?:[\w'-]* ){0,2}?vectors? (?:of|with|having|at) (?:a )?"
                       r"(?:standard deviation|std|s\.d\.|sd|scale|size)(?: of)?\s*(?:=\s*)?" + _DECIMAL,
                       r"\b(?:standard deviation|std|scale|size) of (?:the )?(?:planted |teacher(?:'s)? )?edits?"
                       r"(?: vectors)?\s*(?:is |=\s*|of |:\s*)?" + _DECIMAL,
                       # "drawing the edit vectors with a spread (standard deviation) of 3"
                       r"\b(?:edit|planted|teacher)(?:[\w'-]* ){0,2}?vectors? with (?:a )?spread(?: \((?:standard deviation|std|"
                       r"sd)\))? of " + _DECIMAL),
        "l0_weight": (r"\b(?:L0|sparsity) (?:penalty )?(?:weight|coefficient|strength) (?:of |=\s*|is |to |at )?" + _DECIMAL,
                      # "with the L0 penalty weighted at 0.5"
                      r"\b(?:L0|L_0|sparsity)[ -](?:penalty|regulari[sz]\w*) weighted (?:at|by|with) " + _DECIMAL,
                      r"\b(?:L0|sparsity) penalty (?:of |=\s*|weighted by )" + _DECIMAL,
                      # "the expected-L0 penalty halved to 0.5", "an L0 penalty (weight) lowered to 0.2"
                      r"\b(?:L0|L_0|sparsity)[ -](?:penalty|regulari[sz]\w*)(?: (?:weight|coefficient|strength))? "
                      # ("the L0 penalty weight goes down to 0.5")
                      r"(?:(?:is|should be|will be) )?(?:halved|doubled|tripled|set|lowered|raised|reduced|increased|cut|"
                      r"changed|scaled|goes|go|comes|drops|falls|moves) (?:down |up )?to " + _DECIMAL,
                      # "the L0 penalty at half its usual weight" (the default weight is 1)
                      (r"\b(?:L0|L_0|sparsity)[ -](?:penalty|regulari[sz]\w*) at half (?:its|the) (?:usual|default|normal) "
                       r"(?:weight|strength)\b", 0.5),
                      (r"\b(?:L0|L_0|sparsity)[ -](?:penalty|regulari[sz]\w*) at (?:twice|double) (?:its|the) (?:usual|default|normal) "
                       r"(?:weight|strength)\b", 2.0)),
        "test_fraction": _HELD_OUT,
    }),
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
          r"\bretrieval[- ]augment": 1.5, r"\breplay(?:s|ing|ed)?\b": 1.0, r"\bfact edits\b|\bstream of (?:fact )?edits\b": 2.0,
          r"\bfact[- ]editing\b|\bediting\s+(?:of\s+)?facts\b|\blifelong\s+(?:fact\s+|knowledge\s+)?editing\b": 2.5},
    data=_optional_table,
    arguments=_wrapped({
        "n_timesteps": (rf"\b{_COUNT} (?:time ?steps|rounds of (?:edits|updates))\b",
                        rf"\b(?:time ?steps|rounds)\s*(?:=|:)\s*{_COUNT}"),
        "edits_per_step": (rf"\b{_COUNT} (?:new )?(?:fact )?(?:edits|updates|facts) (?:each|per (?:time ?)?step|"
                           r"(?:at|in|for) (?:each|every) (?:time ?)?step|a (?:time ?)?step)\b",
                           rf"\b(?:each|every) (?:time ?)?step (?:has|brings|adds|with) {_COUNT} (?:new )?"
                           r"(?:fact )?(?:edits|updates|facts)\b",
                           rf"\btime ?steps?\s*[×x]\s*{_COUNT} (?:new )?(?:fact )?(?:edits|updates|facts)\b",
                           # "Four timesteps, each with ten edits"
                           rf"\btime ?steps?,?\s+(?:each|every\s+one)\s+(?:with|having|bringing|of)\s+{_COUNT}\s+(?:new\s+)?"
                           r"(?:fact\s+)?(?:edits|updates|facts)\b"),
        # facts the model knows before the stream: "about people" is the argument; a total (which includes 24
        # place facts) is captured with its words, never read as a number, so it is a question
        "n_base": (r"\b(\d[\d,]*) (?:prior|base|background|pretraining) facts about people\b",
                   r"\b(\d[\d,]* (?:prior|base|background|pretraining) facts)\b"),
        # fine-tuning alone, not the fine-tuning inside "fine-tuning with replay"
        # "give the fine-tuning 80 steps per timestep"
        "edit_steps": (r"\b(?:give|train|run|allow)\s+(?:the\s+)?fine[- ]?tuning\s+(\d[\d,]*)\s+(?:gradient\s+)?steps\b",
                       r"\bfine[- ]?tun(?:e|ing)\s+for\s+(\d[\d,]*)\s+steps\s+(?:per|at\s+each|each|every)\s+time\s?step\b",
                       # "60 fine-tuning steps per timestep"
                       r"\b(\d[\d,]*)\s+fine[- ]?tuning\s+steps\s+(?:per|at\s+each|each|every|for\s+each)\s+time\s?step\b"),
        "strategies": {
            "retrieval": (r"\bretrieval\b", r"\bRAG\b",
                          # "retrieving the edits, fine-tuning on them, and ...": the strategy by its verb
                          r"\bretriev(?:e|es|ing)\s+(?:the\s+)?(?:new\s+)?(?:edits|facts|updates)\b",
                          # "answering from a retrieved memory of edits"
                          r"\bretrieved\s+(?:memory|store|index|cache)\b"),
            "finetune": (r"(?<!replay )(?<!replay-based )\b(?:plain |continual |naive |sequential |vanilla )?"
                         r"fine[- ]?tun(?:e|ing|ed)\b(?! (?:with|plus|and) (?:\w+ )?replay)(?!-with-replay)"
                         r"(?!\s+(?:that|which)\s+replays?\b)"
                         # "give the fine-tuning 80 steps per timestep": its settings, not a strategy asked for
                         r"(?!\s+(?:\d[\d,]*\s+)?(?:steps|epochs|iterations)\b)",
                         # "compare only continual fine-tuning with replay": two strategies, one against the other
                         r"\bcompar\w*\s+(?:only\s+|just\s+)?(?:plain |continual |naive |sequential |vanilla )?"
                         r"fine[- ]?tun(?:e|ing)\s+(?:with|against|to)\s+(?:\w+\s+)?replay\b"
                         r"(?!\s+(?:against|to|and|with|versus|vs)\b)"),
            # "the same fine-tuning mixed with replayed older edits"
            "replay": (r"\breplay\b", r"\bfine[- ]?tuning\s+(?:that|which)\s+replays?\b", r"\bmixed\s+with\s+(?:the\s+)?replayed\s+(?:older\s+|earlier\s+|old\s+)?(?:edits|facts)\b"),
        },
        # replay: "two earlier edits per new edit", "replay ratio of 2", "replaying 2 old facts for each new one"
        "replay_ratio": (r"\b(\d+(?:\.\d+)?|one|two|three|four|five|half) (?:an? )?(?:earlier|old|older|previous|past) (?:edits?|"
                         r"facts?|examples?|updates?) (?:per|for (?:each|every)) new\b",
                         # "two earlier edits replayed alongside each new one"
                         r"\b(\d+(?:\.\d+)?|one|two|three|four|five|half)\s+(?:earlier|old|older|previous|past)\s+(?:edits?|"
                         r"facts?|examples?|updates?)\s+replayed\s+(?:alongside|with|beside|next\s+to)\s+(?:each|every)\s+new\b",
                         rf"\breplay(?:ing|s)? {_DECIMAL} (?:earlier|old|older|previous|past) (?:edits|facts|"
                         r"examples|updates) (?:per|for (?:each|every))\b",
                         rf"\breplay ratio (?:of |=\s*|is |:\s*)?{_DECIMAL}",
                         # "mix one old edit into every two new ones"
                         r"\b((?:one|a|1) (?:earlier |old |older |previous |past )?(?:edits?|facts?|examples?|updates?) "
                         r"(?:into|with|to|per|for) every (?:\d+|two|three|four|five|six|eight|ten)) new\b"),
    }),
    # the user's own stream has its timesteps and edits: the generated stream's sizes describe it, set nothing
    overrides={"data": ["n_timesteps", "edits_per_step", "n_base"]},
)

field_words(
    "lm.lora_symmetry",
    intents=(
        "Predict properties of LoRA adapters from their weights, using features that respect the adapters' symmetry.",
        "Are invariant features of low-rank adapters better inputs than the raw weights?",
    ),
    cues={r"\bLoRA\b": 3.0, r"\blow[- ]rank adapt": 3.0, r"\badapters?\b": 1.5, r"\bweight[- ]space\b": 2.0,
          r"\bsingular values\b": 1.0, r"\bsymmetr": 0.8},
    data=_optional_table,
    arguments=_wrapped({
        # a folder of adapters (a file argument would be mapped from the input files; a folder is named)
        "adapters": (rf"\badapters?\b{_NOT_OUTPUT}{{0,80}}?\b(?:in|from|under|inside)\s+(?:the\s+)?(?:folder|"
                     r"directory)\s+`?((?:\.{1,2}/)?[\w.-]+(?:/[\w.-]+)*?)/?`?(?=[\s,;:)]|\.(?:\s|$)|$)",
                     rf"\badapters?\b{_NOT_OUTPUT}{{0,40}}?\b(?:in|from|under)\s+`?((?:\.{{1,2}}/)?[\w.-]+"
                     r"(?:/[\w.-]+)*?)/`?"
                     r"(?=[\s,;:)]|\.(?:\s|$)|$)"),
        # the adapted matrix: "a 16 × 32 weight matrix" is d × k (rows of B × columns of A)
        # "1500 rank-3 adapters", "adapters of rank 2"
        "rank": (r"\brank[- ](\d+)\b", r"\b(?:of|with|at) rank (\d+)\b", r"\brank (?:r\s*)?(?:=|of)\s*(\d+)\b",
                 # "B is 20 × 1 and A is 1 × 20 (so rank one)": B is d × r
                 r"(?-i:\bB)\s+(?:of|is|:|=)?\s*\d+\s*[×x]\s*(\d+)\b",
                 r"\brank[- ](one|two|three|four|five|six|seven|eight|nine|ten)\b"),
        # "generate 3000 synthetic rank-2 adapters"
        "n_adapters": (r"\b(?:generate|simulate|make|draw|sample|create)\w*\s+(\d[\d,]*)\s+(?:[\w-]+\s+){0,3}?adapters\b",
                       # "square adapters where B is 20 × 1 ..., 2000 of them"
                       r"\badapters\b[^.;]{0,100}?\b(\d[\d,]*)\s+of\s+them\b"),
        "d": (r"\b(\d+)\s*[×x]\s*\d+\s+(?:base |frozen |adapted |pretrained )?(?:weight )?matri(?:x|ces)\b",
              r"(?-i:\bB)\s+(?:has|with)\s+(\d+)\s+rows\b",  # "B has 16 rows and A has 10 columns"
              # the factors' shapes: "B of 10 × 4 and A of 4 × 10" (B is d × r, A is r × k)
              r"(?-i:\bB)\s+(?:of|is|:|=)?\s*(\d+)\s*[×x]\s*\d+\b",
              r"\bmatri(?:x|ces) (?:of size|of shape|with shape|shaped|sized) (\d+)\s*[×x]\s*\d+",
              r"\boutput dim(?:ension)?s? (?:of |=\s*|is |d\s*=\s*)?(\d+)",
              r"\bB\s+(?:of|with|having)\s+(\d+)\s+rows\b",  # "B of 16 rows and A of 8 columns"
              # "output and input dimension both 8", "input and output dimensions of 12"
              r"(?#both)\b(?:output\s+and\s+input|input\s+and\s+output)\s+dim(?:ension)?s?\s+(?:both\s+|each\s+|of\s+|=\s*)?(\d+)\b"),
        "k": (r"\b\d+\s*[×x]\s*(\d+)\s+(?:base |frozen |adapted |pretrained )?(?:weight )?matri(?:x|ces)\b",
              r"(?-i:\bA)\s+(?:has|with)\s+(\d+)\s+columns\b",
              r"(?-i:\bA)\s+(?:of|is|:|=)?\s*\d+\s*[×x]\s*(\d+)\b",
              r"\bmatri(?:x|ces) (?:of size|of shape|with shape|shaped|sized) \d+\s*[×x]\s*(\d+)",
              r"\binput dim(?:ension)?s? (?:of |=\s*|is |k\s*=\s*)?(\d+)",
              r"\bA\s+(?:of|with|having)\s+(\d+)\s+columns\b",
              r"(?#both)\b(?:output\s+and\s+input|input\s+and\s+output)\s+dim(?:ension)?s?\s+(?:both\s+|each\s+|of\s+|=\s*)?(\d+)\b"),
        # the spread along the symmetry orbits: "spread of 1.0 in the log-scale of the symmetry moves"
        "orbit_scale": (rf"\bspread (?:of |=\s*){_DECIMAL} (?:in|of|along|for) (?:the )?(?:log|orbit|symmetry)",
                        rf"\b(?:orbit|symmetry)(?:[- ]orbit)? spread (?:of |=\s*|is ){_DECIMAL}",
                        rf"\blog[- ]?(?:scale|c)\b[^.;]{{0,30}}?\b(?:spread|standard deviation|std|sd) (?:of |=\s*|is )?"
                        rf"{_DECIMAL}",
                        # "spread of log c equal to 1"
                        rf"\b(?:spread|standard deviation|std|sd) of (?:the )?log[- ]?(?:scale|c)\b\s*(?:equal to |of |=\s*|is |at )"
                        rf"{_DECIMAL}"),
    }),
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
    data=_optional_table,
    arguments=_wrapped({
        # context lengths: "haystacks of 500, 1K, 2K and 4K tokens", "at 250, 500 and 1K tokens"
        # a span ("haystacks of 250 to 8K tokens") leaves the lengths between unsaid: captured with its unit,
        # it never reads as a list, so it is a question (an integer range would be every integer)
        "lengths": (r"\b(?:of|at|from|between|lengths?)\s+(\d+(?:\.\d+)?\s?[kK]?\s*(?:to|–|—|-)\s*"
                    r"\d+(?:\.\d+)?\s?[kK]?"
                    r"\s*[- ]?tokens?)\b",
                    # "Haystack sizes: 500, 1000, 2000 and 4000 tokens"
                    r"\b(?:at|of|(?:lengths?|sizes?)(?: of|:)?|with|over|across|on)\s+((?:\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?\s?[kK]?)"
                    r"(?:\s*(?:,\s*(?:and\s+)?|\band\b|\bor\b)\s*(?:\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?\s?[kK]?))*)"
                    r"\s*[- ]?tokens?\b",),
        # "write the generated items out to a file", "export the built items"
        "save_items": (r"\b(?:save|write|keep|store|export|dump) (?:out )?(?:the |its |all )?(?:(?:benchmark(?:'s)?|"
                       r"generated|built|resulting|test) )?items\b",
                       # "generate the items and save them to a file"
                       r"\bitems\b[^.;]{0,30}?\b(?:save|write|export|dump|store)\w*\s+(?:them|those)\b"),
        # "four of the built-in needles", "six shipped needles"
        "n_needles": (rf"\b{_COUNT}\s+(?:of\s+(?:the|its)\s+)?(?:built[- ]in|shipped|default|stock|standard)\s+"
                      r"needles\b",),
        # requests in flight: "no more than two requests in flight at once", "4 concurrent requests"
        "concurrency": (rf"\b(?:no more than|at most|up to|only)\s+{_COUNT}\s+(?:parallel\s+|concurrent\s+|"
                        r"simultaneous\s+)?requests?\s+(?:in flight|at (?:once|a time)|in parallel|concurrently)",
                        rf"\b{_COUNT}\s+(?:parallel|concurrent|simultaneous)\s+requests\b",
                        r"\bconcurrency\s+(?:of\s+|=\s*|:\s*)?(\d+)\b"),
        # the literal questions (the control condition): asked, or left out
        "literal_controls": {
            False: (r"\b(?:skip(?:ping)?|drop(?:ping)?|leav(?:e|ing) out|omit(?:ting)?|without|no) (?:the |any )?"
                    r"literal(?:[- ](?:overlap|question))? (?:controls?|questions?|versions?|condition)\b",
                    # "the literal-question controls can be dropped for now"
                    r"\bliteral(?:[- ](?:overlap|question))? (?:controls?|questions?|versions?|condition) (?:can|may|could|"
                    r"should|will) be (?:dropped|skipped|left out|omitted)\b",
                    r"\blatent(?:[- ]association)? questions only\b", r"\bonly (?:the )?latent(?:[- ]association)? "
                    r"questions\b"),
            True: (r"\b(?:with|and|plus|also|include|including|keep|run|for) (?:the )?literal(?:[- ]overlap)? "
                   r"(?:controls?|questions?|condition)\b",
                   r"\bliteral(?:[- ]overlap)? (?:controls?|questions) (?:too|as well|included)\b"),
        },
    }),
)

field_words(
    "lm.number_token_loss",
    intents=(
        "Does adding a loss that knows how far apart numbers are help a small transformer do arithmetic?",
        "Train a model on multiplication problems with plain cross entropy and with a numeric loss on digit tokens.",
        "Compare the numeric error of a language model trained with and without a number-aware loss.",
    ),
    cues={r"\bnumber token\b": 3.0, r"\barithmetic\b": 2.0, r"\bmultiplication\b|\baddition problems\b": 1.5,
          r"\bdigits?\b": 1.0, r"\bcross[- ]entropy\b": 1.0, r"\bWasserstein\b": 1.5, r"\bnumeric(?:al)? error\b": 1.0,
          r"\bnumber[- ]token loss\b|\bNTL\b": 2.0},
    data=_optional_table,
    arguments=_wrapped({
        "operation": {
            "multiply": (r"\bmultipl(?:y|ying|ication|ications|ied)\b", r"\btimes[- ]tables?\b",
                         r"\bproducts? of (?:two|pairs of) (?:numbers|integers)\b"),
            "add": (r"\baddition\b", r"\badd(?:ing)? (?:two |pairs of )?(?:numbers|integers|operands)\b",
                    r"\bsums? of (?:two|pairs of) (?:numbers|integers)\b"),
        },
        "max_operand": (r"\boperands? (?:up to|of at most|no (?:larger|greater|bigger) than|at most|≤|<=|"
                        r"(?:from|between) \d+ (?:to|and)) (\d[\d,]*)",
                        r"\b(?:largest|biggest|maximum|max(?:imal)?) operand (?:of |is |=\s*)?(\d[\d,]*)",
                        r"\b(?:numbers|integers) (?:up to|of at most|from 0 to|from 1 to) (\d[\d,]*) as operands\b",
                        # "products of two integers, each between 0 and 30"
                        r"\b(?:numbers|integers|operands)\b,?\s+(?:each\s+)?(?:between|from)\s+[01]\s+(?:and|to)\s+(\d[\d,]*)",
                        # "with both factors between 0 and 30", "addends from 1 to 50"
                        r"\b(?:both\s+|the\s+|each\s+|two\s+)?(?:factors|addends|summands|terms)\s+(?:each\s+)?"
                        r"(?:between|from)\s+[01]\s+(?:and|to)\s+(\d[\d,]*)",
                        # "numbers below 100" is 99: a bound the pattern cannot shift is a question
                        r"\b(?:numbers|operands|integers) ((?:below|under|less than|smaller than) \d[\d,]*)"),
        "d_model": _WIDTH,
        "n_layers": (rf"\b{_COUNT}[- ]layers?\b(?=[^.;]{{0,30}}\b(?:model|transformer|network)\b)",
                     rf"\b(?:model|transformer|network) (?:with|of) {_COUNT} layers\b",
                     rf"\(\s*{_COUNT} layers\b"),
        # the variant: "the squared-error variant of the number-token loss", "NTL-MSE", "Wasserstein NTL"
        "kind": {
            "mse": (r"\b(?:MSE|squared[- ]error|L2)\b[^.;]{0,30}?\b(?:NTL|number[- ]token loss|variant|version|"
                    r"flavou?r|form)\b",  # "the number-token loss (MSE flavour, weight 0.8)"
                    r"\b(?:NTL|number[- ]token loss)(?:[- ]|\s*[(,]\s*)(?:MSE|squared[- ]error|L2)\b"),
            "was": (r"\bWasserstein\b", r"\bearth[- ]mover"),
        },
        # λ: "0.3 × the number-token loss", "weight 0.3 on the NTL", "λ = 0.3"
        "ntl_weight": (rf"\b{_DECIMAL}\s*(?:×|\*|x|times)\s*(?:the\s+)?(?:[\w-]+\s+){{0,5}}?(?:NTL|number[- ]token "
                       r"loss)\b",
                       rf"\b(?:λ|lambda)\s*(?:=|of|is)\s*{_DECIMAL}",
                       rf"\bweight(?:ed)? (?:of |by )?{_DECIMAL} (?:on|for) (?:the )?(?:NTL|number[- ]token loss)\b",
                       rf"\b(?:NTL|number[- ]token (?:loss|term))\b[^.;]{{0,20}}?\bweight(?:ed)? (?:of |by |=\s*|is )?"
                       rf"{_DECIMAL}",
                       # "cross-entropy plus the Wasserstein variant of the number loss at weight one"
                       r"\bnumber(?:[- ]token)?\s+(?:loss|term)\s+at\s+(?:a\s+)?weight\s+(?:of\s+)?(\d*\.?\d+|one|two|three|"
                       r"half|a\s+half)\b"),
        "test_fraction": _HELD_OUT,
        "seeds": _SEEDS,
        # "Generate 1500 addition problems", "draw 2,000 multiplication examples"
        "n_examples": (r"\b(?:generate|make|build|create|draw|sample|use)\s+(\d[\d,]*)\s+(?:[\w-]+\s+){0,2}?"
                       r"(?:problems|examples|sums|products|equations|questions|items|pairs)\b",
                       # "600 multiplication problems with both factors between 0 and 20"
                       r"\b(\d[\d,]*)\s+(?:multiplication|addition|arithmetic)\s+(?:problems|examples|questions|sums)\b"),
        # a table that "pairs" a question with its answer: "pairs a duration written as hours and minutes (column
        # duration, ...) with the total number of minutes (column minutes)"
        "prompt_column": (r"\bpairs?\s+(?:each\s+)?[^.;]{0,80}?\(\s*(?:the\s+)?column\s+`?(\w+)`?",),
        "answer_column": (r"\bpairs?\s+(?:each\s+)?[^.;]{0,80}?\(\s*(?:the\s+)?column\s+`?\w+`?[^()]*\)\s+with\s+"
                          r"[^.;()]{0,80}?\(\s*(?:the\s+)?column\s+`?(\w+)`?",),
    }),
)
