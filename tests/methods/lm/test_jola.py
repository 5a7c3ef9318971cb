"""lm.jola: HardConcrete gates, the planted-edit validation, data mode on local checkpoints, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch

from cmbagent.exceptions import DataError, UserError
from cmbagent.tools.methods import run_method
from cmbagent.tools.methods.lm import HardConcrete, JoLAEditor
from cmbagent.tools.methods.lm._lm import from_tiny, load_language_model
from cmbagent.tools.methods.lm._transformer import ByteTokenizer, TinyConfig, TinyLM, save_tiny_lm
from cmbagent.tools.methods.lm.jola import planted_teacher


def test_hard_concrete_gates() -> None:
    gates = HardConcrete(5, init_log_alpha=0.0)
    samples = torch.stack([gates() for _ in range(2000)])
    assert samples.min() == 0.0 and samples.max() == 1.0  # exact zeros and ones occur
    assert ((samples > 0) & (samples < 1)).any()
    gates.eval()
    assert torch.allclose(gates(), torch.full((5,), 0.5))  # sigmoid(0) stretched to (-0.1, 1.1) = 0.5
    closed, opened = HardConcrete(3, init_log_alpha=-10.0), HardConcrete(3, init_log_alpha=10.0)
    assert float(closed.l0().detach()) < 1e-3 and float(opened.l0().detach()) > 2.99


def test_editor_is_identity_until_trained() -> None:
    torch.manual_seed(0)
    model = from_tiny(TinyLM(TinyConfig(max_len=16))).freeze()
    ids = torch.randint(0, 256, (2, 10))
    before = model.logits(ids)
    editor = JoLAEditor(2, 4, 16).attach(model)
    assert torch.allclose(model.logits(ids), before)
    assert editor.n_trainable() == 2 * 2 * 4 * 16 + 2 * 2 * 4
    editor.detach()


@pytest.mark.slow
def test_planted_heads_found_and_kl_cut_tenfold(tmp_path: Path) -> None:
    torch.set_num_threads(1)
    result = run_method("lm.jola", {"planted_heads": [[0, 1], [1, 3]], "seed": 0, "output_dir": str(tmp_path)})
    v = result.values
    assert sorted(map(tuple, v["top_heads"])) == [(0, 1), (1, 3)]
    assert v["kl_jola"] * 10 <= v["kl_unedited"]
    assert v["trained_parameters"] * 100 < v["base_parameters"]
    assert result.ok and Path(result.artifacts[0]).is_file()



@pytest.mark.slow
def test_heads_are_ranked_by_unclipped_gates_and_a_missed_head_is_said(tmp_path: Path) -> None:
    # other planted heads than the example's; measured: at seed 6 four gates clip to 1.0 (unclipped 4.92 and 4.43
    # on the planted heads, 3.77 and 3.70 elsewhere), so ranking by clipped gates put (0, 0) first by index
    args = {"planted_heads": [[0, 2], [1, 0]], "output_dir": str(tmp_path)}
    result = run_method("lm.jola", {**args, "seed": 6})
    v = result.values
    clipped = np.maximum(np.array(v["gates_multiplicative"]), np.array(v["gates_additive"]))
    assert (clipped == 1.0).sum() >= 3  # more heads fully open than were planted
    assert sorted(map(tuple, v["top_heads"])) == [(0, 2), (1, 0)] and v["missed_planted_heads"] == []
    assert result.ok, result.checks
    assert not result.findings
    # at seed 15 the gate of (1, 0) closes (unclipped -6.3) while KL still falls 20x: the result says so
    missed = run_method("lm.jola", {**args, "seed": 15})
    assert missed.values["missed_planted_heads"] == [[1, 0]] and missed.values["kl_reduction"] >= 10
    assert "missed planted head(s) (1, 0)" in missed.summary
    (finding,) = missed.findings
    assert finding.severity == "warning" and finding.evidence["missed"] == [[1, 0]]
    assert not next(c for c in missed.checks if c.name == "strongest gates on the planted heads").passed


def _teacher_data(tmp_path: Path, n: int = 160) -> tuple[Path, Path]:
    """A tiny base checkpoint and labels chosen by an edited copy of it (so JoLA can reach the teacher)."""
    torch.manual_seed(3)
    base = TinyLM(TinyConfig(max_len=32))
    folder = save_tiny_lm(base, tmp_path / "base")
    lm = from_tiny(base).freeze()
    teacher = planted_teacher(lm, [(1, 2)], scale=3.0, seed=3).attach(lm)
    tok, rng = ByteTokenizer(), np.random.default_rng(0)
    rows = []
    with torch.no_grad():
        for _ in range(n):
            prompt = "".join(rng.choice(list("abcdefgh"), 8)) + "?"
            scores = []
            for label in ("yes", "no"):
                ids = torch.tensor([[tok.bos_id, *tok.encode(prompt), *tok.encode(label), tok.eos_id]])
                logp = torch.log_softmax(lm.logits(ids[:, :-1]), -1).gather(-1, ids[:, 1:, None])[0, :, 0]
                scores.append(float(logp[len(prompt):].sum()))
            rows.append({"prompt": prompt, "label": ("yes", "no")[int(np.argmax(scores))]})
    teacher.detach()
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return folder, data


def test_data_mode_moves_a_checkpoint_towards_its_labels(tmp_path: Path) -> None:
    torch.set_num_threads(1)
    folder, data = _teacher_data(tmp_path)
    result = run_method("lm.jola", {"data": str(data), "model": str(folder), "steps": 150, "learning_rate": 0.05,
                                    "l0_weight": 0.2, "seed": 0, "output_dir": str(tmp_path)})
    v = result.values
    assert v["nll_after"] < v["nll_before"]
    assert v["accuracy_after"] >= v["accuracy_before"]
    assert v["trained_parameters"] == 2 * 2 * 64 + 2 * 2 * 4


def test_hugging_face_checkpoint_folder_loads_and_edits(tmp_path: Path) -> None:
    transformers = pytest.importorskip("transformers")
    from tokenizers import Tokenizer, models, pre_tokenizers

    words = ["[UNK]", "[EOS]", "red", "blue", "green", "is", "the", "sky", "yes", "no"]
    raw = Tokenizer(models.WordLevel(vocab={w: i for i, w in enumerate(words)}, unk_token="[UNK]"))
    raw.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer = transformers.PreTrainedTokenizerFast(tokenizer_object=raw, unk_token="[UNK]", eos_token="[EOS]")
    config = transformers.GPT2Config(vocab_size=len(words), n_positions=32, n_embd=32, n_layer=2, n_head=2)
    folder = tmp_path / "hf"
    transformers.GPT2LMHeadModel(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    model = load_language_model(str(folder))
    assert (len(model.projections), model.n_heads, model.head_dim, model.max_len) == (2, 2, 16, 32)
    rows = [{"prompt": f"the sky is {c}", "label": "yes" if c == "blue" else "no"} for c in ("red", "blue", "green")]
    data = tmp_path / "d.csv"
    data.write_text("prompt,label\n" + "".join(f"{r['prompt']},{r['label']}\n" for r in rows * 4))
    result = run_method("lm.jola", {"data": str(data), "model": str(folder), "steps": 5, "output_dir": str(tmp_path)})
    assert result.values["trained_parameters"] == 2 * 2 * 32 + 2 * 2 * 2


def test_bad_inputs_name_the_argument(tmp_path: Path) -> None:
    folder, data = _teacher_data(tmp_path, n=12)
    with pytest.raises(UserError, match="model"):
        run_method("lm.jola", {"data": str(data), "output_dir": str(tmp_path)})
    with pytest.raises(UserError, match="model"):
        run_method("lm.jola", {"data": str(data), "model": str(tmp_path / "missing"), "output_dir": str(tmp_path)})
    long = tmp_path / "long.csv"
    long.write_text("prompt,label\n" + "".join(f"{'x' * 40},yes\n" for _ in range(10)))
    with pytest.raises(UserError, match="context"):
        run_method("lm.jola", {"data": str(long), "model": str(folder), "output_dir": str(tmp_path)})
    empty = tmp_path / "empty.csv"
    empty.write_text("prompt,label\n")
    with pytest.raises(DataError, match="data"):
        run_method("lm.jola", {"data": str(empty), "model": str(folder), "output_dir": str(tmp_path)})
    wrong = tmp_path / "wrong.csv"
    wrong.write_text("question,answer\n" + "q,a\n" * 10)
    with pytest.raises(DataError, match="prompt"):
        run_method("lm.jola", {"data": str(wrong), "model": str(folder), "output_dir": str(tmp_path)})
    with pytest.raises(UserError, match="planted_heads"):
        run_method("lm.jola", {"planted_heads": [[5, 0]], "steps": 1, "output_dir": str(tmp_path)})
