"""A task author (a task.md from someone else, run with the CLI) reaches only the task's folder tree and the
folders the person allowed; a task may not choose where model requests go."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cmbagent.cli import app
from cmbagent.exceptions import PathError, PathNotAllowed, TaskError
from cmbagent.paths import PathPolicy
from cmbagent.task import load_task, parse_task

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

CHAIN = "# omega_m\n0.3\n0.31\n0.29\n"


def _task(folder: Path, chain: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    task = folder / "task.md"
    task.write_text(f"---\nmethod: cosmology.summarize_chain\narguments: {{chain: {json.dumps(chain)}}}\n---\n"
                    "Summarise the chain.\n")
    return task


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    """A folder beside the task's folder, holding a chain file (a file the task author should not reach)."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    (folder / "chain.txt").write_text(CHAIN)
    return folder


def test_cli_refuses_a_file_outside_the_task_folder_and_names_data_dir(tmp_path: Path, elsewhere: Path) -> None:
    ws = tmp_path / "ws"
    for name in (str(elsewhere / "chain.txt"), "../elsewhere/chain.txt", "/proc/self/environ"):
        task = _task(tmp_path / "tasks", name)
        result = CliRunner().invoke(app, ["solve", str(task), "--workspace", str(ws), "--sandbox", "process"])
        assert result.exit_code == 2, result.output
        assert "--data-dir" in result.output and name in result.output
        assert not ws.exists() or not any(ws.iterdir()), "no run folder may be created"


def test_cli_data_dir_and_config_allow_a_folder(tmp_path: Path, elsewhere: Path) -> None:
    task = _task(tmp_path / "tasks", str(elsewhere / "chain.txt"))
    ws = tmp_path / "ws"
    # the task is accepted and its file copied in (the run then stops at once on its 1 ns budget: exit 3)
    result = CliRunner().invoke(app, ["solve", str(task), "--workspace", str(ws), "--sandbox", "process",
                                      "--data-dir", str(elsewhere), "--timeout", "1e-9", "--json"])
    assert result.exit_code == 3, result.output
    run_dir = Path(json.loads(result.output.strip().splitlines()[-1])["run_dir"])
    assert (run_dir / "data" / "chain.txt").read_text() == CHAIN
    assert "chain: data/chain.txt" in (run_dir / "task.md").read_text()

    config = tmp_path / "cmbagent.toml"
    config.write_text('[paths]\ndata_dirs = ["elsewhere"]\n')  # relative to the config file's folder
    result = CliRunner().invoke(app, ["solve", str(task), "--workspace", str(ws), "--sandbox", "process",
                                      "--config", str(config), "--timeout", "1e-9"])
    assert result.exit_code == 3, result.output
    config.write_text('[paths]\ndata_dirs = "missing-folder"\n')
    result = CliRunner().invoke(app, ["solve", str(task), "--workspace", str(ws), "--config", str(config)])
    assert result.exit_code == 2 and "missing-folder" in result.output


