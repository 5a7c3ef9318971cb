"""Retrieval in runs: text steps get passages of the run's knowledge index, their citations are resolved by
code (a wrong one goes back to the agent), and the report lists every cited passage under References and
audits it (``report.bad_citation``).  Scripted models stand in for the agents; the index is real (chromadb
and the packaged MiniLM model)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cmbagent.agents import CitedSpan, ReportDraft, TaskBrief, TextAnswer, TextContext
from cmbagent.api import solve
from cmbagent.exceptions import UserError
from cmbagent.literature import Index, MiniLMEmbedder
from cmbagent.models import ModelRequest
from cmbagent.planner import Plan, PlanStep
from cmbagent.tools.methods import iter_methods
from tests.planner._support import brain

NOTES = """# Type Ia supernovae

## Standard candles

Type Ia supernovae are standardisable candles: after the Tripp correction for light-curve stretch and
colour their peak magnitudes scatter by about 0.1 mag.

## Matter density

The Pantheon+ analysis finds Omega_m = 0.334 +- 0.018 in flat LCDM with the full covariance matrix.
"""
CODE = '''def distance_modulus(z, omega_m):
    """Distance modulus of flat LCDM at redshift z."""
    return 5 * np.log10(luminosity_distance(z, omega_m)) + 25
'''


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An index folder with collection ``notes``: a markdown note and a Python file."""
    folder = tmp_path_factory.mktemp("index")
    source = tmp_path_factory.mktemp("sources")
    (source / "supernovae.md").write_text(NOTES)
    (source / "cosmo.py").write_text(CODE)
    report = Index(folder, collection="notes", embedder=MiniLMEmbedder(threads=1)).ingest([source])
    assert report.indexed == 2, report.problems
    return folder


def _plan(*steps: tuple[str, str]) -> Plan:
    return Plan(steps=[PlanStep(id=f"s{i}", title=title, goal=f"{title}.", agent=agent,
                                acceptance_criteria=["cites its sources"]) for i, (title, agent) in enumerate(steps, 1)])


def _cite_all(request: ModelRequest) -> TextAnswer:
    """An agent that quotes each passage it was shown (word for word) and cites it."""
    context = request.context
    assert isinstance(context, TextContext) and context.passages
    spans = [CitedSpan(chunk_id=p.chunk_id, quote=" ".join(p.text.split()[2:9])) for p in context.passages[:2]]
    text = "What the index says: " + ", ".join(f"this [{n}]" for n in range(1, len(spans) + 1)) + "."
    return TextAnswer(text=text, key_points=["from the notes"], citations=spans)


