# syntax=docker/dockerfile:1
# The cmbagent app image: the Gradio chat UI, and the image of the HuggingFace Space (docker/space/).
#
#   docker build -f docker/app.Dockerfile -t cmbagent-app .
#   docker run --rm -p 7860:7860 cmbagent-app                 # offline backend, no key needed
#   docker run --rm -p 7860:7860 -e OPENAI_API_KEY=... cmbagent-app
#
# Agent-written code runs in a Jupyter kernel under bubblewrap (installed below).  bubblewrap needs user
# namespaces; where the host forbids them (some container platforms), set CMBAGENT_UI_SANDBOX=process: the
# container is then the isolation boundary.  scripts/build_space.py builds the Space from this file with
# SRC=project (the Space folder keeps the source tree under project/).
FROM python:3.11-slim-bookworm

ARG SRC=.
ARG TORCH_VERSION=2.13.0

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    GRADIO_ANALYTICS_ENABLED=False \
    HF_HUB_OFFLINE=1 \
    TRANSFORMERS_OFFLINE=1 \
    MPLBACKEND=Agg \
    GRADIO_SERVER_NAME=0.0.0.0 \
    GRADIO_SERVER_PORT=7860 \
    CMBAGENT_UI_WORKSPACES=/home/user/workspaces \
    CMBAGENT_UI_SANDBOX=auto

# Debian's security updates replace exact package versions, so apt packages are not pinned.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends bubblewrap tini \
    && rm -rf /var/lib/apt/lists/*

# HuggingFace Spaces run the container as uid 1000
RUN useradd --create-home --uid 1000 user

COPY --chown=1000:1000 ${SRC} /opt/cmbagent-src
# torch first, from the CPU wheel index (the default index would pull a multi-GB CUDA build)
RUN pip install --no-cache-dir "torch==${TORCH_VERSION}" --index-url https://download.pytorch.org/whl/cpu \
    && pip install --no-cache-dir "/opt/cmbagent-src[ui,methods]" \
    && pip install --no-cache-dir --no-deps "balance==0.23.0" \
    && python -c "import cmbagent, cmbagent.ui"

USER 1000
WORKDIR /home/user/app
COPY --chown=1000:1000 app.py ./app.py
COPY --chown=1000:1000 examples ./examples
RUN mkdir -p /home/user/workspaces

EXPOSE 7860
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["python", "app.py"]