def test_relative_names_are_read_from_the_task_folder_not_the_working_folder(
    tmp_path: Path, elsewhere: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    task = _task(tmp_path / "tasks", "chain.txt")
    monkeypatch.chdir(elsewhere)  # chain.txt exists here, not beside the task
    with pytest.raises(PathError, match="not found") as info:
        load_task(task)
    assert "--data-dir" in str(info.value)
    (tmp_path / "tasks" / "chain.txt").write_text(CHAIN)
    assert load_task(task).files["data/chain.txt"] == (tmp_path / "tasks" / "chain.txt").resolve()


def test_a_link_in_the_task_folder_that_leads_out_is_refused(tmp_path: Path, elsewhere: Path) -> None:
    task = _task(tmp_path / "tasks", "chain.txt")
    (tmp_path / "tasks" / "chain.txt").symlink_to(elsewhere / "chain.txt")
    with pytest.raises(PathNotAllowed, match="resolves to"):
        load_task(task)
    assert load_task(task, data_dirs=[elsewhere]).files  # allowed once the person allows the folder


def test_declared_path_arguments_are_files_even_without_a_path_shape(tmp_path: Path) -> None:
    # "chain" is declared InputFile: a bare word is still a file name, and a missing one is an error
    task = _task(tmp_path / "tasks", "chainfile")
    with pytest.raises(PathError, match="chainfile"):
        load_task(task)
    text = "---\nmethod: cosmology.summarize_chain\narguments: {chain: c.txt, output_dir: /etc}\n---\nGo.\n"
    (tmp_path / "tasks" / "c.txt").write_text(CHAIN)
    with pytest.raises(TaskError, match="inside the run folder"):
        parse_task(text, base=tmp_path / "tasks")


def test_extra_files_named_by_the_person_are_allowed_wherever_they_are(tmp_path: Path, elsewhere: Path) -> None:
    parsed = parse_task("Summarise the chain in the attached file.", base=tmp_path, extra_files=[elsewhere / "chain.txt"])
    assert list(parsed.files.values()) == [(elsewhere / "chain.txt").resolve()]
    (elsewhere / "other.txt").write_text("x")
    (tmp_path / "tasks").mkdir()
    with pytest.raises(PathNotAllowed):  # naming one file does not open its folder to the task
        parse_task("---\ndata: [../elsewhere/other.txt]\n---\nGo.\n", base=tmp_path / "tasks",
                   extra_files=[elsewhere / "chain.txt"])


@pytest.mark.parametrize(
    "front",
    ["model: openai-compatible:x@http://attacker.example/v1", "model: replay:/etc/passwd",
     "agent_models: {planner: 'openai-compatible:x@http://10.0.0.1/v1'}",
     "model: local:/etc/passwd", "agent_models: {engineer: 'local:../../secret.gguf'}"],
)
def test_a_task_may_not_choose_a_model_server_or_a_transcript(front: str, tmp_path: Path) -> None:
    with pytest.raises(TaskError, match="may not"):
        parse_task(f"---\n{front}\n---\nGo.\n", base=tmp_path)
    assert parse_task("---\nmodel: openai:gpt-4.1\n---\nGo.\n", base=tmp_path).settings()["model"] == "openai:gpt-4.1"


def test_ui_policy_task_text_is_never_a_file_name(tmp_path: Path) -> None:
    staging = tmp_path / "staging"
    staging.mkdir()
    (staging / "task.md").write_text("/etc/passwd\n")
    parsed = load_task(staging / "task.md", paths=PathPolicy.for_upload(staging))
    assert parsed.text == "/etc/passwd" and parsed.files == {} and parsed.source is None
    with pytest.raises(PathNotAllowed, match="attach the file instead"):
        load_task("---\ndata: x.csv\n---\nGo.\n", paths=PathPolicy.for_upload(staging))


def test_names_nested_in_arguments_may_not_point_out_either(tmp_path: Path) -> None:
    staging = tmp_path / "staging"
    staging.mkdir()
    policy = PathPolicy.for_upload(staging)
    for nested in ("{baselines: [/etc/passwd]}", "{priors: {x: ../../secret}}", "{parameters: ['~/k']}",
                   "{priors: {/etc/passwd: [0, 1]}}"):
        with pytest.raises(PathNotAllowed, match="attach the file instead"):
            parse_task(f"---\nmethod: cosmology.summarize_chain\narguments: {nested}\n---\nGo.\n", paths=policy)
    parsed = parse_task("---\narguments: {parameters: [omega_m, h0], priors: {omega_m: [0.1, 0.9]}}\n---\nGo.\n",
                        paths=policy)
    assert parsed.arguments["parameters"] == ["omega_m", "h0"]


def test_front_matter_holds_only_plain_values(tmp_path: Path) -> None:
    """YAML's ``!!binary`` gives bytes, which no name check read as a file name while a method's ``str``
    argument took them as one (``/proc/self/environ`` below); only JSON-like values are accepted."""
    import base64

    name = base64.b64encode(b"/proc/self/environ").decode()
    staging = tmp_path / "staging"
    staging.mkdir()
    for arguments in (f"{{chain: !!binary {name}}}", f"{{chain: c.txt, parameters: [!!binary {name}]}}",
                      "{chain: c.txt, parameters: !!set {a, b}}"):
        with pytest.raises(TaskError, match="not accepted"):
            parse_task(f"---\nmethod: cosmology.summarize_chain\narguments: {arguments}\n---\nGo.\n",
                       paths=PathPolicy.for_upload(staging))
    assert parse_task("---\ntitle: 2024-01-01\n---\nGo.\n", base=tmp_path).title == "2024-01-01"


def test_hidden_files_in_the_task_tree_are_not_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A task run from a folder that holds more than it (``~``, say) may not name its dot-files: ``.ssh``,
    ``.env``, ``.aws`` hold credentials, not data.  The person can still allow one on purpose."""
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text(CHAIN)
    (home / ".env").write_text(CHAIN)
    (home / "link.txt").symlink_to(home / ".env")
    (home / "chain.txt").write_text(CHAIN)
    for name in (".ssh/id_rsa", ".env", "sub/../.env", "link.txt", str(home / ".env"), "~/.env"):
        task = _task(home, name)
        with pytest.raises(PathNotAllowed, match="hidden") as info:
            load_task(task)
        assert "--data-dir" in str(info.value)
    assert load_task(_task(home, "chain.txt")).files  # the task's own data is fine
    assert load_task(_task(home, ".ssh/id_rsa"), data_dirs=[home / ".ssh"]).files  # a folder allowed on purpose
    assert load_task(_task(home, ".env"), extra_files=[home / ".env"]).files  # a file named on purpose
    result = CliRunner().invoke(app, ["methods", "run", "cosmology.summarize_chain", "--args",
                                      json.dumps({"chain": str(home / ".env")}), "--data-dir", str(home)])
    assert result.exit_code == 2 and "hidden" in result.output


def test_a_data_file_larger_than_the_free_space_is_refused_before_a_run_exists(tmp_path: Path) -> None:
    """A task's sparse file larger than the free space takes no room where it is and all of it in a copy.

    The workspace is a 16 MB tmpfs and the file 64 MB, so a regression fills that tmpfs, never the real disk.
    """
    import subprocess

    ws = tmp_path / "ws"
    ws.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m,mode=0755", "tmpfs", str(ws)],
                          capture_output=True, text=True, check=False)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs for the workspace (needs root): {made.stderr.strip()}")
    try:
        task = _task(tmp_path / "tasks", "huge.txt")
        with open(tmp_path / "tasks" / "huge.txt", "wb") as handle:
            handle.truncate(64 << 20)
        result = CliRunner().invoke(app, ["solve", str(task), "--workspace", str(ws), "--sandbox", "process"])
        assert result.exit_code == 2 and "free" in result.output, result.output
        assert not [p for p in ws.iterdir() if not p.name.startswith(".inputs")], \
            "no run folder, nor a partial one, is left behind"
    finally:
        subprocess.run(["umount", "-l", str(ws)], capture_output=True, check=False)
