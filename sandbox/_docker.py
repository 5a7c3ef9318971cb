"""The ``docker`` backend: the kernel in a container with no network, built from docker/sandbox.Dockerfile.

The container shares two host folders at the same paths: the run folder (read-write, its cwd) and the
runtime folder with the connection file and the ipc sockets, so the host talks to the kernel exactly as
with bwrap. The image holds its own Python with cmbagent installed (not editable), so nothing else of the
host is mounted. Limits map onto Docker's own: ``--pids-limit``, ``--memory``, ``--ulimit``, a sized
tmpfs /tmp, a read-only root file system, no capabilities, no new privileges.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
from pathlib import Path

from cmbagent.sandbox._backend import Backend, BackendStatus, KernelLaunch, LaunchPlan, _kill_session
from cmbagent.sandbox._limits import bootstrap_code

__all__ = ["DEFAULT_IMAGE", "DockerBackend"]

DEFAULT_IMAGE = "cmbagent-sandbox:latest"


def _image() -> str:
    return os.environ.get("CMBAGENT_SANDBOX_IMAGE", DEFAULT_IMAGE)


class DockerBackend(Backend):
    """A container per kernel; needs a running Docker engine and the sandbox image."""

    name = "docker"
    isolating = True
    local_process = False

    def __init__(self) -> None:
        self.uid = os.getuid() if os.getuid() != 0 else 65534
        self._container: str | None = None

    @classmethod
    def probe(cls) -> BackendStatus:
        exe = shutil.which("docker")
        if exe is None:
            return BackendStatus(False, "the docker command is not installed")
        try:
            info = subprocess.run([exe, "version", "--format", "{{.Server.Version}}"], capture_output=True,
                                  timeout=10, text=True)
        except (OSError, subprocess.SubprocessError) as exc:
            return BackendStatus(False, f"docker could not run: {exc}")
        if info.returncode != 0 or not info.stdout.strip():
            why = (info.stderr.strip().splitlines() or ["no answer"])[-1]
            return BackendStatus(False, f"no Docker engine is reachable ({why})")
        image = _image()
        found = subprocess.run([exe, "image", "inspect", image], capture_output=True, timeout=10)
        if found.returncode != 0:
            return BackendStatus(False, f"Docker engine {info.stdout.strip()} is up but the image {image} is missing: "
                                        f"docker build -f docker/sandbox.Dockerfile -t {image} .")
        return BackendStatus(True, f"Docker engine {info.stdout.strip()}, image {image}, --network none")

    def python(self) -> str:
        return "python"

    def wrap(self, launch: KernelLaunch) -> LaunchPlan:
        exe = shutil.which("docker") or "docker"
        limits = launch.limits
        self._container = f"cmbagent-{launch.sandbox_id}-{os.urandom(3).hex()}"
        data = launch.run_dir / "data"
        if os.getuid() == 0:
            for path in (launch.run_dir, launch.runtime_dir):
                for dirpath, dirs, files in os.walk(path):
                    if Path(dirpath) == launch.run_dir and "data" in dirs:
                        dirs.remove("data")  # read-only inputs, hard links into a cache other runs share
                    for name in [dirpath, *(os.path.join(dirpath, f) for f in files)]:
                        os.lchown(name, self.uid, self.uid)
        args = [exe, "run", "--rm", "--init", "--name", self._container, "--network", "none", "--read-only",
                "--cap-drop", "ALL", "--security-opt", "no-new-privileges", "--ipc", "private",
                "--user", f"{self.uid}:{self.uid}", "--tmpfs", f"/tmp:rw,nosuid,size={limits.tmp_size}",
                "-v", f"{launch.run_dir}:{launch.run_dir}:rw", "-v", f"{launch.runtime_dir}:{launch.runtime_dir}:rw",
                "-w", str(launch.run_dir)]
        if data.is_dir() and not data.is_symlink():
            args += ["-v", f"{data}:{data}:ro"]
        if limits.processes is not None:
            args += ["--pids-limit", str(limits.processes)]
        if limits.memory is not None or limits.address_space is not None:  # the container's own cgroup
            args += ["--memory", str(limits.memory or limits.address_space), "--memory-swap",
                     str(limits.memory or limits.address_space)]
        if limits.file_size is not None:
            args += ["--ulimit", f"fsize={limits.file_size}"]
        if limits.cpu_time is not None:
            args += ["--ulimit", f"cpu={limits.cpu_time}"]
        env = dict(launch.env)
        env.update(HOME="/tmp/home", TMPDIR="/tmp", MPLCONFIGDIR="/tmp/home/.config/matplotlib",
                   PATH="/opt/venv/bin:/usr/local/bin:/usr/bin:/bin")
        for key, value in sorted(env.items()):
            args += ["-e", f"{key}={value}"]
        # without a user namespace RLIMIT_NPROC would count every container running as this uid together:
        # the per-container --pids-limit bounds processes instead
        bootstrap = bootstrap_code(dataclasses.replace(limits, processes=None))
        args += [_image(), "python", "-c", bootstrap, *launch.kernel_args]
        return LaunchPlan(argv=args, env=dict(os.environ), cwd=Path("/"))

    def release_run_dir(self, run_dir: Path) -> None:
        if os.getuid() == 0:  # the container wrote as nobody: hand its files back
            from cmbagent.sandbox._bwrap import hand_back

            hand_back(run_dir, self.uid)

    def stop(self, proc: subprocess.Popen[bytes], launch: KernelLaunch) -> None:
        if self._container:
            subprocess.run([shutil.which("docker") or "docker", "rm", "-f", self._container],
                           capture_output=True, timeout=30)
        _kill_session(proc)
