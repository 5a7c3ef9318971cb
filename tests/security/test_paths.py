"""The path policy (cmbagent.paths): what a name from outside may reach, and what it may never reach."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from cmbagent.exceptions import ConfigError, PathError, PathNotAllowed
from cmbagent.paths import (
    CLI_HINT,
    UI_HINT,
    PathPolicy,
    append_text,
    copy_file,
    iter_files_beneath,
    open_beneath,
    read_beneath,
    write_atomic,
)


@pytest.fixture
def tree(tmp_path: Path) -> dict[str, Path]:
    """``root/`` (allowed) with a data file and a sub-folder; ``outside/`` beside it with a secret."""
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "data").mkdir(parents=True)
    outside.mkdir()
    (root / "data" / "x.csv").write_text("a,b\n1,2\n")
    (outside / "secret.txt").write_text("SECRET")
    return {"root": root, "outside": outside, "data": root / "data" / "x.csv", "secret": outside / "secret.txt"}


def test_relative_names_resolve_against_the_base_not_the_working_folder(
    tree: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    policy = PathPolicy.for_cli(tree["root"])
    elsewhere = tmp_path / "cwd"
    (elsewhere / "data").mkdir(parents=True)
    (elsewhere / "data" / "only-here.csv").write_text("x")
    monkeypatch.chdir(elsewhere)
    assert policy.resolve("data/x.csv") == tree["data"].resolve()
    with pytest.raises(PathError, match="not found"):
        policy.resolve("data/only-here.csv")
    assert PathPolicy.build([tree["root"]]).base is None
    with pytest.raises(PathNotAllowed, match="needs a folder"):
        PathPolicy.build([tree["root"]]).resolve("data/x.csv")


def test_dotdot_is_refused_when_it_leaves_and_accepted_when_it_stays(tree: dict[str, Path]) -> None:
    policy = PathPolicy.for_cli(tree["root"])
    assert policy.resolve("data/../data/./x.csv") == tree["data"].resolve()
    for name in ("../outside/secret.txt", "data/../../outside/secret.txt", str(tree["root"] / ".." / "outside" / "secret.txt")):
        with pytest.raises(PathNotAllowed, match="outside the allowed folders") as info:
            policy.resolve(name)
        assert "--data-dir" in str(info.value)


def test_absolute_paths_outside_the_roots_name_the_flag(tree: dict[str, Path]) -> None:
    with pytest.raises(PathNotAllowed) as info:
        PathPolicy.for_cli(tree["root"]).resolve(str(tree["secret"]))
    message = str(info.value)
    assert CLI_HINT in message and str(tree["root"]) in message
    allowed = PathPolicy.for_cli(tree["root"], data_dirs=[tree["outside"]])
    assert allowed.resolve(str(tree["secret"])) == tree["secret"].resolve()


def test_symlinks_and_chains_that_leave_are_refused(tree: dict[str, Path]) -> None:
    root = tree["root"]
    (root / "direct").symlink_to(tree["secret"])
    (root / "hop2").symlink_to(root / "direct")
    (root / "hop1").symlink_to(root / "hop2")  # hop1 -> hop2 -> direct -> outside
    (root / "dirlink").symlink_to(tree["outside"], target_is_directory=True)
    (root / "inside").symlink_to(root / "data" / "x.csv")
    (root / "back").symlink_to(tree["outside"] / "back-in")
    (tree["outside"] / "back-in").symlink_to(tree["data"])  # leaves and comes back: the real path counts
    policy = PathPolicy.for_cli(root)
    for name in ("direct", "hop1", "dirlink/secret.txt", "dirlink/../outside/secret.txt"):
        with pytest.raises(PathNotAllowed):
            policy.resolve(name)
    assert policy.resolve("inside") == tree["data"].resolve()
    assert policy.resolve("back") == tree["data"].resolve()
    (root / "loop").symlink_to(root / "loop")
    with pytest.raises(PathNotAllowed, match="cannot be resolved"):
        policy.resolve("loop")


def test_dotdot_after_a_symlink_follows_the_kernel_not_the_text(tree: dict[str, Path]) -> None:
    # "link/../secret.txt" looks like "secret.txt" inside the root, but the kernel resolves the link first
    deep = tree["outside"] / "deep"
    deep.mkdir()
    (tree["root"] / "link").symlink_to(deep, target_is_directory=True)
    (tree["root"] / "secret.txt").write_text("harmless twin")
    with pytest.raises(PathNotAllowed):
        PathPolicy.for_cli(tree["root"]).resolve("link/../secret.txt")


@pytest.mark.parametrize(
    "name",
    ["/proc/self/environ", "/proc/self/root/etc/hostname", "/proc/self/fd/0", "/proc/1/environ", "/dev/stdin",
     "/dev/zero", "/sys/kernel/mm", "/proc/../proc/self/environ"],
)
def test_proc_sys_dev_are_never_data_even_with_the_whole_disk_allowed(name: str, tmp_path: Path) -> None:
    policy = PathPolicy.for_cli(tmp_path, data_dirs=["/"])
    with pytest.raises(PathNotAllowed, match="never readable"):
        policy.resolve(name, kind="any")


def test_a_link_into_proc_planted_inside_the_roots_is_refused(tmp_path: Path) -> None:
    (tmp_path / "env.txt").symlink_to("/proc/self/environ")
    (tmp_path / "root-again").symlink_to("/proc/self/root", target_is_directory=True)
    (tmp_path / "stdin").symlink_to("/dev/stdin")
    policy = PathPolicy.for_cli(tmp_path, data_dirs=["/"])
    for name in ("env.txt", "stdin"):
        with pytest.raises(PathNotAllowed):
            policy.resolve(name)
    # /proc/self/root is "/" again: only the real path counts, checked against the roots like any other
    inside = tmp_path / "in.txt"
    inside.write_text("ok")
    (tmp_path.parent / "outside-file").write_text("x")
    narrow = PathPolicy.for_cli(tmp_path)
    assert narrow.resolve(f"root-again{inside}") == inside.resolve()
    with pytest.raises(PathNotAllowed):
        narrow.resolve(f"root-again{tmp_path.parent}/outside-file")


def test_fifos_sockets_and_folders_are_not_data_files(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    policy = PathPolicy.for_cli(tmp_path)
    done = threading.Event()

    def probe() -> None:
        with pytest.raises(PathNotAllowed, match="FIFO"):
            policy.resolve("pipe")
        done.set()

    thread = threading.Thread(target=probe, daemon=True)
    thread.start()
    thread.join(10)
    assert done.is_set(), "resolving a FIFO must not open (and block on) it"
    (tmp_path / "sub").mkdir()
    with pytest.raises(PathNotAllowed, match="folder"):
        policy.resolve("sub")
    assert policy.resolve("sub", kind="dir") == (tmp_path / "sub").resolve()


def test_hard_links_count_where_they_are(tree: dict[str, Path]) -> None:
    # a hard link is a file of its own folder: inside the roots it is data, outside it is not
    os.link(tree["secret"], tree["root"] / "linked.txt")
    os.link(tree["data"], tree["outside"] / "copy.csv")
    policy = PathPolicy.for_cli(tree["root"])
    assert policy.resolve("linked.txt").read_text() == "SECRET"
    with pytest.raises(PathNotAllowed):
        policy.resolve(str(tree["outside"] / "copy.csv"))


def test_a_root_that_is_itself_a_symlink(tree: dict[str, Path], tmp_path: Path) -> None:
    alias = tmp_path / "alias"
    alias.symlink_to(tree["root"], target_is_directory=True)
    policy = PathPolicy.for_cli(alias)
    real = tree["data"].resolve()
    assert policy.resolve("data/x.csv") == real
    assert policy.resolve(str(alias / "data" / "x.csv")) == real
    assert policy.resolve(str(tree["data"])) == real  # the same folder under its real name
    with pytest.raises(PathNotAllowed):
        policy.resolve(str(alias / ".." / "outside" / "secret.txt"))


def test_private_policies_reveal_nothing(tree: dict[str, Path]) -> None:
    policy = PathPolicy.for_upload(tree["root"])
    assert policy.resolve("data/x.csv") == tree["data"].resolve()
    messages = set()
    for name in (str(tree["secret"]), "~/.ssh/id_rsa", "../outside/secret.txt", "missing.csv", "/proc/self/environ",
                 "data/../../outside/secret.txt"):
        with pytest.raises(PathNotAllowed) as info:
            policy.resolve(name)
        message = str(info.value)
        assert UI_HINT in message and str(tree["root"]) not in message and "SECRET" not in message
        messages.add(message.replace(repr(name[:200]), "NAME"))
    assert len(messages) == 1, messages  # missing, outside and forbidden read alike: no existence oracle
    assert policy.for_own_names().resolve(tree["data"]) == tree["data"].resolve()  # the program's own names


def test_bad_names_and_bad_roots(tree: dict[str, Path]) -> None:
    policy = PathPolicy.for_cli(tree["root"])
    for name in ("", "a\x00b", "x" * 5000):
        with pytest.raises(PathNotAllowed):
            policy.resolve(name)
    with pytest.raises(ConfigError, match="does not exist"):
        PathPolicy.for_cli(tree["root"], data_dirs=[tree["root"] / "nope"])
    with pytest.raises(ConfigError, match="/proc"):
        PathPolicy.for_cli(tree["root"], data_dirs=["/proc/self"])
    with pytest.raises(ConfigError, match="not a folder"):
        PathPolicy.for_cli(tree["root"], data_dirs=[tree["data"]])


def test_single_files_allowed_by_name_only(tree: dict[str, Path]) -> None:
    (tree["outside"] / "other.txt").write_text("other")
    policy = PathPolicy.for_cli(tree["root"], files=[tree["secret"]])
    assert policy.resolve(str(tree["secret"])) == tree["secret"].resolve()
    with pytest.raises(PathNotAllowed):
        policy.resolve(str(tree["outside"] / "other.txt"))


def test_output_targets_stay_inside(tree: dict[str, Path]) -> None:
    policy = PathPolicy.for_run(tree["root"])
    assert policy.target("figures/s2") == tree["root"].resolve() / "figures" / "s2"
    (tree["root"] / "out").symlink_to(tree["outside"], target_is_directory=True)
    for name in ("../x", "/srv/x", "out/new", "new/../../x"):
        with pytest.raises(PathNotAllowed):
            policy.target(name)


# -- reading and writing run folders that sandboxed code can write -------------------------------------------
def test_open_beneath_follows_no_link_at_all(tree: dict[str, Path]) -> None:
    root = tree["root"]
    assert read_beneath(root, "data/x.csv") == b"a,b\n1,2\n"
    (root / "leak").symlink_to(tree["secret"])
    (root / "dir").symlink_to(tree["outside"], target_is_directory=True)
    (root / "same").symlink_to(tree["data"])
    os.mkfifo(root / "pipe")
    for rel in ("leak", "dir/secret.txt", "same", "pipe", "../outside/secret.txt", "/etc/passwd", "data"):
        with pytest.raises((PathNotAllowed, OSError)):
            os.close(open_beneath(root, rel))
    with pytest.raises(FileNotFoundError):
        open_beneath(root, "missing")


def test_iter_files_beneath_skips_links_and_fifos(tree: dict[str, Path]) -> None:
    root = tree["root"]
    (root / "leak").symlink_to(tree["secret"])
    (root / "dir").symlink_to(tree["outside"], target_is_directory=True)
    os.mkfifo(root / "pipe")
    seen = {rel: handle.read() for rel, handle in iter_files_beneath(root)}
    assert seen == {"data/x.csv": b"a,b\n1,2\n"}


def test_host_writes_never_go_through_a_planted_link(tree: dict[str, Path]) -> None:
    run = tree["root"]
    (run / "events.jsonl").symlink_to(tree["secret"])
    with pytest.raises(PathNotAllowed):
        append_text(run / "events.jsonl", "{}\n")
    os.mkfifo(run / "fifo.jsonl")
    with pytest.raises(PathNotAllowed):
        append_text(run / "fifo.jsonl", "{}\n")
    (run / "plan.json").symlink_to(tree["secret"])
    write_atomic(run / "plan.json", b"{}")  # replaces the link, never writes into its target
    assert (run / "plan.json").read_bytes() == b"{}" and not (run / "plan.json").is_symlink()
    assert tree["secret"].read_text() == "SECRET"


def test_copy_file_refuses_what_is_no_longer_a_regular_file(tree: dict[str, Path], tmp_path: Path) -> None:
    copy_file(tree["data"], tmp_path / "copy" / "x.csv")
    assert (tmp_path / "copy" / "x.csv").read_text() == "a,b\n1,2\n"
    (tree["root"] / "swapped").symlink_to(tree["secret"])
    with pytest.raises(PathNotAllowed):
        copy_file(tree["root"] / "swapped", tmp_path / "copy" / "s.txt")
