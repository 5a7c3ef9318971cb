"""Benchmark: NoLiMa generator + BM25 throughput, and the JoLA training step against a LoRA baseline.

1. NoLiMa: items per second of generating items (needle inserted at a depth in a haystack of the given length)
   and scoring the BM25 baseline on them, per context length.
2. JoLA vs LoRA on the same frozen tiny GPT-style transformer (4 layers × 4 heads, width 128, sequences of 64
   tokens, batch 16): trained parameters and the wall time of one optimisation step (forward, backward, Adam).
   The LoRA baseline is written here in torch (peft is not a dependency): rank-8 adapters on every attention
   projection (qkv and output), the usual PEFT setting for attention.  Both steps minimise the same KL to a
   teacher's next-token distribution.  Targets: JoLA trains ≥ 10× fewer parameters and its step is no slower.

Run:  .venv/bin/python bench/lm_methods.py
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import torch
from torch import nn


def _per_second(fn: Callable[[], int], min_seconds: float = 3.0) -> float:
    fn()
    count, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < min_seconds:
        count += fn()
    return count / elapsed


def nolima_throughput() -> None:
    from cmbagent.tools.methods.lm.nolima import (
        bm25_answer,
        builtin_needles,
        contains,
        generate_items,
        load_haystack,
    )

    needles, text = builtin_needles(4), load_haystack()
    print("NoLiMa generator + BM25 (4 needles x 26 depths x latent+literal per length)")
    for length in (1000, 4000, 16000):
        def generate(length: int = length) -> int:
            return sum(1 for _ in generate_items(needles, text, lengths=[length], n_depths=26))

        def generate_and_score(length: int = length) -> int:
            items = list(generate_items(needles, text, lengths=[length], n_depths=26))
            for item in items:
                contains(bm25_answer(item), item.answer)
            return len(items)

        print(f"  {length:>6} tokens: generator {_per_second(generate):8.1f} items/s, "
              f"generator + BM25 {_per_second(generate_and_score):7.1f} items/s")


class LoRALinear(nn.Module):
    """y = W x + (α/r)·B A x with W frozen, A Kaiming-initialised and B zero (the standard LoRA setting)."""

    def __init__(self, base: nn.Linear, rank: int = 8, alpha: float = 16.0):
        super().__init__()
        self.base = base
        self.a = nn.Parameter(torch.empty(rank, base.in_features))
        self.b = nn.Parameter(torch.zeros(base.out_features, rank))
        nn.init.kaiming_uniform_(self.a, a=math.sqrt(5))
        self.scale = alpha / rank

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.base(x) + self.scale * (x @ self.a.T) @ self.b.T


def _step_time(model: nn.Module, params: list[nn.Parameter], ids: torch.Tensor, target: torch.Tensor,
               extra: Callable[[], torch.Tensor] | None = None, repeats: int = 30) -> float:
    opt = torch.optim.Adam(params, lr=1e-3)

    def step() -> None:
        logq = torch.log_softmax(model(ids), -1)
        loss = (target.exp() * (target - logq)).sum(-1).mean()
        if extra is not None:
            loss = loss + extra()
        opt.zero_grad()
        loss.backward()
        opt.step()

    for _ in range(5):
        step()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    times.sort()
    return times[len(times) // 2]


def jola_vs_lora() -> None:
    from cmbagent.tools.methods.lm import JoLAEditor
    from cmbagent.tools.methods.lm._lm import from_tiny
    from cmbagent.tools.methods.lm._transformer import TinyConfig, TinyLM

    torch.manual_seed(0)
    cfg = TinyConfig(d_model=128, n_heads=4, n_layers=4, max_len=64)
    base = TinyLM(cfg)
    lm = from_tiny(base).freeze()
    ids = torch.randint(0, 256, (16, 64))
    with torch.no_grad():
        target = torch.log_softmax(base(ids) + 0.5 * torch.randn(16, 64, cfg.vocab_size), -1)

    editor = JoLAEditor(cfg.n_layers, cfg.n_heads, cfg.d_model // cfg.n_heads).attach(lm)
    jola_params = list(editor.parameters())
    jola_time = _step_time(base, jola_params, ids, target, extra=lambda: 1e-3 * editor.l0())
    editor.detach()

    lora_params: list[nn.Parameter] = []
    for block in base.blocks:
        block.attn.qkv = LoRALinear(block.attn.qkv)  # type: ignore[assignment]
        block.attn.o_proj = LoRALinear(block.attn.o_proj)  # type: ignore[assignment]
        lora_params += [block.attn.qkv.a, block.attn.qkv.b, block.attn.o_proj.a, block.attn.o_proj.b]
    lora_time = _step_time(base, lora_params, ids, target)

    n_jola = sum(p.numel() for p in jola_params)
    n_lora = sum(p.numel() for p in lora_params)
    print(f"JoLA vs LoRA (rank 8 on qkv + output projection), {cfg.n_layers} layers x {cfg.n_heads} heads, "
          f"width {cfg.d_model}, batch 16 x 64 tokens, torch threads {torch.get_num_threads()}")
    print(f"  trained parameters: JoLA {n_jola}, LoRA {n_lora}  -> LoRA/JoLA = {n_lora / n_jola:.1f}x "
          f"(target >= 10x)")
    print(f"  median step time:   JoLA {1e3 * jola_time:.2f} ms, LoRA {1e3 * lora_time:.2f} ms  -> "
          f"LoRA/JoLA = {lora_time / jola_time:.2f} (target >= 1.0: JoLA no slower)")


def main() -> None:
    torch.set_num_threads(1)
    nolima_throughput()
    jola_vs_lora()


if __name__ == "__main__":
    main()