@pytest.mark.slow
def test_a_scripted_run_cites_indexed_chunks_and_every_citation_resolves(tmp_path: Path, index_dir: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    import cmbagent.planner._runtime as runtime

    monkeypatch.setattr(runtime, "CATALOGUE_LIMIT", 3)  # the planner sees the methods nearest the task by meaning
    planner_prompts: list[str] = []
    retriever_kinds: list[set[str]] = []

    def planner(request: ModelRequest) -> Plan:
        planner_prompts.append(request.messages[0].text() + request.messages[-1].text())
        return _plan(("Review the literature on supernova cosmology", "literature_retriever"),
                     ("Find the distance-modulus code", "code_retriever"),
                     ("Interpret the matter density", "researcher"))

    def code_retriever(request: ModelRequest) -> TextAnswer:
        assert isinstance(request.context, TextContext)
        retriever_kinds.append({p.source.rsplit(".", 1)[-1] for p in request.context.passages})
        return _cite_all(request)

    brief = TaskBrief(title="Omega_m from supernovae", domain="cosmology",
                      objective="Measure the matter density Omega_m from Type Ia supernova distances.")
    model = brain(task_analyst=lambda r: brief, planner=planner, literature_retriever=_cite_all,
                  code_retriever=code_retriever, researcher=_cite_all,
                  reporter=lambda r: ReportDraft(title="Supernovae", summary="Omega_m is near 0.33 [1][3].",
                                                 conclusions=["the code computes distance moduli [2]"]))
    result = solve("Measure the matter density Omega_m from Type Ia supernova distances.", workspace=tmp_path,
                   model="scripted", models={"scripted": model}, sandbox="process", collection="notes",
                   index_dir=index_dir)
    assert result.status == "done", result.error
    # the planner was told about the index and offered the retrieval agents; 3 methods by meaning
    assert "Knowledge index" in planner_prompts[0] and "Collection 'notes'" in planner_prompts[0]
    assert "- literature_retriever (text)" in planner_prompts[0] and "- code_retriever (text)" in planner_prompts[0]
    families = tuple(f"- {spec.name.split('.')[0]}." for spec in iter_methods())
    listed = [line for line in planner_prompts[0].splitlines() if line.startswith(families)]
    assert len(listed) == 3 and any(line.startswith("- cosmology.fit_supernovae") for line in listed), listed
    # the code retriever searched code only
    assert retriever_kinds == [{"py"}]

    run = json.loads((result.run_dir / "run.json").read_text())
    assert not [f for f in run["findings"] if f["code"] == "report.bad_citation"], run["findings"]
    steps = {json.loads(p.read_text())["id"]: json.loads(p.read_text()) for p in result.run_dir.glob("steps/*/step.json")}
    assert all(steps[sid]["citations"] for sid in ("s1", "s2", "s3"))
    index = Index(index_dir, collection="notes", embedder=MiniLMEmbedder(threads=1))
    for step in steps.values():
        for cited in step["citations"]:
            assert index.verify_quote(cited["chunk_id"], cited["quote"]), cited
            assert cited["source"].endswith((".md", ".py")) and cited["locator"].startswith("lines ")

    report = (result.run_dir / "report.md").read_text()
    references = report.split("## References", 1)[1].split("\n## ", 1)[0]
    numbered = [line for line in references.splitlines() if line.startswith("[")]
    assert len(numbered) >= 3 and "does not resolve" not in references
    assert "Cites: [1]" in report
    answer = next(result.run_dir.glob("steps/01-*/outputs/answer.md")).read_text()
    assert "## Sources" in answer and "[1]" in answer


def test_a_citation_that_does_not_resolve_goes_back_to_the_agent(tmp_path: Path, index_dir: Path) -> None:
    seen: list[TextContext] = []

    def retriever(request: ModelRequest) -> TextAnswer:
        assert isinstance(request.context, TextContext)
        seen.append(request.context)
        if len(seen) == 1:  # a quote from memory, not from the passage
            return TextAnswer(text="Supernovae are standard candles [1].",
                              citations=[CitedSpan(chunk_id=request.context.passages[0].chunk_id,
                                                   quote="supernovae never explode")])
        return _cite_all(request)

    model = brain(planner=lambda r: _plan(("Review supernova standard candles", "literature_retriever")),
                  literature_retriever=retriever)
    result = solve("What makes Type Ia supernovae standard candles?", workspace=tmp_path, model="scripted",
                   models={"scripted": model}, sandbox="process", collection="notes", index_dir=index_dir)
    assert result.status == "done", result.error
    assert len(seen) == 2 and seen[0].previous_error is None
    assert seen[1].previous_error and "'supernovae never explode'" in seen[1].previous_error
    assert "Your previous answer was refused" in seen[1].render()
    (step,) = [json.loads(p.read_text()) for p in result.run_dir.glob("steps/*/step.json")]
    assert step["status"] == "done" and step["attempts"] == 2


def test_a_planted_bad_citation_in_the_report_is_a_finding(tmp_path: Path, index_dir: Path) -> None:
    model = brain(planner=lambda r: _plan(("Review the matter density", "literature_retriever")),
                  literature_retriever=_cite_all,
                  reporter=lambda r: ReportDraft(title="t", summary="As published [1], and also [7]."))
    result = solve("Omega_m from supernovae.", workspace=tmp_path, model="scripted", models={"scripted": model},
                   sandbox="process", collection="notes", index_dir=index_dir)
    assert result.status == "done", result.error
    findings = json.loads((result.run_dir / "run.json").read_text())["findings"]
    (bad,) = [f for f in findings if f["code"] == "report.bad_citation"]
    assert bad["severity"] == "error" and bad["evidence"] == {"marker": 7, "where": "summary", "references": 2}
    assert "cites [7]" in bad["message"]


def test_a_citation_whose_chunk_was_reindexed_away_is_found_when_the_report_is_rendered_again(
        tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cmbagent.cli import app

    notes = tmp_path / "notes.md"
    notes.write_text(NOTES)
    index = Index(tmp_path / "index", collection="notes", embedder=MiniLMEmbedder(threads=1))
    index.ingest([notes])
    model = brain(planner=lambda r: _plan(("Review the matter density", "literature_retriever")),
                  literature_retriever=_cite_all)
    result = solve("Omega_m from supernovae.", workspace=tmp_path / "ws", model="scripted",
                   models={"scripted": model}, sandbox="process", collection="notes", index_dir=tmp_path / "index")
    assert result.status == "done", result.error
    assert "does not resolve" not in (result.run_dir / "report.md").read_text()

    notes.write_text(NOTES.replace("Omega_m = 0.334 +- 0.018", "Omega_m = 0.338 +- 0.018").replace(
        "Type Ia supernovae are standardisable candles", "SNe Ia are standardisable candles"))
    index.ingest([notes])  # the cited chunks' texts changed: their ids are gone from the index
    out = CliRunner().invoke(app, ["report", str(result.run_dir)])
    assert out.exit_code == 0, out.output
    findings = json.loads((result.run_dir / "run.json").read_text())["findings"]
    bad = [f for f in findings if f["code"] == "report.bad_citation"]
    assert bad and all("no longer in the index" in f["message"] and f["step_id"] == "s1" for f in bad)
    assert "**does not resolve**" in (result.run_dir / "report.md").read_text()


def test_without_an_index_the_retrieval_agents_are_not_offered(tmp_path: Path) -> None:
    prompts: list[str] = []
    plans = [_plan(("Review the literature", "literature_retriever")), _plan(("Answer", "researcher"))]

    def planner(request: ModelRequest) -> Plan:
        prompts.append(request.messages[0].text() + request.messages[-1].text())
        return plans.pop(0)

    def researcher(request: ModelRequest) -> TextAnswer:
        assert isinstance(request.context, TextContext) and request.context.passages == []
        return TextAnswer(text="An answer with a literal [1] that cites nothing.")

    result = solve("Explain standard candles.", workspace=tmp_path, model="scripted",
                   models={"scripted": brain(planner=planner, researcher=researcher)}, sandbox="process")
    assert result.status == "done", result.error
    assert "- literature_retriever (text)" not in prompts[0] and "## Knowledge index" not in prompts[0]
    assert "unknown agent 'literature_retriever'" in prompts[1]
    assert "## References" not in (result.run_dir / "report.md").read_text()


def test_a_missing_collection_is_refused_before_any_run_folder(tmp_path: Path, index_dir: Path) -> None:
    with pytest.raises(UserError, match="has no collection 'papers'"):
        solve("Anything.", workspace=tmp_path / "ws", model="offline", collection="papers", index_dir=index_dir)
    with pytest.raises(UserError, match="no index at"):
        solve("Anything.", workspace=tmp_path / "ws", model="offline", collection="notes",
              index_dir=tmp_path / "nothing-here")
    assert not (tmp_path / "ws").exists()


def _retriever_texts(index_dir: Path) -> Any:
    from cmbagent.planner import Retriever

    return Retriever(Index(index_dir, collection="notes", embedder=MiniLMEmbedder(threads=1)))


def test_the_retriever_checks_ids_quotes_and_markers(index_dir: Path) -> None:
    retriever = _retriever_texts(index_dir)
    (passage,) = retriever.passages("Tripp correction stretch colour", kinds=("markdown",), k=1)
    good = CitedSpan(chunk_id=passage.chunk_id, quote="after the Tripp correction for light-curve stretch")
    resolved, problems = retriever.check("Standardisable [1].", [good])
    assert problems == [] and resolved[0].source.endswith("supernovae.md") and resolved[0].locator
    _, problems = retriever.check("[1] [2] [3]", [good, CitedSpan(chunk_id="0" * 20, quote="anything at all")])
    assert any("not in the index" in p for p in problems) and any("cites [3]" in p for p in problems)
    # the search itself filters by kind, in both rankings
    for mode in ("hybrid", "dense", "bm25"):
        hits = retriever.index.search("Tripp correction supernovae distance modulus", k=5, mode=mode, kinds=("code",))
        assert hits and {h.chunk.kind for h in hits} == {"code"}
    with pytest.raises(UserError, match="unknown chunk kind"):
        retriever.index.search("anything", kinds=("papers",))


@pytest.mark.slow
def test_the_offline_backend_reviews_the_index_deterministically_and_replays(tmp_path: Path, index_dir: Path) -> None:
    from cmbagent.api import replay
    from cmbagent.sandbox import InMemoryExecutor
    from tests.planner._support import chain_task

    result = solve(chain_task(tmp_path), workspace=tmp_path / "ws", model="offline", collection="notes",
                   index_dir=index_dir, executor=InMemoryExecutor)
    assert result.status == "done", result.error
    agents = [s["agent"] for s in result.steps]
    assert agents == ["data_engineer", "method_operator", "literature_retriever", "cosmologist"]
    report = (result.run_dir / "report.md").read_text()
    assert "## References" in report and "does not resolve" not in report
    run = json.loads((result.run_dir / "run.json").read_text())
    assert not [f for f in run["findings"] if f["code"] == "report.bad_citation"]
    # retrieval is code over the same index: the replay asks exactly what the run asked
    replayed, comparison = replay(result.run_dir, workspace=tmp_path / "replays", executor=InMemoryExecutor)
    assert replayed.status == "done" and comparison["identical"], comparison
    assert (replayed.run_dir / "report.md").read_text().split("## References")[1].split("## Reproducibility")[0] \
        == report.split("## References")[1].split("## Reproducibility")[0]
