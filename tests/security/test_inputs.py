"""The other inputs from outside: model base URLs typed into the UI, uploads, --allow-install package names."""

from __future__ import annotations

import io
import os
import tarfile
from pathlib import Path

import pytest

from cmbagent.exceptions import UserError
from cmbagent.planner._install import pip_environment, pip_install
from cmbagent.ui._settings import UISettings, parse_hosts
from cmbagent.ui._tasks import host_allowed, model_spec, stage_uploads


@pytest.mark.parametrize(
    "url",
    [
        "http://169.254.169.254/latest/meta-data",  # cloud metadata
        "http://10.0.0.5:8000/v1",  # the deployment's private network
        "https://attacker.example/v1",
        "http://127.0.0.1@attacker.example/v1",  # user info: parsers disagree on the host
        "http://attacker.example\\@127.0.0.1/v1",  # a backslash: browsers and urllib disagree
        "http://127.0.0.1.nip.io/v1",  # a name that resolves to loopback: names are not resolved
        "http://2130706433/v1",  # 127.0.0.1 as one number
        "http://[::ffff:7f00:1]/v1",
        "http://0.0.0.0:11434/v1",
        "http://127.0.0.1:11434/v1?x=http://attacker.example",
        "http://127.0.0.1:11434/v1#frag",
        "http://127.0.0.1:11434/%2e%2e/v1",
        "file:///etc/passwd",
        "gopher://127.0.0.1:6379/_",
    ],
)
def test_visitors_cannot_point_the_server_at_other_hosts(url: str) -> None:
    with pytest.raises(UserError):
        model_spec("openai-compatible", "llama3.1:8b", url, "")


def test_loopback_model_servers_are_allowed_by_default_and_get_no_server_key() -> None:
    for url in ("http://127.0.0.1:11434/v1", "http://localhost:8080/v1", "http://[::1]:8000/v1", "http://127.0.0.2/v1"):
        spec, keys = model_spec("openai-compatible", "llama3.1:8b", url, "")
        assert spec == f"openai-compatible:llama3.1:8b@{url}"
        # an explicit (empty) key: the deployment's OPENAI_COMPATIBLE_API_KEY never goes to a visitor's server
        assert keys == {"openai-compatible": "not-needed"}
    assert model_spec("openai-compatible", "m", "http://127.0.0.1:1/v1", "mine")[1] == {"openai-compatible": "mine"}
    with pytest.raises(UserError):
        model_spec("openai-compatible", "m@http://attacker.example/v1", "http://127.0.0.1:1/v1", "")
    with pytest.raises(UserError, match="CMBAGENT_UI_MODEL_HOSTS"):
        model_spec("openai-compatible", "m", "http://127.0.0.1:1/v1", "", model_hosts=())


def test_the_deployment_chooses_which_hosts_visitors_may_use() -> None:
    hosts = parse_hosts("loopback, 10.0.0.0/8, llm.internal")
    assert hosts == ("loopback", "10.0.0.0/8", "llm.internal")
    assert host_allowed("10.1.2.3", hosts) and host_allowed("LLM.internal", hosts)
    assert not host_allowed("11.0.0.1", hosts) and not host_allowed("llm.internal.attacker.example", hosts)
    assert host_allowed("attacker.example", parse_hosts("*"))
    assert parse_hosts("none") == ()
    with pytest.raises(UserError):
        parse_hosts("http://x/")
    settings = UISettings.from_env({"CMBAGENT_UI_MODEL_HOSTS": "10.0.0.0/8"})
    assert settings.model_hosts == ("10.0.0.0/8",)
    assert UISettings.from_env({}).model_hosts == ("loopback",)


def _upload(name: str, data: bytes = b"x") -> Path:
    folder = Path(os.environ["GRADIO_TEMP_DIR"]) / "test-inputs" / os.urandom(4).hex()
    folder.mkdir(parents=True)
    path = folder / name
    path.write_bytes(data)
    return path


