"""`cmbagent index PATH...` and `cmbagent search QUERY`: the local knowledge index."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import typer

from cmbagent.cli._common import EXIT_OK, EXIT_USAGE, fail, print_json

__all__ = ["register"]


def _index_dir(index_dir: Path | None, config: Path | None) -> Path:
    from cmbagent.literature import default_index_dir
    from cmbagent.models import load_config

    if index_dir is not None:
        return index_dir
    return default_index_dir(config=load_config(config), config_path=config)


def _embedder() -> Any:
    from cmbagent.literature import MiniLMEmbedder

    threads = os.environ.get("CMBAGENT_EMBED_THREADS", "").strip()
    if threads and not threads.isdigit():
        fail(f"CMBAGENT_EMBED_THREADS must be a whole number of threads (got {threads!r})")
    return MiniLMEmbedder(threads=int(threads) if threads else None)


def _shown(source: str) -> str:
    try:
        return str(Path(source).relative_to(Path.cwd()))
    except ValueError:
        return source


def register(app: typer.Typer) -> None:
    @app.command("index")
    def index_cmd(
        paths: list[Path] = typer.Argument(None, help="Files and folders to index (PDF, markdown, text, Python, notebooks)."),
        package: list[str] = typer.Option([], "--package", help="An installed package to index (its docstrings, "
                                          "signatures and source; repeatable), e.g. --package camb."),
        module: list[str] = typer.Option([], "--module", help="With --package: only these modules (repeatable), "
                                         "e.g. --module camb.results."),
        collection: str = typer.Option("default", "--collection", help="Collection to add them to."),
        index_dir: Path | None = typer.Option(None, "--index-dir", help="Index folder (default: CMBAGENT_INDEX_DIR, "
                                              "[index] dir in --config, else the user data folder)."),
        config: Path | None = typer.Option(None, "--config", help="cmbagent.toml with an [index] table."),
        max_files: int = typer.Option(10_000, "--max-files", help="Refuse a folder holding more indexable files than this."),
        max_file_size: float = typer.Option(64.0, "--max-file-size", help="Skip files larger than this many MiB."),
        as_json: bool = typer.Option(False, "--json", help="Print the counts and problems as one JSON object."),
    ) -> None:
        """Index files and folders, or installed packages (--package); unchanged files are skipped and deleted
        files' chunks removed.

        A package goes into its own collection (pkg-NAME); a code step whose cell imports it (or whose step names
        it) gets its passages.  Exits 0 when something is indexed (or already was), 2 when nothing could be.
        """
        from cmbagent.exceptions import UserError
        from cmbagent.literature import Index

        if package:
            if paths:
                fail("give files and folders or --package, not both in one call")
            _index_packages(package, _index_dir(index_dir, config), as_json, module)
            return
        if not paths:
            fail("nothing to index: give files or folders, or --package NAME")

        if max_files < 1:
            fail(f"--max-files must be at least 1 (got {max_files})")
        if max_file_size <= 0:
            fail(f"--max-file-size must be a positive number of MiB (got {max_file_size})")
        try:
            index = Index(_index_dir(index_dir, config), collection=collection, embedder=_embedder())
            if sys.stderr.isatty() and not as_json:
                report = _ingest_with_bar(index, paths, max_files, int(max_file_size * 2**20))
            else:
                report = index.ingest(paths, max_files=max_files, max_file_bytes=int(max_file_size * 2**20))
        except UserError as exc:
            fail(str(exc))
        if as_json:
            print_json(report.to_dict())
        else:
            for problem in report.problems:
                typer.echo(f"not indexed: {_shown(problem.path)}: {problem.reason}", err=True)
            typer.echo(
                f"indexed {report.indexed} file(s) ({report.chunks_added} new chunks), {report.unchanged} unchanged, "
                f"{report.removed} removed, {report.failed} not indexed; collection {report.collection!r} holds "
                f"{report.chunks_total} chunks in {report.index_dir}"
            )
        raise typer.Exit(EXIT_OK if report.ok else EXIT_USAGE)

    @app.command("search")
    def search_cmd(
        query: str = typer.Argument(..., help="What to look for (a question or keywords)."),
        collection: str = typer.Option("default", "--collection", help="Collection to search."),
        k: int = typer.Option(8, "-k", "--k", help="Number of hits."),
        mode: str = typer.Option("hybrid", "--mode", help="hybrid (dense + BM25), dense or bm25."),
        index_dir: Path | None = typer.Option(None, "--index-dir", help="Index folder (as for `cmbagent index`)."),
        config: Path | None = typer.Option(None, "--config", help="cmbagent.toml with an [index] table."),
        as_json: bool = typer.Option(False, "--json", help="Print the hits as one JSON array."),
    ) -> None:
        """Search an index: each hit with its source, page or lines, score and text."""
        from cmbagent.exceptions import UserError
        from cmbagent.literature import Index

        try:
            index = Index(_index_dir(index_dir, config), collection=collection, embedder=_embedder())
            hits = index.search(query, k=k, mode=mode)
        except UserError as exc:
            fail(str(exc))
        if as_json:
            print_json([hit.to_dict() for hit in hits])
            return
        if not hits:
            typer.echo("no hits")
        for hit in hits:
            chunk = hit.chunk
            where = f"  {chunk.locator}" if chunk.locator else ""
            heading = f"  [{chunk.heading}]" if chunk.heading else ""
            typer.echo(f"{hit.rank}. {_shown(chunk.source)}{where}{heading}  score {hit.score:.4f}  id {chunk.chunk_id}")
            text = " ".join(chunk.text.split())
            typer.echo(f"   {text[:400]}{'…' if len(text) > 400 else ''}")


def _index_packages(names: list[str], folder: Path, as_json: bool, modules: list[str]) -> None:
    from cmbagent.exceptions import UserError
    from cmbagent.literature import index_package

    reports = []
    try:
        for name in names:
            reports.append((name, index_package(name, folder, embedder=_embedder(), modules=modules or None)))
    except UserError as exc:
        fail(str(exc))
    if as_json:
        print_json({name: report.to_dict() for name, report in reports})
    else:
        for name, report in reports:
            typer.echo(f"indexed package {name}: {report.indexed} module(s) ({report.chunks_added} new chunks), "
                       f"{report.unchanged} unchanged, {report.removed} removed; collection {report.collection!r} "
                       f"holds {report.chunks_total} chunks in {report.index_dir}")
    raise typer.Exit(EXIT_OK if all(r.ok for _, r in reports) else EXIT_USAGE)


def _ingest_with_bar(index: Any, paths: list[Path], max_files: int, max_bytes: int) -> Any:
    """ingest with a rich progress bar on stderr (only when stderr is a terminal)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("indexing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("{task.description}"))
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("", total=None)

        def step(done: int, total: int, current: str) -> None:
            bar.update(task, completed=done, total=total, description=Path(current).name if current else "")

        return index.ingest(paths, max_files=max_files, max_file_bytes=max_bytes, progress=step)
