"""Session tokens map to folders by hash; file lookups never leave the session's own run folders."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cmbagent.ui._sessions import SessionStore, new_token, valid_run_id, valid_token


def test_tokens_are_random_and_validated() -> None:
    a, b = new_token(), new_token()
    assert a != b and valid_token(a) and valid_token(b)
    for bad in ("", "short", "../../etc/passwd" + "a" * 40, "a" * 65, None, 42, "a b" * 20):
        assert not valid_token(bad)


def test_session_folder_is_a_hash_not_the_token(tmp_path: Path) -> None:
    store = SessionStore(tmp_path)
    token = new_token()
    session = store.session(token)
    assert token not in str(session.root)
    assert session.root.parent == tmp_path.resolve() / "ui"
    assert store.session(token).root == session.root
    assert store.session(new_token()).root != session.root
    with pytest.raises(ValueError):
        store.session("../../x")


@pytest.mark.parametrize("run_id", ["", ".", "..", ".staging", "a/b", "a\\b", "../x", "x" * 200, "a\x00b"])
def test_malformed_run_ids_are_refused(run_id: str) -> None:
    assert not valid_run_id(run_id)


def test_resolve_file_stays_inside_the_run(tmp_path: Path) -> None:
    store = SessionStore(tmp_path)
    mine, other = store.session(new_token()), store.session(new_token())
    for session, run in ((mine, "run-1"), (other, "run-2")):
        (session.root / run / "figures").mkdir(parents=True)
        (session.root / run / "report.md").write_text("report")
    (mine.root / "run-1" / "figures" / "fig.png").write_bytes(b"png")
    (mine.root / "run-1" / "figures" / "out").symlink_to(other.root / "run-2" / "report.md")
    (mine.root / "run-1" / "figures" / "inside").symlink_to(mine.root / "run-1" / "report.md")

    assert mine.resolve_file("run-1", "report.md") == (mine.root / "run-1" / "report.md").resolve()
    assert mine.resolve_file("run-1", "figures/fig.png") is not None
    # no link is followed, not even one that stays inside: code in the run can swap its target at any moment
    assert mine.resolve_file("run-1", "figures/inside") is None
    (mine.root / "run-1" / "linked").symlink_to(mine.root / "run-1" / "figures")
    assert mine.resolve_file("run-1", "linked/fig.png") is None  # a link in the middle of the name, too
    os.mkfifo(mine.root / "run-1" / "pipe")
    assert mine.resolve_file("run-1", "pipe") is None  # nor a FIFO (opening it would block the server)
    for run_id, rel in (
        ("run-2", "report.md"),  # another session's run
        ("run-1", "../../" + other.key + "/run-2/report.md"),
        ("run-1", str(other.root / "run-2" / "report.md")),
        ("run-1", "figures/out"),  # a link that leads out
        ("run-1", "figures"),  # a folder
        ("run-1", "missing.md"),
        ("run-1", "/etc/passwd"),
        ("..", "ui"),
    ):
        assert mine.resolve_file(run_id, rel) is None, (run_id, rel)
