"""Number Token Loss (Zausinger et al., arXiv 2411.02083) as a torch loss, and a tool that measures its effect.

Cross entropy treats the digit tokens as unordered classes: for a label 4, predicting 3 costs the same as
predicting 9.  NTL adds a regression-like term on the number tokens:

* NTL-MSE: (Σ_j p_j v_j − y)², the squared error of the expected numeric value under the softmax restricted
  to the number tokens (values v_j);
* NTL-WAS: Σ_j p_j |v_j − y|, the Wasserstein-1 distance between that distribution over sorted values and
  the one-hot label (the paper's default).

With ``reweigh`` the term is scaled by the probability mass on number tokens m and padded with
1.01·max_dist·(1 − m), as the reference package ``ntloss`` does, so mass on text tokens is never cheaper
than the worst number.  The training loss is CE + λ·NTL.  ``NumberTokenLoss`` is usable in any training
loop; the tool trains a small transformer on arithmetic (or a user's numeric QA file) with CE alone and with
CE + λ·NTL and reports the numeric error of both.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np
import torch
from torch import nn

from cmbagent.exceptions import DataError, UserError
from cmbagent.paths import InputFile, OutputDir
from cmbagent.tools.methods import Check, MethodResult, Paper, method
from cmbagent.tools.methods._kit import check_positive, check_range, output_path, set_threads
from cmbagent.tools.methods.lm._io import load_records
from cmbagent.tools.methods.lm._lm import pad_batch
from cmbagent.tools.methods.lm._transformer import ByteTokenizer, TinyConfig, TinyLM

__all__ = ["NumberTokenLoss", "number_token_loss", "number_values_from_vocab"]

PAPER = Paper(
    title="Regress, Don't Guess: A Regression-like Loss on Number Tokens for Language Models",
    arxiv="2411.02083",
    authors="Jonas Zausinger, Lars Pennig, Anamarija Kozina, Sdiq Sdiq, Julian Sehrt, Jannis Born, et al.",
    year=2025,
    code="tum-ai/number-token-loss",
)

_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)$")


def number_values_from_vocab(vocab: Mapping[str, int] | Sequence[str], *, digit_level: bool = True,
                             vocab_size: int | None = None) -> torch.Tensor:
    """Numeric value of every token id (NaN for tokens that are not numbers).

    Args:
        vocab: token → id mapping (a Hugging Face ``get_vocab()``) or the list of token strings by id.
        digit_level: Count only the single ASCII digits 0–9 as number tokens (the paper's default; a token
            such as "123" or " 2" is then text).
        vocab_size: Length of the returned vector (the model's logit width) when it exceeds the vocabulary.
    """
    items = vocab.items() if isinstance(vocab, Mapping) else ((tok, i) for i, tok in enumerate(vocab))
    pairs = list(items)
    size = vocab_size if vocab_size is not None else max(i for _, i in pairs) + 1
    values = torch.full((size,), float("nan"))
    for token, index in pairs:
        if index >= size:
            raise UserError(f"vocab_size: token {token!r} has id {index} >= vocab_size {size}")
        if digit_level:
            if len(token) == 1 and token.isascii() and token.isdigit():
                values[index] = float(token)
        elif _NUMBER.match(token.strip()) and token == token.strip():
            values[index] = float(token)
    if torch.isnan(values).all():
        raise UserError("vocab: no number tokens found; NTL needs the digits 0-9 in the vocabulary")
    if not torch.isnan(values).any():
        raise UserError("vocab: every token is a number; NTL needs at least one non-number token")
    return values


class NumberTokenLoss(nn.Module):
    """NTL-WAS or NTL-MSE on the positions whose label is a number token.

    Args:
        number_values: (V,) numeric value per token id, NaN for non-number tokens
            (see :func:`number_values_from_vocab`).
        kind: ``"was"`` (Wasserstein, the paper's default) or ``"mse"``.
        reweigh: Scale by the mass on number tokens and add 1.01·max_dist·(1 − mass) (``ntloss``'s default).
        ignore_index: Label id that is skipped (as in ``cross_entropy``).
        reduction: ``"mean"`` over number positions (weighted), ``"sum"`` or ``"none"`` (same shape as labels).

    ``forward(logits, labels, loss_weights=None)`` takes logits (..., V) and labels (...) of matching leading
    shape; positions without a number label contribute nothing, and a batch with none gives 0.
    """

    values: torch.Tensor
    number_ids: torch.Tensor
    dense_values: torch.Tensor

    def __init__(self, number_values: torch.Tensor, *, kind: Literal["was", "mse"] = "was", reweigh: bool = False,
                 ignore_index: int = -100, reduction: Literal["mean", "sum", "none"] = "mean"):
        super().__init__()
        values = torch.as_tensor(number_values, dtype=torch.float32)
        if values.ndim != 1:
            raise UserError(f"number_values: must be a vector over the vocabulary, got shape {tuple(values.shape)}")
        if kind not in ("was", "mse"):
            raise UserError(f"kind: must be 'was' or 'mse', got {kind!r}")
        if reduction not in ("mean", "sum", "none"):
            raise UserError(f"reduction: must be 'mean', 'sum' or 'none', got {reduction!r}")
        is_number = ~torch.isnan(values)
        if not is_number.any():
            raise UserError("number_values: no token has a numeric value")
        self.kind, self.reweigh, self.ignore_index, self.reduction = kind, reweigh, ignore_index, reduction
        self.register_buffer("values", values)
        self.register_buffer("number_ids", torch.nonzero(is_number)[:, 0])
        dense = values[is_number]
        self.register_buffer("dense_values", dense)
        spread = float(dense.max() - dense.min())
        self.max_dist = spread if kind == "was" else spread**2

    def forward(self, logits: torch.Tensor, labels: torch.Tensor, loss_weights: torch.Tensor | None = None
                ) -> torch.Tensor:
        if logits.shape[:-1] != labels.shape:
            raise UserError(
                f"labels: shape {tuple(labels.shape)} does not match the logits' leading shape "
                f"{tuple(logits.shape[:-1])}"
            )
        if logits.shape[-1] != self.values.shape[0]:
            raise UserError(
                f"logits: last dimension {logits.shape[-1]} differs from the vocabulary size "
                f"{self.values.shape[0]} of number_values"
            )
        if labels.dtype not in (torch.int64, torch.int32):
            raise UserError(f"labels: must be integer token ids, got {labels.dtype}")
        safe = labels.masked_fill(labels == self.ignore_index, 0).long()
        y = self.values[safe].masked_fill(labels == self.ignore_index, float("nan"))
        positions = ~torch.isnan(y)
        weights = torch.ones_like(y) if loss_weights is None else loss_weights.to(y.dtype)
        if loss_weights is not None and loss_weights.shape != labels.shape:
            raise UserError("loss_weights: must have the labels' shape")
        per_token = torch.zeros(labels.shape, dtype=logits.dtype, device=logits.device)
        if positions.any():
            selected = logits[positions]
            probs = torch.softmax(selected[:, self.number_ids], dim=-1)
            target = y[positions].to(logits.dtype)
            values = self.dense_values.to(logits.dtype)
            if self.kind == "was":
                loss = (probs * (values[None, :] - target[:, None]).abs()).sum(-1)
            else:
                loss = ((probs * values).sum(-1) - target) ** 2
            if self.reweigh:
                mass = torch.softmax(selected, dim=-1)[:, self.number_ids].sum(-1)
                loss = loss * mass + 1.01 * self.max_dist * (1 - mass)
            per_token = per_token.masked_scatter(positions, loss)
        if self.reduction == "none":
            return per_token * weights.masked_fill(~positions, 0)
        w = weights[positions].to(logits.dtype)
        total = (per_token[positions] * w).sum()
        if self.reduction == "sum":
            return total
        return total / w.sum().clamp_min(torch.finfo(logits.dtype).eps) if positions.any() else total

    def expected_value(self, logits: torch.Tensor) -> torch.Tensor:
        """Σ_j p_j v_j per position, the numeric prediction NTL-MSE regresses."""
        return (torch.softmax(logits[..., self.number_ids], -1) * self.dense_values.to(logits.dtype)).sum(-1)


# -- the tool: CE vs CE + λ·NTL on a numeric task --------------------------------------------------------------


def _format(value: float, width: int, decimals: int) -> str:
    text = f"{value:.{decimals}f}" if decimals else str(round(value))
    return text.rjust(width, "0")


def _arithmetic(n: int, max_operand: int, operation: str, rng: np.random.Generator) -> tuple[list[str], list[float]]:
    a = rng.integers(0, max_operand + 1, n)
    b = rng.integers(0, max_operand + 1, n)
    symbol = {"add": "+", "multiply": "*"}[operation]
    answers = a + b if operation == "add" else a * b
    return [f"{x}{symbol}{y}=" for x, y in zip(a, b, strict=True)], answers.astype(float).tolist()


def _read_numeric(data: str, prompt_column: str, answer_column: str) -> tuple[list[str], list[float]]:
    records = load_records(data, argument="data", required=(prompt_column, answer_column))
    prompts, answers = [], []
    for row, record in enumerate(records, 1):
        raw = str(record[answer_column]).strip()
        try:
            value = float(raw)
        except ValueError:
            raise DataError(
                f"answer_column: row {row} has {raw!r} in column {answer_column!r}, which is not a number; "
                "NTL needs numeric labels"
            ) from None
        if not np.isfinite(value) or value < 0:
            raise DataError(f"answer_column: row {row} has {raw!r}; labels must be finite and non-negative")
        prompts.append(str(record[prompt_column]))
        answers.append(value)
    return prompts, answers


def _decimals(answers: list[float]) -> int:
    return 0 if all(float(a).is_integer() for a in answers) else 2


def _train_and_score(prompts: list[str], answers: list[float], train: np.ndarray, test: np.ndarray, *,
                     width: int, decimals: int, ntl_weight: float, kind: str, steps: int, lr: float, batch: int,
                     d_model: int, n_layers: int, seed: int) -> dict[str, float]:
    tok = ByteTokenizer()
    texts = [_format(a, width, decimals) for a in answers]
    enc = [[tok.bos_id, *tok.encode(p)] for p in prompts]
    max_len = max(len(e) for e in enc) + width + 1
    torch.manual_seed(seed)
    model = TinyLM(TinyConfig(d_model=d_model, n_heads=4, n_layers=n_layers, max_len=max_len))
    ntl = NumberTokenLoss(number_values_from_vocab(tok.token_strings()), kind=kind)  # type: ignore[arg-type]
    seqs = [enc[i] + tok.encode(texts[i]) for i in range(len(enc))]
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.1)
    gen = np.random.default_rng(seed)
    model.train()
    for _ in range(steps):
        idx = gen.choice(train, size=min(batch, len(train)), replace=False)
        ids, mask = pad_batch([seqs[i] for i in idx], tok.pad_id)
        labels = ids[:, 1:].clone()
        answer_mask = torch.zeros_like(mask[:, 1:])
        for row, i in enumerate(idx):
            answer_mask[row, len(enc[i]) - 1 : len(enc[i]) - 1 + width] = True
        labels[~answer_mask] = -100
        logits = model(ids[:, :-1])
        loss = nn.functional.cross_entropy(logits.transpose(1, 2), labels, ignore_index=-100)
        if ntl_weight > 0:
            loss = loss + ntl_weight * ntl(logits, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
    model.eval()
    digits = torch.tensor(list(b"0123456789"))
    predictions: list[float] = []
    with torch.no_grad():
        for start in range(0, len(test), 256):
            idx = test[start : start + 256]
            prefix = [enc[i] for i in idx]
            out = ["" for _ in idx]
            for position in range(width):
                ids, _ = pad_batch(prefix, tok.pad_id)
                logits = model(ids)
                last = logits[torch.arange(len(idx)), torch.tensor([len(p) - 1 for p in prefix])]
                is_point = decimals and position == width - decimals - 1
                choice = [ord(".")] * len(idx) if is_point else digits[last[:, digits].argmax(-1)].tolist()
                for row, token in enumerate(choice):
                    out[row] += chr(token)
                    prefix[row] = [*prefix[row], token]
            predictions.extend(float(text) for text in out)
    truth = np.array([answers[i] for i in test])
    pred = np.array(predictions)
    return {"mae": float(np.abs(pred - truth).mean()), "exact": float(np.mean(np.isclose(pred, truth))),
            "predictions": pred.tolist()}


@method(
    "lm.number_token_loss",
    paper=PAPER,
    keywords=["number token loss", "NTL", "Wasserstein", "numeric reasoning", "arithmetic", "digits",
              "regression loss", "language model", "cross entropy", "math"],
    example="number_token_loss(operation='add', max_operand=99, ntl_weight=0.5, seeds=[0, 1, 2])",
)
def number_token_loss(
    data: InputFile | None = None,
    prompt_column: str = "prompt",
    answer_column: str = "answer",
    operation: Literal["add", "multiply"] = "add",
    max_operand: int = 99,
    n_examples: int = 1000,
    test_fraction: float = 0.3,
    kind: Literal["was", "mse"] = "was",
    ntl_weight: float = 0.5,
    seeds: list[int] | None = None,
    steps: int = 150,
    batch_size: int = 64,
    learning_rate: float = 3e-3,
    d_model: int = 32,
    n_layers: int = 2,
    output_dir: OutputDir = "figures",
) -> MethodResult:
    """Train a small transformer on a numeric task with CE and with CE + λ·NTL and compare the numeric error.

    The task is generated arithmetic ("17*23=" → "391", answers zero-padded to a fixed width) or a user's
    CSV/JSONL of prompts with non-negative numeric answers. Each seed makes two runs, one model per loss, on the same
    split; the error is the mean absolute difference between the greedy digit-by-digit answer and the truth.
    The loss itself is importable: ``from cmbagent.tools.methods.lm import NumberTokenLoss``.

    Args:
        data: Optional CSV/JSONL with a prompt column and a numeric answer column.
        prompt_column: Prompt column of data.
        answer_column: Numeric answer column of data.
        operation: Generated task when no data: "add" or "multiply".
        max_operand: Largest operand of the generated task.
        n_examples: Number of generated examples.
        test_fraction: Share held out for the numeric error.
        kind: NTL variant, "was" (Wasserstein, the paper's default) or "mse".
        ntl_weight: λ in CE + λ·NTL.
        seeds: Training seeds (default [0, 1, 2]); each trains both models.
        steps: Optimisation steps per model.
        batch_size: Sequences per step.
        learning_rate: Peak AdamW learning rate (one-cycle schedule).
        d_model: Width of the transformer.
        n_layers: Layers of the transformer.
        output_dir: Folder for the figure.
    """
    set_threads()
    seeds = [0, 1, 2] if seeds is None else list(seeds)
    if not seeds:
        raise UserError("seeds: give at least one seed")
    check_positive(steps, argument="steps", integer=True)
    check_positive(batch_size, argument="batch_size", integer=True)
    check_range(ntl_weight, 0.0, 100.0, argument="ntl_weight")
    check_range(test_fraction, 0.05, 0.9, argument="test_fraction")
    if kind not in ("was", "mse"):
        raise UserError(f"kind: must be 'was' or 'mse', got {kind!r}")
    if data is not None:
        prompts, answers = _read_numeric(data, prompt_column, answer_column)
        source = f"{len(prompts)} rows of {data}"
    else:
        if operation not in ("add", "multiply"):
            raise UserError(f"operation: must be 'add' or 'multiply', got {operation!r}")
        check_positive(max_operand, argument="max_operand", integer=True)
        check_positive(n_examples, argument="n_examples", integer=True)
        prompts, answers = _arithmetic(n_examples, max_operand, operation, np.random.default_rng(12345))
        source = f"{n_examples} generated '{operation}' problems with operands 0–{max_operand}"
    if len(prompts) < 20:
        raise DataError(f"data: {len(prompts)} examples; need at least 20 to train and test")
    decimals = _decimals(answers)
    width = max(len(_format(a, 0, decimals)) for a in answers)
    rng = np.random.default_rng(2024)
    order = rng.permutation(len(prompts))
    n_test = max(5, round(test_fraction * len(prompts)))
    test, train = order[:n_test], order[n_test:]
    rows = []
    start = time.perf_counter()
    common = {"width": width, "decimals": decimals, "kind": kind, "steps": steps, "lr": learning_rate,
              "batch": batch_size, "d_model": d_model, "n_layers": n_layers}
    for seed in seeds:
        ce = _train_and_score(prompts, answers, train, test, ntl_weight=0.0, seed=seed, **common)  # type: ignore[arg-type]
        both = _train_and_score(prompts, answers, train, test, ntl_weight=ntl_weight, seed=seed, **common)  # type: ignore[arg-type]
        rows.append({"seed": seed, "mae_ce": ce["mae"], "mae_ntl": both["mae"], "exact_ce": ce["exact"],
                     "exact_ntl": both["exact"]})
    seconds = time.perf_counter() - start
    mae_ce = np.array([r["mae_ce"] for r in rows])
    mae_ntl = np.array([r["mae_ntl"] for r in rows])
    wins = int((mae_ntl < mae_ce).sum())
    values: dict[str, Any] = {
        "mae_ce": {"mean": float(mae_ce.mean()), "std": float(mae_ce.std(ddof=1)) if len(rows) > 1 else None},
        "mae_ce_ntl": {"mean": float(mae_ntl.mean()), "std": float(mae_ntl.std(ddof=1)) if len(rows) > 1 else None},
        "exact_ce": float(np.mean([r["exact_ce"] for r in rows])),
        "exact_ce_ntl": float(np.mean([r["exact_ntl"] for r in rows])),
        "seeds_where_ntl_better": wins,
        "per_seed": rows,
    }
    checks = [
        Check(name="NTL lowers the mean numeric error", passed=bool(mae_ntl.mean() < mae_ce.mean()),
              message=f"MAE {mae_ce.mean():.3f} (CE) vs {mae_ntl.mean():.3f} (CE + {ntl_weight:g}·NTL-{kind.upper()})"),
        Check(name="models learned the task", passed=bool(min(mae_ce.mean(), mae_ntl.mean()) < np.std(answers)),
              message=f"best MAE {min(mae_ce.mean(), mae_ntl.mean()):.3f} vs answer s.d. {np.std(answers):.3f}"),
    ]
    figure = output_path(output_dir, "number_token_loss.png")
    _plot(str(figure), rows, kind, ntl_weight)
    summary = (
        f"On {source} ({len(test)} held out), a {n_layers}-layer transformer trained with cross entropy has "
        f"numeric MAE {mae_ce.mean():.3f}; with CE + {ntl_weight:g}·NTL-{kind.upper()} it has {mae_ntl.mean():.3f} "
        f"(lower on {wins} of {len(rows)} seeds; exact match {values['exact_ce']:.3f} vs {values['exact_ce_ntl']:.3f})."
    )
    return MethodResult(summary=summary, values=values, checks=checks, artifacts=[str(figure)],
                        diagnostics={"answer_width": width, "decimals": decimals, "n_train": len(train),
                                     "n_test": len(test), "seconds": seconds, "seeds": seeds})


def _plot(path: str, rows: list[dict[str, Any]], kind: str, weight: float) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 4))
    x = np.arange(len(rows))
    ax.bar(x - 0.2, [r["mae_ce"] for r in rows], 0.4, label="CE")
    ax.bar(x + 0.2, [r["mae_ntl"] for r in rows], 0.4, label=f"CE + {weight:g}·NTL-{kind.upper()}")
    ax.set_xticks(x, [f"seed {r['seed']}" for r in rows])
    ax.set_ylabel("numeric MAE on held-out problems")
    ax.set_title("Number Token Loss vs cross entropy")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
