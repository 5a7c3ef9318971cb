"""A small GPT-style causal transformer and a byte-level tokenizer, built here so nothing downloads weights.

Every attention layer keeps its output projection as a separate ``o_proj`` module whose input is the
concatenation of the per-head outputs, which is where JoLA edits (z before the output projection); the
same hook point exists in Hugging Face models (``o_proj`` in Llama-style, ``c_proj`` in GPT-2), so the
editing code works on both.  Checkpoints are a folder with ``config.json`` and ``model.safetensors``.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, cast

import torch
from torch import nn

from cmbagent.exceptions import DataError, UserError

__all__ = [
    "ByteTokenizer",
    "TinyConfig",
    "TinyLM",
    "load_tiny_lm",
    "save_tiny_lm",
]

CHECKPOINT_KIND = "cmbagent-tiny-lm"


class ByteTokenizer:
    """UTF-8 bytes as tokens (ids 0–255) plus BOS, EOS and PAD: any text encodes, no vocabulary file needed."""

    bos_id = 256
    eos_id = 257
    pad_id = 258
    vocab_size = 259

    def encode(self, text: str, *, bos: bool = False, eos: bool = False) -> list[int]:
        ids = list(text.encode("utf-8"))
        return ([self.bos_id] if bos else []) + ids + ([self.eos_id] if eos else [])

    def decode(self, ids: list[int]) -> str:
        return bytes(i for i in ids if 0 <= i < 256).decode("utf-8", errors="replace")

    def token_strings(self) -> list[str]:
        """The string of each id (single characters for ASCII bytes), used to find number tokens."""
        names = [bytes([i]).decode("latin-1") for i in range(256)]
        return [*names, "<bos>", "<eos>", "<pad>"]


@dataclass(frozen=True)
class TinyConfig:
    vocab_size: int = ByteTokenizer.vocab_size
    d_model: int = 64
    n_heads: int = 4
    n_layers: int = 2
    max_len: int = 64
    d_ff: int = 0  # 0: 4 * d_model

    def __post_init__(self) -> None:
        if self.d_model % self.n_heads:
            raise UserError(f"d_model ({self.d_model}) must be a multiple of n_heads ({self.n_heads})")


class _Attention(nn.Module):
    def __init__(self, cfg: TinyConfig):
        super().__init__()
        self.n_heads = cfg.n_heads
        self.head_dim = cfg.d_model // cfg.n_heads
        self.qkv = nn.Linear(cfg.d_model, 3 * cfg.d_model)
        self.o_proj = nn.Linear(cfg.d_model, cfg.d_model)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, d = x.shape
        q, k, v = self.qkv(x).split(d, dim=-1)
        shape = (b, t, self.n_heads, self.head_dim)
        q, k, v = (u.view(shape).transpose(1, 2) for u in (q, k, v))
        z = nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.o_proj(z.transpose(1, 2).reshape(b, t, d))


class _Block(nn.Module):
    def __init__(self, cfg: TinyConfig):
        super().__init__()
        hidden = cfg.d_ff or 4 * cfg.d_model
        self.ln1 = nn.LayerNorm(cfg.d_model)
        self.attn = _Attention(cfg)
        self.ln2 = nn.LayerNorm(cfg.d_model)
        self.mlp = nn.Sequential(nn.Linear(cfg.d_model, hidden), nn.GELU(), nn.Linear(hidden, cfg.d_model))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class TinyLM(nn.Module):
    """Pre-norm decoder-only transformer with learned positions; ``forward(ids) -> logits``."""

    def __init__(self, cfg: TinyConfig):
        super().__init__()
        self.config = cfg
        self.tok = nn.Embedding(cfg.vocab_size, cfg.d_model)
        self.pos = nn.Embedding(cfg.max_len, cfg.d_model)
        self.blocks = nn.ModuleList(_Block(cfg) for _ in range(cfg.n_layers))
        self.ln_f = nn.LayerNorm(cfg.d_model)
        self.head = nn.Linear(cfg.d_model, cfg.vocab_size, bias=False)
        self.apply(self._init)

    @staticmethod
    def _init(module: nn.Module) -> None:
        if isinstance(module, (nn.Linear, nn.Embedding)):
            nn.init.normal_(module.weight, std=0.02 if isinstance(module, nn.Embedding) else 1 / math.sqrt(
                module.weight.shape[1]))
        if isinstance(module, nn.Linear) and module.bias is not None:
            nn.init.zeros_(module.bias)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        t = ids.shape[1]
        if t > self.config.max_len:
            raise UserError(
                f"sequence of {t} tokens is longer than the model's context ({self.config.max_len}); "
                "shorten the inputs or use a model with a longer max_len"
            )
        x = self.tok(ids) + self.pos(torch.arange(t, device=ids.device))
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln_f(x))

    def output_projections(self) -> list[nn.Module]:
        """The per-layer attention output projections (their input is the per-head concatenation)."""
        return [cast(_Block, block).attn.o_proj for block in self.blocks]


def save_tiny_lm(model: TinyLM, folder: str | Path) -> Path:
    """Write ``config.json`` and ``model.safetensors`` into ``folder``."""
    from safetensors.torch import save_file

    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    (path / "config.json").write_text(json.dumps({"kind": CHECKPOINT_KIND, **asdict(model.config)}, indent=1))
    save_file({k: v.detach().contiguous() for k, v in model.state_dict().items()}, str(path / "model.safetensors"))
    return path


def _read_state(path: Path, argument: str) -> dict[str, torch.Tensor]:
    weights = [p for p in (path / "model.safetensors", path / "model.pt", path / "pytorch_model.bin") if p.is_file()]
    if not weights:
        raise UserError(f"{argument}: {path} has no model.safetensors, model.pt or pytorch_model.bin")
    try:
        if weights[0].suffix == ".safetensors":
            from safetensors.torch import load_file

            return load_file(str(weights[0]))
        state = torch.load(weights[0], map_location="cpu", weights_only=True)
    except Exception as exc:
        raise DataError(f"{argument}: could not read weights from {weights[0]} ({exc})") from exc
    if not isinstance(state, dict):
        raise DataError(f"{argument}: {weights[0]} does not hold a state dict")
    return state


def load_tiny_lm(folder: str | Path, *, argument: str = "model") -> TinyLM:
    """Load a checkpoint written by :func:`save_tiny_lm` (weights as safetensors or a torch state dict)."""
    path = Path(folder)
    config_file = path / "config.json"
    if not config_file.is_file():
        raise UserError(f"{argument}: {folder!r} is not a checkpoint folder (no config.json)")
    try:
        raw: dict[str, Any] = json.loads(config_file.read_text())
    except json.JSONDecodeError as exc:
        raise DataError(f"{argument}: {config_file} is not valid JSON ({exc})") from exc
    if raw.pop("kind", None) != CHECKPOINT_KIND:
        raise UserError(f"{argument}: {folder!r} is not a cmbagent tiny-LM checkpoint")
    try:
        model = TinyLM(TinyConfig(**raw))
    except TypeError as exc:
        raise DataError(f"{argument}: {config_file} has unknown fields ({exc})") from exc
    try:
        model.load_state_dict(_read_state(path, argument))
    except RuntimeError as exc:
        raise DataError(f"{argument}: weights in {folder!r} do not match its config.json ({exc})") from exc
    return model.eval()
