"""theory.lif_snn_regions: exact spike-train counts, exact partitions against brute force, depth only coarsens."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from scipy import ndimage

from cmbagent.exceptions import UserError
from cmbagent.tools.methods import run_method
from cmbagent.tools.methods.theory import LIFNetwork, count_regions, neuron_partition, random_network
from cmbagent.tools.methods.theory._lif import enumerate_cells, regions, row_ids


@pytest.mark.parametrize("latency", [1, 2, 3, 4])
def test_a_single_neuron_realises_t_t_plus_1_over_2_plus_1_trains(latency: int) -> None:
    breakpoints, trains = neuron_partition(latency, beta=0.9, threshold=1.0, reset="subtract")
    assert len(trains) == latency * (latency + 1) // 2 + 1
    assert len({tuple(t) for t in trains}) == len(trains)
    # the trains are those of a direct simulation on either side of every breakpoint
    neuron = LIFNetwork([np.ones((1, 1))], [np.zeros(1)], beta=0.9, threshold=1.0)
    probes = np.concatenate([[breakpoints[0] - 1], (breakpoints[:-1] + breakpoints[1:]) / 2, [breakpoints[-1] + 1]])
    assert np.array_equal(neuron.output(probes[:, None], latency), trains)
    dense = neuron.output(np.linspace(-1, 4, 200_001)[:, None], latency)
    assert len(np.unique(dense, axis=0)) == len(trains)


def test_reset_to_zero_and_no_leak_realise_fewer_trains() -> None:
    assert [len(neuron_partition(t, 0.9, 1.0, "zero")[1]) for t in (1, 2, 3, 4)] == [2, 3, 4, 5]
    assert len(neuron_partition(4, 1.0, 1.0, "subtract")[1]) < 11


def test_exact_cells_agree_with_brute_force_in_one_and_two_dimensions() -> None:
    net1 = random_network(1, [5], beta=0.9, threshold=1.0, reset="subtract", seed=3)
    for latency in (1, 3):
        cells = enumerate_cells(net1, latency, box=3.0)
        grid = np.linspace(-3, 3, 400_001)[:, None]
        assert len(cells) == len(row_ids(net1.output(grid, latency))[1])
    net2 = random_network(2, [6, 6], beta=0.9, threshold=1.0, reset="subtract", seed=0)
    g = np.linspace(-3, 3, 801)
    x = np.stack(np.meshgrid(g, g), axis=-1).reshape(-1, 2)
    for latency in (1, 3):
        cells = enumerate_cells(net2, latency, box=3.0)
        found = len(row_ids(net2.spikes(x, latency)[0].reshape(len(x), -1))[1])
        assert found <= len(cells)
        if latency == 1:
            assert found == len(cells)  # few, large cells: the grid sees them all


def test_connected_regions_match_image_components() -> None:
    net = random_network(2, [6, 6], beta=0.9, threshold=1.0, reset="subtract", seed=0)
    g = np.linspace(-3, 3, 1001)
    x = np.stack(np.meshgrid(g, g), axis=-1).reshape(-1, 2)
    for latency in (1, 2):
        _, connected, _ = regions(net, enumerate_cells(net, latency), latency)
        image = row_ids(net.output(x, latency))[0].reshape(len(g), len(g))
        four = sum(ndimage.label(image == v)[1] for v in np.unique(image))
        eight = sum(ndimage.label(image == v, structure=np.ones((3, 3)))[1] for v in np.unique(image))
        # pixels cut thin regions apart (4-connectivity) or join regions meeting at a vertex (8-connectivity)
        assert eight <= connected <= four
        if latency == 1:
            assert connected == eight  # wide regions: only slivers at the box edge split under 4-connectivity


def test_regions_grow_with_latency_and_a_second_layer_only_merges() -> None:
    net = random_network(2, [6, 6], beta=0.9, threshold=1.0, reset="subtract", seed=1)
    counts = {t: count_regions(net, t) for t in (1, 2, 3, 4)}
    first = [counts[t][1]["regions"] for t in (1, 2, 3, 4)]
    assert first == sorted(set(first))  # strictly increasing
    rng = np.random.default_rng(0)
    x = rng.uniform(-3, 3, size=(40_000, 2))
    for t in (2, 4):
        assert counts[t][2]["distinct_outputs"] <= counts[t][1]["regions"]
        layers = net.spikes(x, t)
        first_id = row_ids(layers[0].reshape(len(x), -1))[0]
        pairs = row_ids(np.stack([first_id, row_ids(layers[1].reshape(len(x), -1))[0]], axis=1))[0]
        assert pairs.max() == first_id.max()  # one second-layer output per first-layer pattern


def test_tool_reports_counts_checks_and_figure(tmp_path: Path) -> None:
    result = run_method("theory.lif_snn_regions", {"input_dim": 2, "width": 5, "depth": 2, "latencies": [1, 2, 3, 4],
                                                   "output_dir": str(tmp_path)})
    assert result.values["single_neuron_trains"] == {"1": 2, "2": 4, "3": 7, "4": 11}
    assert result.values["refinement_violations"] == 0
    regions_ = result.values["regions"]
    assert all(regions_[t]["2"]["distinct_outputs"] <= regions_[t]["1"]["regions"] for t in regions_)
    assert result.ok, result.checks
    assert Path(result.artifacts[0]).is_file()
    sampled = run_method("theory.lif_snn_regions", {"input_dim": 4, "width": 4, "depth": 1, "latencies": [2],
                                                    "samples": 5000, "output_dir": str(tmp_path)})
    assert sampled.values["exact"] is False and sampled.values["regions"]["2"]["1"]["regions"] > 1


@pytest.mark.parametrize(("arguments", "match"), [
    ({"latencies": [0, 2]}, "latencies"),
    ({"latencies": [-1]}, "latencies"),
    ({"beta": 1.5}, "beta"),
    ({"threshold": 0}, "threshold"),
    ({"width": 0}, "width"),
])
def test_bad_arguments_name_the_fix(arguments: dict, match: str) -> None:
    with pytest.raises(UserError, match=match):
        run_method("theory.lif_snn_regions", arguments)


def test_network_refuses_shapes_that_do_not_compose() -> None:
    with pytest.raises(UserError, match="layer 2"):
        LIFNetwork([np.ones((3, 2)), np.ones((2, 4))], [np.zeros(3), np.zeros(2)])
    with pytest.raises(UserError, match="bias"):
        LIFNetwork([np.ones((3, 2))], [np.zeros(2)])
    with pytest.raises(UserError, match="latency"):
        neuron_partition(0, 0.9)
    with pytest.raises(UserError, match="features"):
        LIFNetwork([np.ones((3, 2))], [np.zeros(3)]).output(np.zeros((4, 3)), 2)
