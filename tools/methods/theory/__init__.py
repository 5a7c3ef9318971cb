"""Learning-theory simulation tools (registered on import; `cmbagent methods list` shows them).

* ``theory.tubal_tensor_gd`` — implicit regularisation of gradient descent on tubal tensor factorisations
  U*Uᵀ from small initialisation (Karnik et al., arXiv 2410.16247).
* ``theory.lif_snn_regions`` — exact input-space partitions of discrete-time LIF spiking networks against
  latency and depth (Nguyen et al., arXiv 2505.18023).

The Python API: the t-product algebra (``t_product``, ``t_transpose``, ``block_circulant``, ``tubal_rank``),
the ``TubalGD`` estimator for any tubal sensing problem, and ``LIFNetwork`` with the exact single-neuron
partition (``neuron_partition``) and region counts (``count_regions``).
"""

from __future__ import annotations

from cmbagent.tools.methods._registry import family
from cmbagent.tools.methods.theory._lif import LIFNetwork, neuron_partition, random_network
from cmbagent.tools.methods.theory._tensor import (
    block_circulant,
    singular_tubes,
    t_product,
    t_product_circulant,
    t_transpose,
    tubal_rank,
)
from cmbagent.tools.methods.theory.lif_snn_regions import count_regions, lif_snn_regions, single_neuron_trains
from cmbagent.tools.methods.theory.tubal_tensor_gd import TubalGD, make_problem, tubal_tensor_gd

FAMILY = family(
    "theory",
    title="Learning theory simulations",
    expert="ml_theorist",
    description="Simulations of learning-theory results: implicit regularisation of gradient descent and the "
    "expressivity of spiking networks.",
)

__all__ = [
    "FAMILY",
    "LIFNetwork",
    "TubalGD",
    "block_circulant",
    "count_regions",
    "lif_snn_regions",
    "make_problem",
    "neuron_partition",
    "random_network",
    "single_neuron_trains",
    "singular_tubes",
    "t_product",
    "t_product_circulant",
    "t_transpose",
    "tubal_rank",
    "tubal_tensor_gd",
]
