#!/usr/bin/env bash
# Run the whole test suite (slow and browser tests included) on two workers, then lint the core.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${VENV:-.venv}"
export GRADIO_ANALYTICS_ENABLED=False HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
"$VENV/bin/ruff" check .
"$VENV/bin/python" -m pytest -n "${PYTEST_WORKERS:-2}" --durations=15 "$@"
