"""The one reader of ``cmbagent.toml``, below every layer that reads the file.

The path policy (``[paths] data_dirs``), the model routing (``[models]``, ``[budget]``), the run
configuration and the knowledge index all read the same file; they share this reader, which imports
nothing of cmbagent but the error hierarchy, so that none of them has to import another for it
(``cmbagent.models`` re-exports both names).
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from cmbagent.exceptions import ConfigError

__all__ = ["CONFIG_FILENAME", "load_config"]

CONFIG_FILENAME = "cmbagent.toml"


def load_config(path: str | os.PathLike[str] | None) -> dict[str, Any]:
    """Read a ``cmbagent.toml`` (``None`` or a missing default file: empty config)."""
    if path is None:
        return {}
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"config file {path} does not exist; create it or drop the option")
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML ({exc}); fix the file") from exc
