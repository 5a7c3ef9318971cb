"""HuggingFace Space entry point: the same app as ``cmbagent ui``, configured from the environment.

Space secrets arrive as environment variables: ``OPENAI_API_KEY``/``ANTHROPIC_API_KEY`` (used when a visitor
gives no key of their own), ``CMBAGENT_MODEL`` (default model; ``offline`` when unset),
``CMBAGENT_UI_MAX_CONCURRENT_RUNS``, ``CMBAGENT_UI_MAX_BUDGET_USD`` (caps every run), ``CMBAGENT_UI_AUTH``
(USER:PASS), ``CMBAGENT_UI_SANDBOX`` (auto, bwrap, docker, process) and ``CMBAGENT_UI_WORKSPACES``.
The port is ``GRADIO_SERVER_PORT`` (7860) and the interface ``GRADIO_SERVER_NAME`` (0.0.0.0 in the image).
"""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")


def main() -> None:
    from cmbagent.ui import UISettings, serve

    here = Path(__file__).resolve().parent
    settings = UISettings.from_env()
    if settings.examples_dir is None and (here / "examples").is_dir():
        settings.examples_dir = here / "examples"
    host = os.environ.get("GRADIO_SERVER_NAME", "127.0.0.1")
    port = int(os.environ.get("GRADIO_SERVER_PORT", "7860"))
    print(f"cmbagent UI on http://{host}:{port}/ (runs under {settings.workspaces.resolve()})", flush=True)
    serve(settings, host=host, port=port)


if __name__ == "__main__":
    main()
