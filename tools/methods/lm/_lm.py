"""One handle over the causal language models the tools accept: our tiny transformer or a local HF folder.

A user's checkpoint folder is loaded with the real loading code and never from a hub: ours
(``config.json`` of kind ``cmbagent-tiny-lm`` + ``model.safetensors``) with safetensors, anything else with
``transformers``' ``AutoModelForCausalLM.from_pretrained(folder, local_files_only=True)`` and the folder's own
tokenizer.  The handle exposes what the methods need: encoding, logits, the attention output projections
(JoLA's hook point) with the head layout, and the context length.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from torch import nn

from cmbagent.exceptions import DataError, UserError
from cmbagent.tools.methods.lm._transformer import CHECKPOINT_KIND, ByteTokenizer, TinyLM, load_tiny_lm

__all__ = ["LanguageModel", "from_tiny", "load_language_model", "pad_batch"]

# attribute paths of the attention output projection in common Hugging Face architectures
_PROJECTION_SUFFIXES = ("self_attn.o_proj", "attn.c_proj", "attention.dense", "self_attn.out_proj", "attn.out_proj",
                        "attention.o_proj", "self_attention.dense")


@dataclass
class LanguageModel:
    """A frozen causal LM with the facts the methods need."""

    module: nn.Module
    encode: Callable[[str], list[int]]
    decode: Callable[[list[int]], str]
    bos_id: int | None
    eos_id: int
    pad_id: int
    max_len: int
    n_heads: int
    head_dim: int
    projections: list[nn.Module]
    logits_fn: Callable[[torch.Tensor], torch.Tensor]
    name: str = "model"

    def logits(self, ids: torch.Tensor) -> torch.Tensor:
        if ids.shape[1] > self.max_len:
            raise UserError(
                f"sequence of {ids.shape[1]} tokens exceeds the model's context of {self.max_len}; "
                "shorten the prompts/labels or use a model with a longer context"
            )
        return self.logits_fn(ids)

    def freeze(self) -> LanguageModel:
        self.module.eval()
        for parameter in self.module.parameters():
            parameter.requires_grad_(False)
        return self


def from_tiny(model: TinyLM, name: str = "tiny transformer") -> LanguageModel:
    tok = ByteTokenizer()
    cfg = model.config
    return LanguageModel(
        module=model, encode=tok.encode, decode=tok.decode, bos_id=tok.bos_id, eos_id=tok.eos_id,
        pad_id=tok.pad_id, max_len=cfg.max_len, n_heads=cfg.n_heads, head_dim=cfg.d_model // cfg.n_heads,
        projections=model.output_projections(), logits_fn=model, name=name,
    )


def _hf_projections(module: nn.Module) -> list[nn.Module]:
    found = [m for name, m in module.named_modules() if name.endswith(_PROJECTION_SUFFIXES)]
    if not found:
        raise UserError(
            "model: could not find the attention output projections (looked for modules named "
            f"{', '.join(_PROJECTION_SUFFIXES)}); JoLA needs a decoder whose heads feed one output projection"
        )
    return found


def _load_hf(path: Path) -> LanguageModel:
    try:
        from transformers import AutoModelForCausalLM, AutoTokenizer
    except ImportError as exc:
        raise UserError("model: loading a Hugging Face checkpoint folder needs `pip install transformers`") from exc
    try:
        module = AutoModelForCausalLM.from_pretrained(str(path), local_files_only=True)
        tokenizer = AutoTokenizer.from_pretrained(str(path), local_files_only=True)
    except Exception as exc:  # translate loader failures at the boundary
        raise DataError(f"model: could not load {str(path)!r} as a causal LM checkpoint ({exc})") from exc
    cfg = module.config
    n_heads = int(getattr(cfg, "num_attention_heads", 0) or getattr(cfg, "n_head", 0))
    if n_heads <= 0:
        raise DataError(f"model: {path} config names no number of attention heads")
    projections = _hf_projections(module)
    weight = getattr(projections[0], "weight", None)
    if weight is None:
        raise DataError("model: the attention output projection has no weight")
    # nn.Linear stores (out, in); GPT-2's Conv1D stores (in, out)
    width = int(weight.shape[0] if type(projections[0]).__name__ == "Conv1D" else weight.shape[1])
    max_len = int(getattr(cfg, "max_position_embeddings", 0) or getattr(cfg, "n_positions", 0) or 2048)
    eos = tokenizer.eos_token_id if tokenizer.eos_token_id is not None else 0
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else eos

    def logits_fn(ids: torch.Tensor) -> torch.Tensor:
        return module(input_ids=ids).logits

    def encode(text: str) -> list[int]:
        return list(tokenizer(text, add_special_tokens=False)["input_ids"])

    return LanguageModel(
        module=module, encode=encode, decode=lambda ids: str(tokenizer.decode(ids)), bos_id=tokenizer.bos_token_id,
        eos_id=int(eos), pad_id=int(pad), max_len=max_len, n_heads=n_heads, head_dim=width // n_heads,
        projections=projections, logits_fn=logits_fn, name=path.name,
    )


def load_language_model(folder: str, *, argument: str = "model") -> LanguageModel:
    """Load a local checkpoint folder (ours or Hugging Face); no download is ever attempted."""
    path = Path(folder)
    if not path.is_dir():
        raise UserError(f"{argument}: {folder!r} is not a folder; pass a local checkpoint folder")
    config = path / "config.json"
    if not config.is_file():
        raise UserError(f"{argument}: {folder!r} has no config.json; pass a checkpoint folder")
    try:
        kind = json.loads(config.read_text()).get("kind")
    except (json.JSONDecodeError, AttributeError) as exc:
        raise DataError(f"{argument}: {config} is not a JSON object") from exc
    if kind == CHECKPOINT_KIND:
        return from_tiny(load_tiny_lm(path, argument=argument), name=path.name)
    return _load_hf(path)


def pad_batch(sequences: Sequence[Sequence[int]], pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Right-pad id lists into a (B, T) tensor and a mask of real tokens."""
    width = max(len(s) for s in sequences)
    ids = torch.full((len(sequences), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(sequences), width), dtype=torch.bool)
    for row, seq in enumerate(sequences):
        ids[row, : len(seq)] = torch.tensor(list(seq), dtype=torch.long)
        mask[row, : len(seq)] = True
    return ids, mask


def describe(model: LanguageModel) -> dict[str, Any]:
    return {"name": model.name, "layers": len(model.projections), "heads": model.n_heads,
            "head_dim": model.head_dim, "context": model.max_len,
            "parameters": sum(p.numel() for p in model.module.parameters())}
