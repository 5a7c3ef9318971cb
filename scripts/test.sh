#!/usr/bin/env bash
# Lint (ruff), type-check the core (mypy), then run the whole test suite (slow and browser tests included)
# on two workers; a worker that runs dry takes pending tests from the other (--dist worksteal), so the slow
# modules, which run first (tests/conftest.py), do not leave one worker idle at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${VENV:-.venv}"
export GRADIO_ANALYTICS_ENABLED=False HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
"$VENV/bin/ruff" check .
bash scripts/typecheck.sh
"$VENV/bin/python" -m pytest -n "${PYTEST_WORKERS:-2}" --dist worksteal --durations=15 "$@"
