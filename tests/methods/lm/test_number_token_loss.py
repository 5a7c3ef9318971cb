"""lm.number_token_loss: the unit values of METHODS.md, equality with the `ntloss` package, the training claim."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from cmbagent.exceptions import DataError, UserError
from cmbagent.tools.methods import run_method
from cmbagent.tools.methods.lm import NumberTokenLoss, number_values_from_vocab

TOKENS = [str(d) for d in range(10)] + ["+", "=", " ", "a", "b"]


def _peaked(*tokens: int, gap: float = 50.0) -> torch.Tensor:
    logits = torch.full((1, 1, len(TOKENS)), -gap, dtype=torch.float64)
    for token in tokens:
        logits[0, 0, token] = 0.0
    return logits


def test_unit_values_from_the_paper() -> None:
    values = number_values_from_vocab(TOKENS)
    was, mse = NumberTokenLoss(values, kind="was"), NumberTokenLoss(values, kind="mse")
    label = torch.tensor([[4]])
    assert float(was(_peaked(3), label)) == 1.0
    assert float(was(_peaked(9), label)) == 5.0
    ce = torch.nn.functional.cross_entropy
    assert float(ce(_peaked(3)[0], label[0])) == float(ce(_peaked(9)[0], label[0]))
    split = _peaked(3, 5)
    assert float(mse(split, label)) == 0.0
    assert float(was(split, label)) == 1.0


def test_positions_without_number_labels_are_ignored() -> None:
    values = number_values_from_vocab(TOKENS)
    logits = torch.randn(2, 3, len(TOKENS))
    labels = torch.tensor([[12, -100, 4], [13, 14, 10]])  # only one digit label
    loss = NumberTokenLoss(values)(logits, labels)
    single = NumberTokenLoss(values)(logits[:1, 2:], labels[:1, 2:])
    assert torch.allclose(loss, single)
    assert float(NumberTokenLoss(values)(logits, torch.full((2, 3), 12))) == 0.0


def _hf_tokenizer():  # type: ignore[no-untyped-def]
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    vocab = {"[UNK]": 0, "+": 1, "=": 2, "a": 3, "b": 4, **{str(d): 5 + d for d in range(10)}, "12": 15}
    raw = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    raw.pre_tokenizer = pre_tokenizers.Whitespace()
    return PreTrainedTokenizerFast(tokenizer_object=raw, unk_token="[UNK]")


@pytest.mark.parametrize("kind", ["was", "mse"])
@pytest.mark.parametrize("reweigh", [False, True])
def test_equal_to_the_ntloss_package(kind: str, reweigh: bool) -> None:
    ntloss = pytest.importorskip("ntloss", reason="the reference package ntloss is a dev dependency")
    tokenizer = _hf_tokenizer()
    reference = (ntloss.NTLoss(tokenizer, reweigh=reweigh) if kind == "was"
                 else ntloss.NTLossDotProduct(tokenizer, reweigh=reweigh))
    ours = NumberTokenLoss(number_values_from_vocab(tokenizer.get_vocab(), vocab_size=len(tokenizer)), kind=kind,
                           reweigh=reweigh)
    gen = torch.Generator().manual_seed(0)
    for trial in range(5):
        logits = 3 * torch.randn(4, 7, len(tokenizer), generator=gen, dtype=torch.float64)
        labels = torch.randint(0, len(tokenizer), (4, 7), generator=gen)
        labels[0, 0] = -100
        weights = torch.rand(4, 7, generator=gen, dtype=torch.float64) if trial % 2 else None
        expected = reference(logits, labels, loss_weights=weights)
        got = ours(logits, labels, loss_weights=weights)
        assert abs(float(got) - float(expected)) < 1e-6
        per_token = NumberTokenLoss(ours.values, kind=kind, reweigh=reweigh, reduction="none")(logits, labels)
        assert torch.allclose(per_token, reference(logits, labels, reduction="none"), atol=1e-6)


def test_gradients_flow_in_a_training_loop() -> None:
    values = number_values_from_vocab(TOKENS)
    logits = torch.zeros(1, 1, len(TOKENS), requires_grad=True)
    loss = NumberTokenLoss(values, kind="mse")(logits, torch.tensor([[7]]))
    loss.backward()
    assert logits.grad is not None and float(logits.grad[0, 0, 7]) < 0  # raising p(7) lowers the loss


def test_bad_inputs_name_the_argument(tmp_path: Path) -> None:
    values = number_values_from_vocab(TOKENS)
    with pytest.raises(UserError, match="labels"):
        NumberTokenLoss(values)(torch.zeros(2, 3, len(TOKENS)), torch.zeros(2, 4, dtype=torch.long))
    with pytest.raises(UserError, match="logits"):
        NumberTokenLoss(values)(torch.zeros(2, 3, 5), torch.zeros(2, 3, dtype=torch.long))
    with pytest.raises(UserError, match="vocab"):
        number_values_from_vocab(["a", "b"])
    with pytest.raises(UserError, match="kind"):
        NumberTokenLoss(values, kind="l1")  # type: ignore[arg-type]
    bad = tmp_path / "qa.csv"
    bad.write_text("prompt,answer\n" + "".join(f"{i}+1=,{i + 1}\n" for i in range(30)) + "2+2=,four\n")
    with pytest.raises(DataError, match="answer_column"):
        run_method("lm.number_token_loss", {"data": str(bad), "output_dir": str(tmp_path)})
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    with pytest.raises(DataError, match="data"):
        run_method("lm.number_token_loss", {"data": str(empty), "output_dir": str(tmp_path)})


@pytest.mark.slow
def test_ce_plus_ntl_lowers_numeric_error_over_three_seeds(tmp_path: Path) -> None:
    torch.set_num_threads(1)
    result = run_method("lm.number_token_loss", {"seeds": [0, 1, 2], "output_dir": str(tmp_path)})
    assert result.values["seeds_where_ntl_better"] == 3, result.values["per_seed"]
    assert result.values["mae_ce_ntl"]["mean"] < result.values["mae_ce"]["mean"]
    assert result.ok, result.checks
