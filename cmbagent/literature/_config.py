"""Where indexes live: one folder holding a chromadb store and a manifest of what was indexed.

Precedence, lowest to highest (the environment is read only here, at the edge)::

    1. the user's data folder        <user data dir>/cmbagent/index  (platformdirs)
    2. cmbagent.toml                 [index] dir = "..."  (relative paths: relative to the file)
    3. environment                   CMBAGENT_INDEX_DIR
    4. an explicit argument / flag   --index-dir
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cmbagent.exceptions import ConfigError

__all__ = ["DEFAULT_COLLECTION", "ENV_INDEX_DIR", "METHODS_COLLECTION", "check_collection", "default_index_dir"]

DEFAULT_COLLECTION = "default"
METHODS_COLLECTION = "cmbagent-methods"
ENV_INDEX_DIR = "CMBAGENT_INDEX_DIR"
_COLLECTION = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{1,62}[A-Za-z0-9]$")


def check_collection(name: str) -> str:
    """``name`` if it is a valid collection name, else ConfigError saying what a valid one looks like."""
    if not isinstance(name, str) or not _COLLECTION.match(name) or ".." in name:
        raise ConfigError(
            f"collection name {name!r} is not valid: use 3-64 letters, digits, '.', '_' or '-', starting and "
            "ending with a letter or digit (e.g. 'papers' or 'project-code')"
        )
    return name


def default_index_dir(
    *,
    config: Mapping[str, Any] | None = None,
    config_path: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
) -> Path:
    """The index folder from the environment, a ``cmbagent.toml`` ``[index]`` table, or the user data folder."""
    env = os.environ if env is None else env
    if env.get(ENV_INDEX_DIR):
        return Path(env[ENV_INDEX_DIR]).expanduser()
    table = (config or {}).get("index", {})
    if not isinstance(table, Mapping):
        raise ConfigError("[index] in cmbagent.toml must be a table, e.g. [index]\\ndir = \"~/papers-index\"")
    if table.get("dir"):
        value = Path(str(table["dir"])).expanduser()
        if not value.is_absolute() and config_path is not None:
            value = Path(config_path).resolve().parent / value
        return value
    from platformdirs import user_data_path

    return user_data_path("cmbagent", appauthor=False) / "index"
