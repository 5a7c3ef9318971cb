"""Suite-wide guards.

* No test reaches the network: any socket connection to a non-loopback address fails loudly
  (the fake model servers of tests/fakes listen on 127.0.0.1).
* Model providers see ``CMBAGENT_BLOCK_NETWORK=1`` and refuse non-loopback base URLs themselves.
* Gradio never phones home; Hugging Face libraries stay offline.
* The reference data the validations read is in the repository: ``tests/data/`` (sources, licences and
  reference numbers in its ``SOURCES.md``, checksums in ``MANIFEST.sha256``) and the example data
  ``examples/data/``. No test reads outside the checkout, and a missing file fails the test that needs it.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import tempfile
from pathlib import Path

import pytest

os.environ["CMBAGENT_BLOCK_NETWORK"] = "1"
os.environ["GRADIO_ANALYTICS_ENABLED"] = "False"
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ.setdefault("MPLBACKEND", "Agg")
# what cmbagent derives once per machine (the local model's re-encoded weights) goes to a folder of the tests' own,
# shared by the test workers and kept between sessions, never into the user's cache folder
os.environ["CMBAGENT_CACHE_DIR"] = os.path.join(tempfile.gettempdir(), f"cmbagent-test-cache-{os.getuid()}")
for _key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL", "CMBAGENT_MODEL"):
    os.environ.pop(_key, None)

ROOT = Path(__file__).resolve().parents[1]
#: reference data only the tests read (tests/data/SOURCES.md)
REFERENCE_DATA = ROOT / "tests" / "data"
#: the data the example tasks ship, which the validations read too (examples/data/SOURCES.md)
EXAMPLE_DATA = ROOT / "examples" / "data"


class NetworkBlocked(RuntimeError):
    """A test tried to reach a non-loopback address."""


def _is_loopback(host: object) -> bool:
    if not isinstance(host, str):
        return False
    if host in {"localhost", ""}:
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex
_real_getaddrinfo = socket.getaddrinfo


def _guard(sock: socket.socket, address: object) -> None:
    if sock.family in (socket.AF_INET, socket.AF_INET6):
        host = address[0] if isinstance(address, tuple) else address
        if not _is_loopback(host):
            raise NetworkBlocked(f"tests may not reach the network (tried {address!r})")


def _connect(self: socket.socket, address: object) -> None:
    _guard(self, address)
    return _real_connect(self, address)  # type: ignore[arg-type]


def _connect_ex(self: socket.socket, address: object) -> int:
    _guard(self, address)
    return _real_connect_ex(self, address)  # type: ignore[arg-type]


def _getaddrinfo(host: object, *args: object, **kwargs: object):  # type: ignore[no-untyped-def]
    if host is not None and not _is_loopback(host if isinstance(host, str) else str(host)):
        raise NetworkBlocked(f"tests may not resolve non-local names (tried {host!r})")
    return _real_getaddrinfo(host, *args, **kwargs)  # type: ignore[arg-type]


socket.socket.connect = _connect  # type: ignore[method-assign]
socket.socket.connect_ex = _connect_ex  # type: ignore[method-assign]
socket.getaddrinfo = _getaddrinfo  # type: ignore[assignment]


@pytest.fixture(scope="session")
def reference_data() -> Path:
    """``tests/data``: the reference data of the validations, in the repository (never skipped: a missing
    file is a failure, and ``tests/package/test_reference_data.py`` checks every file against its checksum)."""
    return REFERENCE_DATA


@pytest.fixture(scope="session")
def postgres_url():  # type: ignore[no-untyped-def]
    """A real PostgreSQL server (started here on a Unix socket, stopped at the end) and its database URL.

    Skips with the reason where PostgreSQL is not installed; under CI (``CI=true``) that is a failure, since
    CI installs it (scripts/install.sh --dev).
    """
    try:
        import psycopg  # noqa: F401
    except ImportError:
        reason = "psycopg is not installed (pip install 'cmbagent[postgres]')"
    else:
        from tests._postgres import start_postgres

        server = start_postgres()
        if not isinstance(server, str):
            yield server.url
            server.stop()
            return
        reason = server
    if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
        pytest.fail(f"CI must run the PostgreSQL checkpoint tests: {reason}")
    pytest.skip(reason)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The modules that hold a ``slow`` test run first, each in its own order: a several-minute test met near the
    end would leave the other worker idle while it runs.  Longest first keeps that tail short, and the workers take
    pending tests from each other (``--dist worksteal`` in scripts/test.sh) so neither holds the slow block alone."""
    slow = {item.nodeid.split("::")[0] for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.nodeid.split("::")[0] not in slow)
