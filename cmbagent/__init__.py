"""cmbagent: research automation with a Planning & Control graph of specialised agents.

Heavy modules are imported lazily so that ``import cmbagent`` and ``cmbagent --help`` stay fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cmbagent._version import __version__

if TYPE_CHECKING:  # pragma: no cover
    from cmbagent.api import RunResult, RunSettings, resume, solve

__all__ = ["RunResult", "RunSettings", "__version__", "resume", "solve"]


def __getattr__(name: str) -> Any:
    if name in {"solve", "resume", "RunResult", "RunSettings"}:
        from cmbagent import api

        return getattr(api, name)
    raise AttributeError(f"module 'cmbagent' has no attribute {name!r}")
