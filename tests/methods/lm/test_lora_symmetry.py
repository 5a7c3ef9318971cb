"""lm.lora_symmetry: invariant features predict invariant targets only; adapters read from files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from cmbagent.exceptions import DataError, UserError
from cmbagent.tools.methods import run_method
from cmbagent.tools.methods.lm.lora_symmetry import (
    generate_adapters,
    invariance_error,
    invariant_features,
    poly2_size,
    raw_features,
)


def test_invariant_features_do_not_move_along_the_orbit() -> None:
    (b, a), = generate_adapters(1, 8, 6, 3, orbit_scale=0.5, seed=0)
    g = np.random.default_rng(1).normal(size=(3, 3)) + 3 * np.eye(3)
    assert np.allclose(invariant_features(b @ g, np.linalg.solve(g, a)), invariant_features(b, a), atol=1e-10)
    assert np.allclose(b @ a, (b @ g) @ np.linalg.solve(g, a))



def test_invariance_is_tested_with_general_invertible_maps() -> None:
    pairs = generate_adapters(6, 9, 7, 3, orbit_scale=1.0, seed=2)
    true = invariance_error(invariant_features, pairs, seed=4)
    assert true["relative_change"] <= 1e-8 and true["conditions"][-1] == 1e4
    # ‖B‖·‖A‖ is no function of BA, yet a scaled rotation G = c·Q leaves it unchanged (the old test's blind spot)
    norms = lambda b, a: [np.linalg.norm(b) * np.linalg.norm(a)]  # noqa: E731
    assert invariance_error(norms, pairs, seed=4, conditions=(1.0,))["relative_change"] < 1e-10
    assert invariance_error(norms, pairs, seed=4)["relative_change"] > 0.1
    assert invariance_error(raw_features, pairs, seed=4)["relative_change"] > 0.1


@pytest.mark.slow
def test_the_raw_weights_are_judged_only_with_enough_training_rows(tmp_path: Path) -> None:
    # adapters unlike the example's (14×3 and 3×13: 81 raw numbers, 3403 degree-2 features)
    args = {"d": 14, "k": 13, "rank": 3, "seed": 5, "output_dir": str(tmp_path)}
    few = run_method("lm.lora_symmetry", {**args, "n_adapters": 600})
    sample = few.values["sample"]
    assert sample["raw_degree2_features"] == poly2_size(81) == 3403 and sample["training_rows"] == 450
    assert not sample["raw_judged"] and few.values["r2"]["norm_difference"]["raw_r2"] < 0.9  # measured 0.81
    assert "non-invariant target predicted from raw weights" not in {c.name for c in few.checks}
    (note,) = few.findings
    assert "not judged" in note.message and str(sample["adapters_needed"]) in note.message
    assert few.ok, few.checks  # the symmetry's own checks hold; the sample's shortfall is stated, not failed
    sized = run_method("lm.lora_symmetry", args)  # the tool sizes the population for the raw regression
    assert sized.values["sample"]["raw_judged"] and sized.diagnostics["n_adapters"] == sample["adapters_needed"]
    assert sized.values["r2"]["norm_difference"]["raw_r2"] >= 0.9 and not sized.findings
    assert sized.ok, sized.checks


def test_invariant_features_predict_invariant_targets_only(tmp_path: Path) -> None:
    result = run_method("lm.lora_symmetry", {"n_adapters": 800, "d": 8, "k": 8, "rank": 2, "seed": 0,
                                             "output_dir": str(tmp_path)})
    r2 = result.values["r2"]
    assert r2["norm_ba"]["invariant_r2"] >= 0.99
    assert r2["norm_difference"]["invariant_r2"] <= 0.1
    assert r2["norm_difference"]["raw_r2"] >= 0.9
    assert result.ok, result.checks


def _write_population(folder: Path, n: int) -> None:
    from safetensors.numpy import save_file

    folder.mkdir()
    for i, (b, a) in enumerate(generate_adapters(n, 6, 6, 2, orbit_scale=0.5, seed=3)):
        tensors = {"base_model.model.layers.0.q_proj.lora_A.weight": a.astype(np.float32),
                   "base_model.model.layers.0.q_proj.lora_B.weight": b.astype(np.float32)}
        if i % 2:
            save_file(tensors, str(folder / f"a{i:03d}.safetensors"))
        else:
            torch.save({k: torch.from_numpy(v) for k, v in tensors.items()}, folder / f"a{i:03d}.pt")


def test_reads_adapter_files_and_user_targets(tmp_path: Path) -> None:
    folder = tmp_path / "adapters"
    _write_population(folder, 120)
    targets = tmp_path / "targets.csv"
    stems = sorted(p.stem for p in folder.iterdir())
    targets.write_text("adapter,score\n" + "".join(f"{s},{i % 7}\n" for i, s in enumerate(stems)))
    result = run_method("lm.lora_symmetry", {"adapters": str(folder), "targets": str(targets),
                                             "output_dir": str(tmp_path)})
    assert set(result.values["r2"]) == {"norm_ba", "norm_difference", "score"}
    assert result.values["r2"]["norm_ba"]["invariant_r2"] > 0.99
    bad = tmp_path / "bad.csv"
    bad.write_text("adapter,score\n" + "".join(f"{s},high\n" for s in stems))
    with pytest.raises(DataError, match="targets"):
        run_method("lm.lora_symmetry", {"adapters": str(folder), "targets": str(bad), "output_dir": str(tmp_path)})


def test_bad_inputs_name_the_argument(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="rank"):
        run_method("lm.lora_symmetry", {"d": 4, "k": 4, "rank": 5})
    with pytest.raises(UserError, match="adapters"):
        run_method("lm.lora_symmetry", {"adapters": str(tmp_path / "none")})
    few = tmp_path / "few"
    _write_population(few, 3)
    with pytest.raises(DataError, match="adapters"):
        run_method("lm.lora_symmetry", {"adapters": str(few)})
