"""The words of learning theory simulations: how its scientists ask for the methods of the ``theory`` family, and how
their prose states those methods' arguments (see :mod:`cmbagent.agents._fields` for the format)."""

from __future__ import annotations

from cmbagent.agents._fields import field_words, no_data

_NUM = r"\d+(?:\.\d+)?"
#: a small number in words, as counts are written ("five random problems", "twenty episodes")
_WORD = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|fifty|hundred)"
#: a list of plain numbers as prose writes it: "3, 10 and 40", "60, 100, 140"
#: two or more whole numbers; the list ends at the item after its "and", and does not start with the number of
#: another setting ("tubal rank 1, 80 Gaussian measurements" is no list of measurement counts)
_LIST = (r"(?<!\brank\s)(?<!\blength\s)(?<!\bside\s)(?<!\bsize\s)(?<!\bseed\s)"
         r"(?:(?:\d+\s*,\s*)+\d+(?:\s*,?\s*(?:and|or)\s+\d+)?|\d+\s+(?:and|or)\s+\d+)")
#: a list of scales, in any notation _understand reads: "1e-5, 1e-3 and 1e-1", "0.001, 0.01"
_SCALE = r"\d+(?:\.\d+)?(?:[eE][-+−]?\d+)?"
#: a list ends at the item after its "and" ("10⁻⁵, 10⁻³ and 10⁻¹, 2000 iterations": three scales)
_SCALES = rf"(?:{_SCALE}\s*,\s*)*{_SCALE}(?:\s*,?\s*(?:and|or)\s+{_SCALE})?"
#: a neuron as the field qualifies it: "6 leaky integrate-and-fire neurons", "10 LIF units"
_NEURONS = r"(?:[A-Za-z][\w-]*\s+){0,3}?(?:neurons|units|cells)\b"
#: a number written alone, not an end of a range or a choice ("depth 1–3", "4 or 8 neurons": no single value)
_ALONE_BEFORE = r"(?<!\d, )(?<!\d,)(?<!\bor )(?<!\band )(?<!\bto )(?<![-–—…])"
#: a count as written, in digits or in words, alone ("five random problems", not "2, 3 layers")
_COUNT = rf"((?:{_ALONE_BEFORE}\d[\d,]*)|(?<!\bor )(?<!\band )(?<!\bto ){_WORD}\b)"
_ALONE_AFTER = r"(?![.,]?\d)(?!\s*(?:[-–—…]|\.\.|\bto\b|\bor\b|\band\b|,)\s*\d)"

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
    arguments={
        # the words named() cannot read: "width 6", "depth 3", "threshold 0.5", "latencies 1 to 8" it reads itself
        "input_dim": [rf"\b{_ALONE_BEFORE}(\d+)-?D\s+(?:static\s+)?inputs?\b",
                      # "one input dimension on [−4, 4]", "a scalar input"
                      rf"\b(one|{_COUNT[1:-1]})\s+input\s+dimensions?\b", (r"\bscalar\s+(?:static\s+)?input\b", 1),
                      rf"\b{_COUNT}-dimensional\s+(?:static\s+)?inputs?\b",
                      rf"\binputs?\s+(?:dimension|dim)\s*(?:d\s*=\s*|of\s+|=\s*|:\s*)?(\d+)\b{_ALONE_AFTER}",
                      rf"\binputs?\s+(?:in|of)\s+dimension\s+(?:d\s*=\s*)?(\d+)\b{_ALONE_AFTER}"],
        # neurons per layer: "3 layers × 6 LIF neurons", "a layer of 10 neurons", "8 neurons per layer"
        "width": [rf"(?:×|\bx)\s*(\d+)\s+{_NEURONS}",
                  rf"\blayers?\s+of\s+(\d+|{_WORD})\s+{_NEURONS}",
                  rf"\b{_COUNT}\s+{_NEURONS}\s+(?:per|in\s+each|each|a)\s+layer\b",
                  # "three layers with five LIF units each"
                  rf"\blayers?\s+(?:with|of)\s+{_COUNT}\s+{_NEURONS}\s+(?:each|apiece)\b"],
        "depth": [rf"\b{_COUNT}\s+(?:hidden\s+|spiking\s+|LIF\s+)?layers\b",
                  (r"\b(?:a\s+)?single[- ]layer\b", 1),
                  (r"\bone[- ]layer\b", 1)],
        "beta": [rf"\bleak(?:\s+factor|\s+rate|\s+constant)?\s*(?:β\s*)?(?:of\s+|=\s*|:\s*)?"
                 rf"(0?\.\d+|1(?:\.0+)?|0){_ALONE_AFTER}",
                 rf"(?:β|\bbeta)\s*=\s*(\d*\.?\d+){_ALONE_AFTER}",
                 rf"\bmembrane\s+(?:decay|leak)\s*(?:of\s+|=\s*|:\s*)?(0?\.\d+|1(?:\.0+)?){_ALONE_AFTER}",
                 (r"\bnon-?leaky\b", 1.0),
                 (r"\bno\s+(?:membrane\s+)?leak(?:age)?\b", 1.0),
                 # "membranes that do not leak", "a neuron that never leaks", "leak-free", "without leak"
                 (r"\b(?:do|does|did)\s+not\s+leak\b|\b(?:don't|doesn't|never)\s+leaks?\b|\bleak[- ]free\b|"
                  r"\bwithout\s+(?:any\s+)?(?:membrane\s+)?leak(?:age)?\b", 1.0),
                 # "perfect integrators that never lose charge between time steps"
                 (r"\bperfect(?:ly)?\s+integrat\w*\b|\b(?:never|don't|doesn't|do\s+not|does\s+not)\s+lose\s+(?:any\s+)?"
                  r"(?:charge|potential|voltage)\b|\blos(?:e|es|ing)\s+no\s+(?:charge|potential|voltage)\b", 1.0)],
        "reset": {
            "zero": [r"\breset\w*\s+(?:\w+\s+){0,2}?to\s+(?:zero|0)\b", r"\b(?:zero|hard)[- ]reset\b",
                     # "the membrane potential set back to zero whenever a neuron fires", "drops back to 0"
                     r"\b(?:set|put|brought|drops?|dropping|falls?|falling|go|goes|going|returns?|returning|returned)\s+back\s+to\s+(?:zero|0)\b"],
            "subtract": [r"\breset\w*\s+by\s+subtract", r"\bsubtract(?:ive|ion)?[- ]reset\b", r"\bsoft[- ]reset\b",
                         r"\bsubtract(?:s|ing)?\s+the\s+threshold\b"],
        },
        "threshold": [rf"\bθ\s*=\s*({_NUM}){_ALONE_AFTER}",
                      # "firing threshold one half"
                      r"\bthreshold\s+(?:of\s+|at\s+)?((?:one|a)[\s-]+(?:half|third|quarter|fifth|tenth))\b"],
        # the half-width of the input box [−b, b]^d
        "box": [rf"\[\s*[-−–]\s*({_NUM})\s*,\s*\+?\s*\1\s*\]",
                # "each input coordinate between −2 and 2", "inputs ranging from -1.5 to 1.5"
                rf"\b(?:inputs?|coordinates?|components?)\s+(?:[\w-]+\s+){{0,3}}?(?:between|from|within)\s+[-−–]\s*"
                rf"({_NUM})\s+(?:and|to)\s+\+?\s*\1\b",
                rf"\bbox\s+(?:of\s+)?half[- ]width\s*(?:of\s+|=\s*|:\s*)?({_NUM}){_ALONE_AFTER}"],
        # "For T = 2, 4, 6 and 8 time steps", "latency T ∈ {1, 2, 4}"
        "latencies": [rf"\bT\s*(?:=|∈|in)\s*\{{?\s*({_LIST})\s*\}}?\s*(?:time[- ]?steps|steps)?\b",
                      # "for latencies T from 1 up to 4": every latency of the range
                      r"\blatenc(?:y|ies)\s+(?:T\s+)?(?:from\s+)?(\d+\s+(?:up\s+)?(?:to|through|–|-)\s+\d+)\b",
                      rf"\b({_LIST})\s+time[- ]?steps\b"],
        "samples": [rf"\b{_ALONE_BEFORE}(\d[\d,]*)\s+(?:sampled|random|sample|Monte[- ]Carlo)\s+(?:inputs|points)\b",
                    r"\bfrom\s+(\d[\d,]*)\s+(?:samples|sampled\s+points|random\s+points)\b"],
    },
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
    arguments={
        "alphas": [rf"\binitiali[sz]ation\s+scales?\s*(?:α\s*)?(?:of\s+|=\s*|:\s*)?({_SCALES})(?!\w|\.\d)",
                   rf"\bα\s*(?:∈|=|in)\s*\{{?\s*({_SCALES})(?!\w|\.\d)",
                   # "we start from scales α of 10⁻⁵, 10⁻³ and 10⁻¹", "initial scales 1e-4 and 1e-2"
                   rf"\b(?:start\w*\s+(?:from|at)|initial|init)\s+scales?\s*(?:α\s*)?(?:of\s+|=\s*|:\s*)?({_SCALES})(?!\w|\.\d)"],
        # an n × n × k tensor: its side and the length of its tubes
        "n": [r"\b(\d+)\s*[×x]\s*\1\s*[×x]\s*\d+\b",
              # "tensors of side 6", "tensor side 8"
              rf"\btensors?\s+(?:of\s+)?side\s*(?:n\s*)?(?:of\s+|=\s*|:\s*)?(\d+)\b{_ALONE_AFTER}"],
        "k": [r"\b\d+\s*[×x]\s*\d+\s*[×x]\s*(\d+)\b", r"\btubes?\s+of\s+length\s+(\d+)\b",
              r"\btube\s+length\s*(?:k\s*)?(?:of\s+|=\s*|:\s*)?(\d+)\b"],
        # "a tensor of tubal rank 3" states the truth's rank (the factor's is ``rank``)
        # (a number in words is alone even before ", 80 Gaussian measurements")
        "true_rank": [r"\btubal[- ]rank[- ](\d+)\s+(?:tensor|target|ground[- ]truth)\b",  # "a tubal-rank-3 tensor of size ..."
                      rf"\b(?:true\s+|ground[- ]truth\s+)?tubal[- ]rank\s*(?:r\*?\s*)?(?:of\s+|=\s*|:\s*|is\s+)?"
                      rf"(\d+\b{_ALONE_AFTER}|(?:one|two|three|four|five)\b)",
                      rf"\btrue\s+rank\s*(?:r\*?\s*)?(?:of\s+|=\s*|:\s*)?(\d+)\b{_ALONE_AFTER}"],
        "rank": [rf"\bfactor\s+(?:rank|width)\s*(?:r\s*)?(?:of\s+|=\s*|:\s*)?(\d+)\b{_ALONE_AFTER}",
                 rf"\b{_ALONE_BEFORE}(\d+)\s+tubal\s+columns\b"],
        "n_seeds": [rf"\b{_COUNT}\s+(?:random\s+)?(?:problems|instances|trials|repetitions|draws)\s+"
                    r"(?:each|per\s+(?:setting|scale|value|α))\b"],
        "rank_sweep": [rf"\bfactor\s+ranks\s*(?:r\s*=\s*)?({_LIST})\b",
                       rf"\branks?\s+of\s+the\s+factor\s*(?:r\s*=\s*)?({_LIST})\b",
                       rf"\bfactor\s+widths\s*({_LIST})\b",
                       # "try the factor U with 5, 10 and 20 tubal columns"
                       rf"\bfactor\s+(?:U\s+)?with\s+({_LIST})\s+(?:tubal\s+)?columns\b",
                       # "rerun with U having 5, 15 and 30 tubal columns"
                       rf"\b(?:the\s+factor\s+)?U\s+(?:having|with|holding)\s+({_LIST})\s+(?:tubal\s+)?columns\b",
                       # "vary the factor's number of tubal columns over 2, 5 and 20"
                       rf"\b(?:vary|sweep|change)\w*\s+(?:the\s+)?(?:factor(?:'s|’s)?\s+)?(?:number\s+of\s+)?(?:tubal\s+)?columns\s+"
                       rf"(?:over|across|through|among|between)\s+({_LIST})\b"],
        "measurement_sweep": [rf"\b({_LIST})\s+(?:Gaussian\s+)?measurements\b",
                              rf"\bmeasurement\s+counts?\s*(?:m\s*)?(?:of\s+|=\s*|:\s*)?({_LIST})\b",
                              # "vary how many Gaussian measurements there are: 40, 60 and 90"
                              rf"\bhow\s+many\s+(?:Gaussian\s+)?measurements\s+(?:there\s+are\s*|are\s+taken\s*|we\s+take\s*|"
                              rf"to\s+take\s*)?[:,]?\s*({_LIST})\b",
                              # "vary the number of measurements: 40, 80 and 120"
                              rf"\b(?:vary|varying|sweep|sweeping|scan|scanning|change|changing)\s+the\s+number\s+of\s+"
                              rf"(?:Gaussian\s+)?measurements\s*(?:[:,]|\bover\b|\bacross\b|\bthrough\b)?\s*({_LIST})\b"],
        # "observed through 100 Gaussian linear measurements", "90 random linear measurements": one count
        "measurements": [rf"\b{_ALONE_BEFORE}(\d[\d,]*)\s+(?:(?:random|Gaussian|linear|noiseless|noisy)\s+){{1,3}}"
                         rf"measurements\b"],
        "iterations": [rf"\b{_ALONE_BEFORE}(\d[\d,]*)\s+gradient(?:[- ]descent)?\s+(?:steps|iterations)\b"],
        # "Count a singular tube as zero below half a per cent of the largest"
        "rank_tol": [r"\b(?:count|treat)\w*\s+(?:a\s+)?singular\s+(?:tubes?|values?)\s+as\s+zero\s+below\s+([\w.%\s-]{1,30}?)\s+of\s+"
                     r"the\s+largest\b"],
        "learning_rate": [rf"\bstep\s+size\s*(?:η\s*)?(?:of\s+|=\s*|:\s*)?({_NUM})\b{_ALONE_AFTER}"],
    },
)
