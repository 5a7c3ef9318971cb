"""The ``bwrap`` backend: the kernel in a bubblewrap sandbox.

What the kernel sees:

* no network at all (a new, empty network namespace: not even the host's loopback);
* the system (/usr), the Python interpreter, the virtual environment and the package's own source
  folders read-only; nothing else of the host (no /root, /home, /etc/shadow, the project's .git, other
  runs' folders);
* the run folder read-write (also its cwd), a private tmpfs /tmp of bounded size (HOME lives there);
* new pid, ipc, uts and user namespaces; no nested user namespaces (so no ``mount``), no capabilities;
* a cleared environment (only the allow-list the executor passes);
* an unprivileged uid: when cmbagent runs as root, each sandbox gets its own uid (RLIMIT_NPROC is not
  enforced for uid 0, even inside a user namespace mapped to root), and the run folder is handed to it.

As root, the sandbox is built in two stages: stage 1 is bwrap run as real root (no user namespace), so it
can bind paths the sandbox uid could not even reach on the host (the interpreter under a 0700 /root, a run
folder under a 0700 pytest tmp dir); it keeps only CAP_SETUID/CAP_SETGID, drops to the sandbox uid for good
(real, effective and saved ids; the capability sets empty with it), and execs stage 2: bwrap as that uid,
a user namespace around the kernel that forbids further user namespaces (so no ``mount``/``unshare``).
As a normal user, one bwrap with a user namespace does it all.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from cmbagent.sandbox._backend import Backend, BackendStatus, KernelLaunch, LaunchPlan, matplotlib_font_cache
from cmbagent.sandbox._cgroup import memory_cgroup_root
from cmbagent.sandbox._limits import SandboxLimits

__all__ = ["BwrapBackend", "hand_back", "package_source_dirs"]

# uids handed to sandboxes when cmbagent runs as root: far above any login or system account
_UID_BASE = 200_000
_UID_SPAN = 800_000
_MPL_DIR = "/tmp/home/.config/matplotlib"
_PACKAGES = ("cmbagent", "cmbagent.agents", "cmbagent.planner", "cmbagent.tools", "cmbagent.sandbox",
             "cmbagent.prompts")


def _bwrap() -> str | None:
    return shutil.which("bwrap")


def package_source_dirs() -> list[Path]:
    """Folders holding cmbagent's code that lie outside the interpreter's prefixes (editable installs).

    An editable install maps ``cmbagent.*`` onto folders of the checkout; exactly those folders are
    bound, never the checkout itself (its .git and other files stay invisible). A regular install lives
    in site-packages, which the venv bind already covers.
    """
    names = set(_PACKAGES)
    for module in list(sys.modules.values()):
        mapping = getattr(module, "MAPPING", None)
        if getattr(module, "__name__", "").startswith("__editable__") and isinstance(mapping, dict):
            names.update(k for k in mapping if k == "cmbagent" or k.startswith("cmbagent."))
    prefixes = {Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve()}
    found: set[Path] = set()
    for name in sorted(names):
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            continue
        for location in (spec.submodule_search_locations or []) if spec else []:
            path = Path(location).resolve()
            if path.is_dir() and not any(path.is_relative_to(p) for p in prefixes):
                found.add(path)
    # a folder inside another bound folder needs no bind of its own
    return sorted(p for p in found if not any(p != q and p.is_relative_to(q) for q in found))


def _memfd(name: str, data: str) -> int:
    fd = os.memfd_create(name, 0)
    os.write(fd, data.encode())
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def _uid_in_use(uid: int) -> bool:
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.stat(f"/proc/{entry}").st_uid == uid:
                    return True
            except OSError:
                continue
    return False


def _pick_uid() -> int:
    import secrets

    for _ in range(20):
        uid = _UID_BASE + secrets.randbelow(_UID_SPAN)
        if not _uid_in_use(uid):
            return uid
    raise RuntimeError("could not find a free sandbox uid")


def _chown_tree(root: Path, uid: int, *, gid: int | None = None, dirs_only: bool = False, max_depth: int = 64,
                only_from: int | None = None) -> None:
    """Give ``root`` (and what is inside) to ``uid``; never follows symlinks.

    The run's ``data/`` folder is left as it is: its files are read-only inputs, hard links into a cache that
    other runs share, and must not change owner.  ``only_from``: change only what that uid owns.
    """
    gid = uid if gid is None else gid
    base_depth = len(root.parts)
    for dirpath, dirnames, filenames in os.walk(root):
        depth = len(Path(dirpath).parts) - base_depth
        if depth == 0 and "data" in dirnames:
            dirnames.remove("data")
        if depth >= max_depth:
            dirnames.clear()
        names = [dirpath] + [os.path.join(dirpath, d) for d in dirnames]
        if not dirs_only:
            names += [os.path.join(dirpath, f) for f in filenames]
        for name in names:
            try:
                st = os.lstat(name)
                if st.st_uid != uid and (only_from is None or st.st_uid == only_from):
                    os.lchown(name, uid, gid)
            except OSError:
                continue


def hand_back(run_dir: Path, sandbox_uid: int) -> None:
    """What a kernel running as ``sandbox_uid`` wrote goes back to the user who ran cmbagent (``SUDO_UID``
    under sudo, else the process's uid), so that user can read and delete the run."""
    owner = int(os.environ.get("SUDO_UID") or os.getuid())
    group = int(os.environ.get("SUDO_GID") or os.getgid())
    _chown_tree(run_dir, owner, gid=group, only_from=sandbox_uid)
    data = run_dir / "data"
    if data.is_dir() and not data.is_symlink() and owner != os.getuid():
        os.lchown(data, owner, group)  # the folder only: its files are shared, read-only inputs


def _system_args() -> list[str]:
    """The system, read-only: /usr, and the merged-/usr symlinks (or folders) mirrored as on the host."""
    args = ["--ro-bind", "/usr", "/usr"]
    for link in ("bin", "lib", "lib64", "lib32", "sbin"):
        host = Path("/") / link
        if host.is_symlink():
            args += ["--symlink", os.readlink(host), str(host)]
        elif host.is_dir():
            args += ["--ro-bind", str(host), str(host)]
    return args


# stage 1 -> stage 2 when cmbagent runs as root: become the sandbox uid (all of real, effective, saved;
# no supplementary groups), which also empties the capability sets, then exec stage 2
_DROP_PRIVILEGES = """\
import os, sys
uid, gid = int(sys.argv[1]), int(sys.argv[2])
os.setgroups([])
os.setresgid(gid, gid, gid)
os.setresuid(uid, uid, uid)
os.execv(sys.argv[3], sys.argv[3:])
"""


class BwrapBackend(Backend):
    """Bubblewrap sandbox: the default where ``bwrap`` works."""

    name = "bwrap"
    isolating = True

    def __init__(self) -> None:
        self._root = os.geteuid() == 0
        self.uid = _pick_uid() if self._root else os.getuid()
        self.gid = self.uid if self._root else os.getgid()

    @classmethod
    def probe(cls) -> BackendStatus:
        exe = _bwrap()
        if exe is None:
            return BackendStatus(False, "bubblewrap is not installed (apt install bubblewrap / dnf install bubblewrap)")
        # the real sandbox, both stages, with a trivial command instead of the kernel
        with tempfile.TemporaryDirectory(prefix="cmbagent-probe-") as tmp:
            run_dir, runtime = Path(tmp) / "run", Path(tmp) / "rt"
            run_dir.mkdir()
            runtime.mkdir()
            try:
                backend = cls()
                if backend._root:
                    _chown_tree(Path(tmp), backend.uid)
                check = "import os, sys; sys.exit(0 if os.getuid() != 0 and os.access('.', os.W_OK) else 3)"
                plan = backend._plan(run_dir, runtime, SandboxLimits(), {}, [backend.python(), "-c", check])
            except (OSError, RuntimeError) as exc:
                return BackendStatus(False, f"bwrap could not be prepared: {exc}")
            try:
                proc = subprocess.run(plan.argv, env=plan.env, pass_fds=plan.pass_fds, capture_output=True,
                                      timeout=30)
            except (OSError, subprocess.SubprocessError) as exc:
                return BackendStatus(False, f"bwrap could not start: {exc}")
            finally:
                plan.close()
        if proc.returncode != 0:
            why = proc.stderr.decode(errors="replace").strip() or f"exit status {proc.returncode}"
            return BackendStatus(False, f"bwrap cannot build the sandbox here ({why}); it needs user namespaces "
                                        "(sysctl kernel.unprivileged_userns_clone=1, user.max_user_namespaces > 0)"
                                        " and, as root, CAP_SYS_ADMIN")
        mode = "two stages, sandbox uid per executor" if os.geteuid() == 0 else "user namespace"
        cgroups, _, why = memory_cgroup_root()
        memory = "memory capped by a cgroup" if cgroups is not None else f"memory capped by RLIMIT_AS only ({why})"
        return BackendStatus(True, f"{exe}: no network, read-only system, private /tmp, unprivileged uid ({mode}), "
                                   f"{memory}")

    def prepare_run_dir(self, run_dir: Path) -> None:
        if self._root:  # folders the host made since the last cell (steps/NN/...) must be writable
            _chown_tree(run_dir, self.uid, dirs_only=True, max_depth=4)

    def release_run_dir(self, run_dir: Path) -> None:
        if self._root:  # as a user, a user namespace maps the kernel's uid to ours: the files are ours already
            hand_back(run_dir, self.uid)

    def wrap(self, launch: KernelLaunch) -> LaunchPlan:
        if self._root:
            _chown_tree(launch.run_dir, self.uid)
            _chown_tree(launch.runtime_dir, self.uid)
        kernel = [self.python(), "-c", launch.bootstrap, *launch.kernel_args]
        return self._plan(launch.run_dir, launch.runtime_dir, launch.limits, launch.env, kernel)

    def _plan(self, run_dir: Path, runtime_dir: Path, limits: SandboxLimits, kernel_env: dict[str, str],
              command: list[str]) -> LaunchPlan:
        exe = _bwrap()
        if exe is None:
            raise FileNotFoundError("bwrap")
        plan = LaunchPlan(argv=[], env={"PATH": "/usr/bin:/bin"}, cwd=Path("/"))
        fds: list[int] = []

        def data_fd(name: str, text: str) -> str:
            fd = _memfd(name, text)
            fds.append(fd)
            plan.cleanup.append(functools.partial(os.close, fd))
            return str(fd)

        args = [exe, "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try",
                "--die-with-parent", "--new-session", "--hostname", "sandbox"]
        if self._root:
            # stage 1 runs as real root (it can read the interpreter under a 0700 /root); it keeps only the
            # capabilities needed to drop to the sandbox uid before stage 2
            args += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
        else:
            args += ["--unshare-user", "--disable-userns"]
        args += _system_args()
        args += ["--perms", "0755", "--dir", "/etc"]  # else bwrap-as-root makes it 0700: unreadable to the uid
        for etc in ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives",
                    "/etc/localtime", "/etc/fonts", "/etc/mime.types"):
            args += ["--ro-bind-try", etc, etc]
        passwd = (f"root:x:0:0::/root:/usr/sbin/nologin\nsandbox:x:{self.uid}:{self.gid}::/tmp/home:/bin/sh\n"
                  "nobody:x:65534:65534::/nonexistent:/usr/sbin/nologin\n")
        group = f"root:x:0:\nsandbox:x:{self.gid}:\nnogroup:x:65534:\n"
        args += ["--ro-bind-data", data_fd("passwd", passwd), "/etc/passwd",
                 "--ro-bind-data", data_fd("group", group), "/etc/group",
                 "--ro-bind-data", data_fd("hosts", "127.0.0.1 localhost sandbox\n::1 localhost\n"), "/etc/hosts"]
        args += ["--proc", "/proc", "--dev", "/dev"]
        # POSIX semaphores and shared memory (multiprocessing, joblib) live in /dev/shm
        args += ["--perms", "1777", "--size", str(limits.tmp_size), "--tmpfs", "/dev/shm"]
        # private /tmp first: binds below /tmp (a run folder or the runtime dir there) must come after it
        args += ["--perms", "1777", "--size", str(limits.tmp_size), "--tmpfs", "/tmp"]
        for folder in ("/tmp/home", "/tmp/home/.config", _MPL_DIR):
            args += ["--perms", "1777", "--dir", folder]
        font_cache = matplotlib_font_cache()
        if font_cache is not None:
            fd = os.open(font_cache, os.O_RDONLY | os.O_CLOEXEC)
            fds.append(fd)
            plan.cleanup.append(functools.partial(os.close, fd))
            args += ["--perms", "0644", "--file", str(fd), f"{_MPL_DIR}/{font_cache.name}"]
        made = {"/", "/tmp"}

        def bind(kind: str, path: Path | str) -> None:
            # parents that bwrap creates would be 0700 root: make them 0755 so the sandbox uid can pass
            for parent in reversed(Path(path).parents):
                if str(parent) not in made:
                    made.add(str(parent))
                    args.extend(["--perms", "0755", "--dir", str(parent)])
            args.extend([kind, str(path), str(path)])

        for prefix in sorted({str(Path(sys.base_prefix).resolve()), sys.prefix}):
            bind("--ro-bind", prefix)
        for src in package_source_dirs():
            bind("--ro-bind", src)
        bind("--bind", run_dir)
        data = run_dir / "data"
        if data.is_dir() and not data.is_symlink():  # inputs are read-only: shared cache entries, the user's data
            args += ["--ro-bind", str(data), str(data)]
        bind("--bind", runtime_dir)
        args += ["--chdir", str(run_dir), "--clearenv"]
        env = dict(kernel_env)
        env.update(HOME="/tmp/home", TMPDIR="/tmp", USER="sandbox", LOGNAME="sandbox",
                   MPLCONFIGDIR=_MPL_DIR)
        for key, value in sorted(env.items()):
            args += ["--setenv", key, value]
        if self._root:
            # stage 2: drop to the sandbox uid for good, then a user namespace that forbids further ones
            # (so no mount, no unshare) around the kernel; --dev-bind keeps /dev/null, /dev/urandom usable
            stage2 = [exe, "--unshare-user", "--disable-userns", "--uid", str(self.uid), "--gid", str(self.gid),
                      "--dev-bind", "/", "/", "--die-with-parent", "--chdir", str(run_dir), "--", *command]
            args += ["--", self.python(), "-c", _DROP_PRIVILEGES, str(self.uid), str(self.gid), *stage2]
        else:
            args += ["--", *command]
        plan.argv = args
        plan.pass_fds = tuple(fds)
        return plan
