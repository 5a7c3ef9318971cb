#!/usr/bin/env bash
# mypy over the core. The design's folders map into cmbagent.* only through setuptools' package-dir, which
# mypy cannot follow, so mirror the mapping as a tree of symlinks and check that tree as package cmbagent.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${VENV:-.venv}"
tree="$(mktemp -d)"
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/cmbagent"
for entry in cmbagent/*; do ln -s "$PWD/$entry" "$tree/cmbagent/$(basename "$entry")"; done
for folder in agents planner tools sandbox prompts; do ln -s "$PWD/$folder" "$tree/cmbagent/$folder"; done
MYPYPATH="$tree" "$VENV/bin/mypy" --config-file pyproject.toml --cache-dir "${MYPY_CACHE:-.mypy_cache}" -p cmbagent "$@"
