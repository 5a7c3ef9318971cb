"""The Gradio chat UI (``cmbagent ui``) and the HuggingFace Space entry (``app.py``).

Gradio is imported only when an app is built, so importing this package is cheap.
"""

from __future__ import annotations

from cmbagent.ui._server import create_server, serve
from cmbagent.ui._settings import UISettings, parse_auth, parse_hosts

__all__ = ["UISettings", "create_server", "parse_auth", "parse_hosts", "serve"]
