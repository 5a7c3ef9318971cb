"""The ``offline`` model provider, registered from the agents side of the house.

``cmbagent.models`` imports nothing above it; this module adds the deterministic backend
(:class:`cmbagent.agents.OfflineModel`, in ``_offline_model.py``) to the provider table.  It is named by the
``cmbagent.providers`` entry point (``offline = "cmbagent.agents.offline_provider"``), so the table finds it the
first time it is read, and ``cmbagent.agents`` imports it, so the provider is there whenever agents are.
"""

from __future__ import annotations

from cmbagent.agents._offline_model import OfflineModel
from cmbagent.models import Model, Provider, ProviderCall, register_provider

__all__ = ["OFFLINE"]


def _offline(call: ProviderCall) -> Model:
    return OfflineModel()


OFFLINE = register_provider(Provider(
    name="offline", description="deterministic no-LLM backend (method catalogue, front matter)",
    factory=_offline, forms=("offline",), example="offline", model="none", fallback=True, pings=False,
))