@pytest.fixture(autouse=True)
def _gradio_temp(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    if "GRADIO_TEMP_DIR" not in os.environ:
        monkeypatch.setenv("GRADIO_TEMP_DIR", str(tmp_path_factory.mktemp("gradio")))


def test_uploads_have_a_count_and_a_size_limit(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="at most 3"):
        stage_uploads(tmp_path / "a", "go", [_upload(f"{i}.csv") for i in range(4)], max_files=3)
    with pytest.raises(UserError, match="limit"):
        stage_uploads(tmp_path / "b", "go", [_upload("big.csv", b"x" * 2000)], max_bytes=1000)
    with pytest.raises(UserError, match=r"at most 1\.0 MB"):  # a task is text, not a data file
        stage_uploads(tmp_path / "t", "", [_upload("task.md", b"---\ntitle: t\n---\n" + b"x" * (2 << 20))])
    with pytest.raises(UserError, match=r"at most 1\.0 MB"):
        stage_uploads(tmp_path / "u", "y" * (2 << 20), [])
    link = _upload("real.csv").with_name("link.csv")
    link.symlink_to(link.with_name("real.csv"))
    with pytest.raises(UserError, match="not a regular file"):
        stage_uploads(tmp_path / "c", "go", [link])


def test_an_attachment_is_a_regular_file_in_the_upload_folder_whatever_the_client_names(tmp_path: Path) -> None:
    """The page (or any API client) writes the attachment's path itself; only this app's uploads are files."""
    from cmbagent.ui._tasks import uploaded_file

    real = _upload("data.csv")
    assert uploaded_file(str(real)) == real.resolve()
    outside = tmp_path / "secret.csv"
    outside.write_text("secret")
    (real.parent / "out.csv").symlink_to(outside)
    os.mkfifo(real.parent / "fifo.csv")
    for name in (str(outside), "/proc/self/environ", "/dev/zero", "/dev/stdin", str(real.parent / "out.csv"),
                 str(real.parent / "fifo.csv"), str(real.parent / ".." / ".." / ".." / outside.name), "data.csv",
                 f"file://{real}", "http://127.0.0.1:1/data.csv", f"//{real}", str(real.parent)):
        with pytest.raises(UserError, match="attach the file instead") as info:
            uploaded_file(name)
        assert str(tmp_path) not in str(info.value)


def test_names_in_a_task_place_uploads_inside_the_staging_folder_only(tmp_path: Path) -> None:
    task = _upload("task.md", b"---\ntitle: t\ndata: [../../../escape/x.csv, /abs/y.csv, 'sub dir/z.csv']\n---\nGo.\n")
    files = [task, _upload("x.csv"), _upload("y.csv"), _upload("z.csv")]
    staging = tmp_path / "stage"
    staged, data, _ = stage_uploads(staging, "", files)
    placed = sorted(p.relative_to(staging).as_posix() for p in staging.rglob("*") if p.is_file())
    assert placed == ["sub dir/z.csv", "task.md", "x.csv", "y.csv"]
    assert not (tmp_path / "escape").exists()
    assert staged == staging / "task.md"
    assert data == [staging / "x.csv", staging / "y.csv"]  # not at the names the task gave: it must attach them


def test_pip_sees_none_of_the_hosts_keys() -> None:
    env = {"PATH": "/usr/bin", "HOME": "/srv/u", "OPENAI_API_KEY": "sk-1", "ANTHROPIC_API_KEY": "sk-2",
           "HF_TOKEN": "hf_x", "AWS_SECRET_ACCESS_KEY": "a", "PIP_INDEX_URL": "https://mirror/simple",
           "PIP_TOKEN": "t", "HTTPS_PROXY": "http://proxy:3128"}
    assert pip_environment(env) == {"PATH": "/usr/bin", "HOME": "/srv/u", "PIP_INDEX_URL": "https://mirror/simple",
                                    "HTTPS_PROXY": "http://proxy:3128", "PIP_NO_INPUT": "1", "PYTHONNOUSERSITE": "1"}


def test_pip_never_builds_a_source_distribution_on_the_host(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A package that exists only as an sdist would run its setup.py on the host, outside the sandbox."""
    marker = tmp_path / "setup-ran"
    index = tmp_path / "index"
    index.mkdir()
    setup = f"open({str(marker)!r}, 'w').write('ran')\nfrom setuptools import setup\nsetup(name='evilpkg', version='1.0')\n"
    with tarfile.open(index / "evilpkg-1.0.tar.gz", "w:gz") as archive:
        for name, text in (("evilpkg-1.0/setup.py", setup),
                           ("evilpkg-1.0/PKG-INFO", "Metadata-Version: 2.1\nName: evilpkg\nVersion: 1.0\n")):
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    monkeypatch.setenv("CMBAGENT_PIP_ARGS", f"--no-index --find-links {index}")
    outcome = pip_install(["evilpkg"], tmp_path / "overlay", timeout=120)
    assert not outcome.ok and "--only-binary=:all:" in outcome.command
    assert not marker.exists()


def test_a_billion_laughs_front_matter_is_refused_not_walked(tmp_path: Path) -> None:
    """Nine levels of nine aliases: 36 lines of YAML, 9**8 nodes to walk; the parser refuses aliases."""
    import threading

    from cmbagent.exceptions import TaskError
    from cmbagent.task import parse_task

    levels = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 9) + "]\n" for i in range(7))
    text = "---\ntitle: t\narguments:\n  data: {" + ", ".join(
        f"{k}: {v}" for k, v in (line.split(": ", 1) for line in levels.splitlines())) + "}\n---\nGo.\n"
    outcome: list[object] = []

    def attempt() -> None:
        try:
            parse_task(text, base=tmp_path)
        except TaskError as exc:
            outcome.append(exc)
        staged, _, _ = stage_uploads(tmp_path / "stage", text, [])
        outcome.append(staged)

    thread = threading.Thread(target=attempt, daemon=True)
    thread.start()
    thread.join(60)
    assert len(outcome) == 2, "parsing must not walk the expanded aliases"
    assert "aliases" in str(outcome[0])


def test_a_run_folder_rewritten_by_its_code_cannot_pick_the_model_server_on_resume(tmp_path: Path) -> None:
    """run.json is writable by the run's sandboxed code; the UI re-checks the models it names before a resume,
    gives OpenAI-compatible servers no key of the deployment, and names the sandbox itself."""
    import json

    from cmbagent.ui._runs import RunManager
    from cmbagent.ui._sessions import SessionStore, new_token
    from cmbagent.ui._tasks import check_stored_models, resume_keys

    run = tmp_path / "run"
    run.mkdir()
    for spec in ("openai-compatible:m@http://attacker.example/v1", "replay:/proc/self/environ"):
        (run / "run.json").write_text(json.dumps({"config": {"model": "offline", "agent_models": {"planner": spec}}}))
        with pytest.raises(UserError, match="start the task again"):
            check_stored_models(run, ("loopback",))
    (run / "run.json").write_text(json.dumps({"config": {"model": "openai-compatible:m@http://127.0.0.1:1/v1"}}))
    check_stored_models(run, ("loopback",))
    assert resume_keys({}) == {"openai-compatible": "not-needed"}
    assert resume_keys({"openai-compatible": "mine"}) == {"openai-compatible": "mine"}

    seen: list[dict[str, object]] = []

    def resume(run_dir: Path, **kwargs: object) -> object:
        seen.append(kwargs)
        return type("Result", (), {"status": "done"})()

    manager = RunManager(1, resume_fn=resume)
    session = SessionStore(tmp_path / "ws").session(new_token())
    handle = manager.submit_resume(session, "r1", None, None, sandbox="bwrap")
    handle.changed.wait(10)
    while handle.ended is None:
        handle.changed.wait(0.1)
    manager.shutdown(wait=True)
    assert seen and seen[0]["sandbox"] == "bwrap"
