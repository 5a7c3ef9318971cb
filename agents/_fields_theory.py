"""The words of learning theory simulations: how its scientists ask for the methods of the ``theory`` family, and how
their prose states those methods' arguments (see :mod:`cmbagent.agents._fields` for the format)."""

from __future__ import annotations

from cmbagent.agents._fields import field_words, no_data

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
