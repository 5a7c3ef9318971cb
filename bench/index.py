"""Knowledge-index benchmark: ingest throughput and query latency against a brute-force numpy baseline.

    python bench/index.py                       # 10k and 50k chunks
    python bench/index.py --sizes 2000 --ingest-chunks 100   # a quick look

1. Ingest: real files (this checkout's docs and code) through ``Index.ingest`` with the real
   all-MiniLM-L6-v2 model; prints chunks/s and the share of the time spent embedding.
2. Query latency at each size: a store of N chunks of real text (Python and markdown files of the
   installed packages, cut by our chunkers), queried with ``Index.search`` in hybrid, dense and BM25
   modes; the baseline is exact cosine similarity in numpy over the very same stored vectors, in the
   same run.  Also printed: the real model's query-embedding time (part of every real search) and the
   recall of chromadb's HNSW top-10 against the exact top-10.

Filling a 50k-chunk store with the real model is not feasible on a small CPU machine (the ingest line
shows its rate; 50k chunks would take hours), so the stores for step 2 hold *static* vectors: the mean of
the model's own word-piece embeddings per chunk, unit norm, 384-d.  Latency depends on the vector count
and dimension, not on how good the vectors are; the real model's query cost is measured and added.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from cmbagent.literature import Chunk

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

QUERIES = [
    "how to fit a cosmological model to supernova distances", "parse command line arguments",
    "read a CSV file into a data frame", "HTTP retry with exponential backoff", "compute the matrix inverse",
    "thread pool executor with a timeout", "tokenize text into words", "plot a histogram with matplotlib",
    "validate a JSON schema", "random number generator seed", "sqlite database connection",
    "gradient descent optimizer learning rate", "unit test fixtures", "decode utf-8 bytes",
    "cosine similarity between vectors", "asynchronous event loop", "logging configuration",
    "date and time parsing with time zones", "compress a file with gzip", "sort a list of dictionaries by key",
]


class StaticEmbedder:
    """Mean of all-MiniLM-L6-v2's word-piece input embeddings (unit norm): the model's vocabulary vectors
    without its transformer layers.  Only for filling large benchmark stores quickly."""

    name = "all-MiniLM-L6-v2-static"
    dimension = 384

    def __init__(self) -> None:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        from cmbagent.literature._embed import model_dir

        folder = model_dir()
        weights = load_file(str(folder / "model.safetensors"))
        key = next(k for k in weights if k.endswith("embeddings.word_embeddings.weight"))
        self.table = weights[key].astype(np.float32)
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(max_length=256)

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for i, enc in enumerate(self.tokenizer.encode_batch(list(texts))):
            ids = [t for t in enc.ids if t not in (0, 101, 102)] or [100]
            vector = self.table[ids].mean(axis=0)
            out[i] = vector / max(float(np.linalg.norm(vector)), 1e-12)
        return out


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p50 = statistics.median(ordered)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return p50 * 1000, p95 * 1000


def collect_chunks(folders: list[Path], target_chunks: int) -> tuple[list[Path], list[Chunk]]:
    """Files (sorted walk) and their chunks, until at least ``target_chunks`` chunks."""
    from cmbagent.literature import ChunkSettings
    from cmbagent.literature._readers import UnreadableFile, discover, read_chunks

    files: list[Path] = []
    chunks: list[Chunk] = []
    for folder in folders:
        found, _, _ = discover([folder], max_files=10**7)
        for path in found:
            try:
                chunks += read_chunks(path, settings=ChunkSettings(), max_bytes=2 * 2**20)
            except UnreadableFile:
                continue
            files.append(path)
            if len(chunks) >= target_chunks:
                return files, chunks
    return files, chunks


def bench_ingest(n_chunks: int, threads: int) -> None:
    from cmbagent.literature import Index, MiniLMEmbedder

    files, _ = collect_chunks([ROOT / "docs", ROOT / "cmbagent", ROOT / "tools"], n_chunks)
    with tempfile.TemporaryDirectory() as folder:
        index = Index(folder, embedder=MiniLMEmbedder(threads=threads))
        report = index.ingest(files)
    rate = report.chunks_added / report.seconds
    print(f"ingest (real model, {threads} BLAS thread(s)): {report.indexed} files, {report.chunks_added} chunks in "
          f"{report.seconds:.1f} s = {rate:.2f} chunks/s; embedding {report.embed_seconds:.1f} s = "
          f"{100 * report.embed_seconds / report.seconds:.1f}% of the time")


def bench_size(size: int, threads: int, site: Path) -> None:
    from cmbagent.literature import Index, MiniLMEmbedder
    from cmbagent.literature._chunk import assign_ids
    from cmbagent.literature._store import _metadata

    files, chunks = collect_chunks([site], size)
    chunks = assign_ids(chunks)
    with tempfile.TemporaryDirectory() as folder:
        index = Index(folder, collection="bench", embedder=StaticEmbedder())
        # bulk fill (the real ingest path and its rate are measured above; per-file bookkeeping is not the
        # subject here): the same chunks, metadata and vectors that ingest would store
        t0 = time.perf_counter()
        store = index._open(create=True)
        for start in range(0, len(chunks), 5000):
            part = chunks[start:start + 5000]
            store.upsert(ids=[c.chunk_id for c in part], documents=[c.text for c in part],
                         metadatas=[_metadata(c) for c in part],
                         embeddings=index.embedder.embed([c.embedding_text() for c in part]))
        index.manifest.bump(index.collection_name)
        fill_s = time.perf_counter() - t0
        collection = index._open(create=False)
        n = int(collection.count())
        ids: list[str] = []
        vectors = []
        for offset in range(0, n, 5000):
            got = collection.get(include=["embeddings"], limit=5000, offset=offset)
            ids += got["ids"]
            vectors.append(np.asarray(got["embeddings"], dtype=np.float32))
        matrix = np.concatenate(vectors)
        t0 = time.perf_counter()
        index.search("warm up the BM25 table", k=8)
        build_s = time.perf_counter() - t0

        static = index.embedder
        timings: dict[str, list[float]] = {"hybrid": [], "dense": [], "bm25": [], "numpy": []}
        agree = []
        for _ in range(3):
            for query in QUERIES:
                for mode in ("hybrid", "dense", "bm25"):
                    t0 = time.perf_counter()
                    index.search(query, k=8, mode=mode)
                    timings[mode].append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                q = static.embed([query])[0]
                scores = matrix @ q
                top = np.argpartition(-scores, 10)[:10]
                top = top[np.argsort(-scores[top])]
                timings["numpy"].append(time.perf_counter() - t0)
                got = collection.query(query_embeddings=[q.tolist()], n_results=10, include=[])
                agree.append(len(set(got["ids"][0]) & {ids[i] for i in top}) / 10)
        model = MiniLMEmbedder(threads=threads)
        model.embed(["warm up"])
        embed_times = []
        for query in QUERIES:
            t0 = time.perf_counter()
            model.embed([query])
            embed_times.append(time.perf_counter() - t0)
    e50, e95 = percentiles(embed_times)
    print(f"\n{n} chunks ({len(files)} files; store filled with static vectors in {fill_s:.0f} s; "
          f"BM25 table built at first query in {build_s:.2f} s)")
    _, base95 = percentiles(timings["numpy"])
    for mode in ("hybrid", "dense", "bm25", "numpy"):
        p50, p95 = percentiles(timings[mode])
        label = "numpy brute-force cosine (baseline)" if mode == "numpy" else f"Index.search {mode}"
        print(f"  {label:38s} p50 {p50:7.2f} ms  p95 {p95:7.2f} ms  p95 vs baseline x{p95 / base95:.2f}")
    hybrid95 = percentiles(timings["hybrid"])[1]
    print(f"  real model query embedding            p50 {e50:7.2f} ms  p95 {e95:7.2f} ms")
    print(f"  hybrid p95 + model p95 = {hybrid95 + e95:.1f} ms (target < 100 ms); HNSW top-10 recall vs exact "
          f"{np.mean(agree):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 50_000])
    parser.add_argument("--ingest-chunks", type=int, default=200, help="chunks for the real-model ingest run (0: skip)")
    parser.add_argument("--threads", type=int, default=1, help="BLAS threads for the real model (more only on an idle machine)")
    args = parser.parse_args()
    import sysconfig

    site = Path(sysconfig.get_paths()["purelib"])
    print(f"cmbagent index benchmark; {os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.1f}")
    if args.ingest_chunks > 0:
        bench_ingest(args.ingest_chunks, args.threads)
    for size in args.sizes:
        bench_size(size, args.threads, site)


if __name__ == "__main__":
    main()
