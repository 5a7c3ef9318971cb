"""The tests' reference data is in the repository, listed, sourced and unchanged (tests/data/SOURCES.md).

``tests/data/MANIFEST.sha256`` lists every reference file a test reads, in ``tests/data/`` and in
``examples/data/``, with the sha256 of its bytes (``sha256sum -c`` reads it); a ``# content`` line gives the
checksum of a compressed copy's decompressed bytes, which is the upstream file's.
"""

from __future__ import annotations

import gzip
import hashlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
MANIFEST = DATA / "MANIFEST.sha256"
SOURCES = DATA / "SOURCES.md"
#: the folder stays small: a clone carries it, and every test run reads from it
MAX_BYTES = 2_000_000

_LINE = re.compile(r"(?:# content )?([0-9a-f]{64})  (\S.*)")


def _manifest() -> tuple[dict[str, str], dict[str, str]]:
    stored: dict[str, str] = {}
    content: dict[str, str] = {}
    for number, line in enumerate(MANIFEST.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("#") and not line.startswith("# content "):
            continue
        match = _LINE.fullmatch(line)
        assert match, f"MANIFEST.sha256 line {number} is not '<sha256>  <path>': {line!r}"
        (content if line.startswith("# content ") else stored)[match.group(2)] = match.group(1)
    return stored, content


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_every_listed_file_is_in_the_repository_with_its_checksum() -> None:
    stored, _ = _manifest()
    assert any(p.startswith("tests/data/") for p in stored) and any(p.startswith("examples/data/") for p in stored)
    changed = {}
    for relative, expected in stored.items():
        path = ROOT / relative
        assert path.is_file(), f"{relative} is listed in tests/data/MANIFEST.sha256 but is not in the repository"
        actual = _sha256(path.read_bytes())
        if actual != expected:
            changed[relative] = actual
    assert not changed, f"reference files changed (restore them, or update SOURCES.md and the manifest): {changed}"


def test_compressed_copies_hold_the_upstream_bytes() -> None:
    stored, content = _manifest()
    assert content, "no '# content' lines: the compressed copies must state their upstream checksum"
    for relative, expected in content.items():
        assert relative in stored and relative.endswith(".gz"), relative
        assert _sha256(gzip.decompress((ROOT / relative).read_bytes())) == expected, relative


def _named_in_sources() -> set[str]:
    """The file names SOURCES.md gives in backticks; ``causal/ihdp_npci_{1..5}.csv.gz`` names five files."""
    named = set()
    for token in re.findall(r"`([^`\s]+)`", SOURCES.read_text(encoding="utf-8")):
        match = re.fullmatch(r"(.*)\{(\d+)\.\.(\d+)\}(.*)", token)
        if match is None:
            named.add(token)
        else:
            named |= {f"{match[1]}{i}{match[4]}" for i in range(int(match[2]), int(match[3]) + 1)}
    return named


def test_every_file_in_tests_data_is_listed_and_sourced() -> None:
    stored, content = _manifest()
    named = _named_in_sources()
    files = [p for p in DATA.rglob("*") if p.is_file() and p.name not in {"SOURCES.md", "MANIFEST.sha256"}
             and "__pycache__" not in p.parts]
    assert files
    for path in files:
        relative = path.relative_to(ROOT).as_posix()
        assert relative in stored, f"{relative} is not in tests/data/MANIFEST.sha256 (sha256sum {relative} >> ...)"
        assert path.relative_to(DATA).as_posix() in named, f"{relative} has no row in tests/data/SOURCES.md"
    listed_here = {p for p in stored if p.startswith("tests/data/")}
    assert listed_here == {p.relative_to(ROOT).as_posix() for p in files}, "listed files that are not here"
    assert set(content) <= listed_here
    total = sum(p.stat().st_size for p in files)
    assert total < MAX_BYTES, f"tests/data holds {total / 1e6:.1f} MB; subsample or compress (limit {MAX_BYTES / 1e6} MB)"


@pytest.mark.parametrize("folder", ["tests", "bench", "scripts", "docs"])
def test_nothing_reads_beside_the_checkout(folder: str) -> None:
    """The team's folder beside the checkout is not part of the project: nothing may point there."""
    beside = re.compile(r"\.\./shared\b|parent\s*/\s*[\"']shared[\"']")
    offenders = []
    for path in (ROOT / folder).rglob("*"):
        if path.suffix in {".py", ".md", ".yaml", ".yml", ".sh", ".toml"} and path.is_file() and path != Path(__file__):
            for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
                if beside.search(line):
                    offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not offenders, "\n".join(offenders)
