"""Method arguments that name files: declared ones are files inside the roots, every other string must stay
inside them too; a model's choice is held to the run folder, a person's `methods run` to the working folder
and --data-dir."""

from __future__ import annotations

import json
import secrets
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cmbagent.agents import MethodCallDraft, ReplanDecision
from cmbagent.api import solve
from cmbagent.cli import app
from cmbagent.exceptions import PathNotAllowed, UserError
from cmbagent.paths import PathPolicy
from cmbagent.planner import MethodCall, Plan, PlanStep
from cmbagent.tools.methods import path_arguments, validate_arguments
from tests.planner._support import brain, of_type

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

CHAIN = "# omega_m h0\n" + "".join(f"{0.3 + 0.01 * ((i * 7) % 5 - 2):.2f} {0.7 + 0.01 * ((i * 3) % 5 - 2):.2f}\n"
                                     for i in range(1500))


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    run = tmp_path / "run"
    (run / "data").mkdir(parents=True)
    (run / "data" / "chain.txt").write_text(CHAIN)
    return run


def test_every_builtin_method_declares_its_file_arguments() -> None:
    declared = path_arguments("cosmology.fit_supernovae")
    assert declared == {"data": "input", "covariance": "input", "output_dir": "output"}
    assert path_arguments("causal.dml_ate")["embeddings"] == "input"


def test_model_chosen_arguments_stay_in_the_run_folder(run_dir: Path, tmp_path: Path) -> None:
    policy = PathPolicy.for_run(run_dir)
    (tmp_path / "secret.txt").write_text(CHAIN)
    (run_dir / "data" / "link.txt").symlink_to(tmp_path / "secret.txt")
    ok = validate_arguments("cosmology.summarize_chain", {"chain": "data/chain.txt", "output_dir": "figures/s2",
                                                          "parameters": ["omega_m"]}, paths=policy)
    assert ok["chain"] == "data/chain.txt"
    refused = [
        {"chain": str(tmp_path / "secret.txt")},
        {"chain": "../secret.txt"},
        {"chain": "data/link.txt"},
        {"chain": "/proc/self/environ"},
        {"chain": "~/.bashrc"},
        {"chain": "data/missing.txt"},
        {"chain": "data/chain.txt", "output_dir": "/srv/elsewhere"},
        {"chain": "data/chain.txt", "output_dir": "../../x"},
        {"chain": "data/chain.txt", "parameters": ["/etc/passwd"]},  # an undeclared string, nested in a list
    ]
    for arguments in refused:
        with pytest.raises(PathNotAllowed) as info:
            validate_arguments("cosmology.summarize_chain", arguments, paths=policy)
        assert str(run_dir) not in str(info.value), "a model is never told where the run folder lives"
    with pytest.raises(PathNotAllowed):  # checked as the method gets it: bytes become a str of the same name
        validate_arguments("cosmology.summarize_chain", {"chain": b"/proc/self/environ"}, paths=policy)
    with pytest.raises(PathNotAllowed):
        validate_arguments("cosmology.summarize_chain", {"chain": "data/chain.txt", "parameters": [b"/etc/passwd"]},
                           paths=policy)
    # a mapping's keys are strings at some depth too; the priors' closed keys (issue 30) refuse it even before
    # the path policy does
    with pytest.raises((PathNotAllowed, UserError), match=r"passwd|Omega_m"):
        validate_arguments("cosmology.fit_supernovae", {"data": "data/chain.txt", "priors": {"/etc/passwd": [0, 1]}},
                           paths=policy)
    # multi-line text is never a file name (prompts, formulas)
    validate_arguments("cosmology.summarize_chain", {"chain": "data/chain.txt", "parameters": ["a\n/etc"]},
                       paths=policy)


def test_methods_run_reads_the_working_folder_and_data_dirs_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    work, other = tmp_path / "work", tmp_path / "other"
    work.mkdir()
    other.mkdir()
    (other / "chain.txt").write_text(CHAIN)
    monkeypatch.chdir(work)
    args = json.dumps({"chain": str(other / "chain.txt"), "output_dir": "figs"})
    result = CliRunner().invoke(app, ["methods", "run", "cosmology.summarize_chain", "--args", args])
    assert result.exit_code == 2 and "--data-dir" in result.output, result.output
    result = CliRunner().invoke(app, ["methods", "run", "cosmology.summarize_chain", "--args", args,
                                      "--data-dir", str(other), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output.strip().splitlines()[-1])["values"]
    result = CliRunner().invoke(app, ["methods", "run", "cosmology.summarize_chain", "--args",
                                      json.dumps({"chain": "/proc/self/environ"}), "--data-dir", "/"])
    assert result.exit_code == 2 and "never readable" in result.output


def test_a_model_cannot_make_a_method_read_a_server_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The method operator (a prompt-injected model) names a server file: the call never runs, the step fails
    with a message the model can act on, and nothing of the file or the environment reaches the run."""
    canary = f"CANARY-{secrets.token_hex(8)}"
    secret = tmp_path / "server" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text(f"# {canary}\n0.3 0.7\n")
    monkeypatch.setenv("CMBAGENT_TEST_CANARY", canary)
    task_dir = tmp_path / "task"
    task_dir.mkdir()
    (task_dir / "chain.txt").write_text(CHAIN)
    # the task states no `chain:` argument (one it stated, or one code's sure reading of the prose found, would be
    # a constant the model cannot change): the front matter names the method, and the prose names no file
    (task_dir / "task.md").write_text("---\ndata: [chain.txt]\nmethod: cosmology.summarize_chain\n---\n"
                                      "Summarise the posterior samples.\n")
    plan = Plan(steps=[PlanStep(id="s1", title="Summarise", goal="Summarise the chain.", agent="method_operator",
                                method=MethodCall(name="cosmology.summarize_chain", arguments={}))])
    tries = iter([str(secret), "../../server/secret.txt", "/proc/self/environ"])
    model = brain(planner=lambda r: plan,
                  method_operator=lambda r: MethodCallDraft(method="cosmology.summarize_chain",
                                                            arguments={"chain": next(tries, "/proc/self/environ")}),
                  replanner=lambda r: ReplanDecision(action="skip", reason="the model keeps naming server files"))
    result = solve(task_dir / "task.md", workspace=tmp_path / "ws", model="scripted", models={"scripted": model},
                   n_reviews=0, sandbox="process")
    run = result.run_dir
    errors = [c["error"] for c in of_type(run, "cell_executed")]
    assert errors and all("not one of the files available here" in e for e in errors), errors
    assert not list(run.glob("steps/*/cells/*.py")), "no method cell may run with a refused argument"
    for path in run.rglob("*"):
        if path.is_file():
            assert canary.encode() not in path.read_bytes(), path


def test_unknown_user_errors_still_reach_the_model(run_dir: Path) -> None:
    with pytest.raises(UserError, match="unknown argument"):
        validate_arguments("cosmology.summarize_chain", {"chains": "x"}, paths=PathPolicy.for_run(run_dir))
