"""Backend selection, probing, limits validation and the pieces that need no kernel."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from cmbagent.exceptions import ConfigError, SandboxUnavailable
from cmbagent.sandbox import GiB, SandboxLimits, available_backends, get_backend, probe_backends
from cmbagent.sandbox import _backend as backend_module
from cmbagent.sandbox._bwrap import package_source_dirs
from cmbagent.sandbox._output import BoundedText, save_image, strip_ansi
from cmbagent.sandbox._types import CellResult


def test_probe_reports_every_backend_with_a_reason() -> None:
    status = probe_backends()
    assert set(status) == {"bwrap", "docker", "process"}
    for name, (available, reason) in status.items():
        assert isinstance(available, bool) and reason, name
    assert status["process"].available
    assert "process" in available_backends()


def test_auto_never_falls_back_to_process(monkeypatch: pytest.MonkeyPatch) -> None:
    import cmbagent.sandbox as sandbox
    from cmbagent.sandbox import _bwrap, _docker

    monkeypatch.setattr(sandbox, "_working", set())
    monkeypatch.setattr(_bwrap.BwrapBackend, "probe", classmethod(lambda cls: backend_module.BackendStatus(False, "no bwrap")))
    monkeypatch.setattr(_docker.DockerBackend, "probe", classmethod(lambda cls: backend_module.BackendStatus(False, "no engine")))
    with pytest.raises(SandboxUnavailable) as info:
        get_backend("auto")
    message = str(info.value)
    assert "no bwrap" in message and "no engine" in message
    assert "apt install bubblewrap" in message and "'process'" in message


def test_unknown_backend_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="auto, bwrap, docker, process"):
        get_backend("chroot")


def test_default_limits_are_safe_and_leave_room_for_torch() -> None:
    limits = SandboxLimits()
    assert limits.address_space == 8 * GiB and limits.file_size == GiB
    assert limits.processes == 256 and limits.cpu_time == 4 * 3600
    assert set(limits.rlimits()) == {"RLIMIT_AS", "RLIMIT_FSIZE", "RLIMIT_NPROC", "RLIMIT_CPU", "RLIMIT_NOFILE"}
    assert "RLIMIT_AS" not in SandboxLimits(address_space=None).rlimits()


@pytest.mark.parametrize("bad", [{"processes": 3}, {"file_size": 0}, {"threads": 0}, {"interrupt_grace": 0}])
def test_bad_limits_are_refused(bad: dict) -> None:
    with pytest.raises(ConfigError):
        SandboxLimits(**bad)


def test_only_package_folders_are_bound_never_the_checkout() -> None:
    import cmbagent

    dirs = package_source_dirs()
    checkout = Path(cmbagent.__file__).resolve().parents[1]
    for path in dirs:
        assert path != checkout and ".git" not in path.parts
    if (checkout / "sandbox" / "__init__.py").exists():  # editable install of this checkout
        assert checkout / "sandbox" in dirs and checkout / "cmbagent" in dirs


def test_bounded_text_keeps_head_and_tail_and_counts_the_rest() -> None:
    text = BoundedText(head=10, tail=5)
    for chunk in ["0123456789", "abcdefghij" * 1000, "VWXYZ"]:
        text.write(chunk)
    result = text.result()
    assert result.dropped_bytes == 10_000 - 5 + 5 - 0 - 5 + 5  # everything between head and last 5 bytes
    assert result.text.startswith("0123456789") and result.text.endswith("VWXYZ")
    small = BoundedText(head=100, tail=100)
    small.write("short")
    assert small.result().text == "short" and small.result().dropped_bytes == 0


def test_bounded_text_survives_invalid_unicode() -> None:
    text = BoundedText(head=4, tail=4)
    text.write("\udcff\udcfe é" * 10)
    result = text.result()
    assert result.dropped_bytes > 0 and isinstance(result.text, str)
    result.text.encode("utf-8")


def test_save_image_never_overwrites(tmp_path: Path) -> None:
    png = base64.b64encode(b"\x89PNG\r\n\x1a\nfake").decode()
    first = save_image({"image/png": png}, tmp_path, "cell-0001-1")
    second = save_image({"image/png": png}, tmp_path, "cell-0001-1")
    assert first and second and first != second and second.read_bytes().startswith(b"\x89PNG")
    assert save_image({"text/plain": "x"}, tmp_path, "cell-0002-1") is None


def test_strip_ansi() -> None:
    assert strip_ansi("\x1b[0;31mValueError\x1b[0m: x") == "ValueError: x"


def test_cell_result_ok_property() -> None:
    assert CellResult(status="ok").ok and not CellResult(status="timeout").ok


def test_a_kernel_that_cannot_start_is_reported_with_its_log(tmp_path: Path) -> None:
    import sys
    import warnings

    from cmbagent.exceptions import KernelDied
    from cmbagent.sandbox import LaunchPlan, ProcessBackend, UnisolatedSandboxWarning, open_sandbox

    class Broken(ProcessBackend):
        def wrap(self, launch):  # type: ignore[no-untyped-def]
            plan: LaunchPlan = super().wrap(launch)
            plan.argv = [sys.executable, "-c", "import sys; print('boom on start', file=sys.stderr); sys.exit(3)"]
            return plan

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnisolatedSandboxWarning)
        with pytest.raises(KernelDied, match="boom on start"):
            open_sandbox(tmp_path / "run", Broken())
