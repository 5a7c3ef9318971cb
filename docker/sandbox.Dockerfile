# The sandbox image for cmbagent's `docker` backend: a Python with ipykernel, the scientific stack and
# cmbagent itself (a regular, non-editable install), run by the backend as an unprivileged user with
# --network none, a read-only root file system, no capabilities and a size-limited tmpfs /tmp.
#
#   docker build -f docker/sandbox.Dockerfile -t cmbagent-sandbox:latest .
#   docker build -f docker/sandbox.Dockerfile --build-arg EXTRAS=methods -t cmbagent-sandbox:latest .
#
# EXTRAS=methods adds the method-tool dependencies (torch from the CPU wheel index, scikit-learn, ...).
# The backend finds the image by name (CMBAGENT_SANDBOX_IMAGE overrides it); `cmbagent doctor` says
# whether it is present.
FROM python:3.11-slim

ARG EXTRAS=""
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PATH=/opt/venv/bin:$PATH

# CPU torch first, pinned, so the extras never pull a CUDA build
RUN python -m venv /opt/venv \
    && if [ -n "$EXTRAS" ]; then \
        pip install --index-url https://download.pytorch.org/whl/cpu "torch==2.*"; \
    fi

WORKDIR /src
COPY pyproject.toml setup.py README.md* ./
COPY cmbagent ./cmbagent
COPY agents ./agents
COPY planner ./planner
COPY tools ./tools
COPY sandbox ./sandbox
COPY prompts ./prompts
# the project itself, from this build context (its dependencies are ranged in pyproject.toml)
# hadolint ignore=DL3013
RUN pip install ".${EXTRAS:+[$EXTRAS]}" \
    && python -c "import ipykernel, numpy, scipy, astropy, matplotlib, cmbagent.sandbox" \
    && rm -rf /src

WORKDIR /
USER 65534:65534
CMD ["python", "-m", "ipykernel_launcher", "--help"]
