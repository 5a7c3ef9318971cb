"""A real PostgreSQL server for the tests: ``initdb`` + ``pg_ctl`` on a Unix socket in a temporary folder.

PostgreSQL refuses to run as root, so under root (CI) the server runs as the ``postgres`` system user that
Debian's package creates; otherwise as the current user.  Nothing listens on a network interface.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

__all__ = ["PostgresServer", "find_bin", "start_postgres"]


def find_bin() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl`` (PATH first, then Debian's /usr/lib/postgresql/*/bin)."""
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(os.path.realpath(found)).parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(folder) / "pg_ctl").is_file() and (Path(folder) / "initdb").is_file():
            return Path(folder)
    return None


@dataclass
class PostgresServer:
    root: Path
    bin: Path
    user: str | None
    url: str

    def stop(self) -> None:
        subprocess.run([str(self.bin / "pg_ctl"), "-D", str(self.root / "data"), "-m", "immediate", "stop"],
                       user=self.user, capture_output=True, timeout=60, check=False)
        shutil.rmtree(self.root, ignore_errors=True)


def start_postgres() -> PostgresServer | str:
    """Start a server with a database ``runs``; returns it, or why it cannot run here."""
    folder = find_bin()
    if folder is None:
        return "PostgreSQL is not installed (Debian: apt-get install postgresql; scripts/install.sh --dev does it)"
    user: str | None = None
    if os.geteuid() == 0:
        try:
            entry = pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no 'postgres' system user to run the server as"
        user = entry.pw_name
    root = Path(tempfile.mkdtemp(prefix="cmbagent-pg-"))
    root.chmod(0o755)
    (root / "sock").mkdir()
    if user is not None:
        for path in (root, root / "sock"):
            os.chown(path, entry.pw_uid, entry.pw_gid)
    run = {"user": user, "capture_output": True, "timeout": 120, "cwd": root}
    init = subprocess.run([str(folder / "initdb"), "-D", str(root / "data"), "-A", "trust", "-U", "cmbagent",
                           "--no-sync", "-E", "UTF8"], **run)  # type: ignore[call-overload]
    if init.returncode != 0:
        shutil.rmtree(root, ignore_errors=True)
        return f"initdb failed: {init.stderr.decode(errors='replace')[-500:]}"
    options = (f"-k {root / 'sock'} -c listen_addresses='' -c fsync=off -c synchronous_commit=off "
               "-c full_page_writes=off -c shared_buffers=16MB -c max_connections=40")
    started = subprocess.run([str(folder / "pg_ctl"), "-D", str(root / "data"), "-l", str(root / "server.log"),
                              "-w", "-t", "60", "-o", options, "start"], **run)  # type: ignore[call-overload]
    if started.returncode != 0:
        log = (root / "server.log").read_text(errors="replace")[-800:] if (root / "server.log").exists() else ""
        shutil.rmtree(root, ignore_errors=True)
        return f"pg_ctl start failed: {started.stderr.decode(errors='replace')[-300:]} {log}"
    import psycopg

    admin = f"postgresql://cmbagent@/postgres?host={root / 'sock'}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute("CREATE DATABASE runs")
    return PostgresServer(root=root, bin=folder, user=user, url=f"postgresql://cmbagent@/runs?host={root / 'sock'}")
