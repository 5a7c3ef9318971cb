"""The one reader of YAML front matter (task files, agent prompts, the UI's uploaded tasks).

::

    meta, body = split_front_matter("---\\ntitle: x\\n---\\nDo it.\\n")   # ({'title': 'x'}, 'Do it.\\n')
    split_front_matter("No front matter.")                               # (None, 'No front matter.')

A file that opens a front matter (a first line ``---``) but does not close it, holds invalid YAML or holds
something other than a mapping raises :class:`FrontMatterError`; callers add which file it was.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from cmbagent.exceptions import FrontMatterError

__all__ = ["MAX_FRONT_MATTER", "load_yaml", "split_front_matter"]

_BLOCK = re.compile(r"^---[ \t]*\r?\n(?:(.*?)\r?\n)?---[ \t]*(?:\r?\n|$)", re.S)
#: the most front matter a file may have (a real one is a few hundred bytes)
MAX_FRONT_MATTER = 64 * 1024


class _NoAliasLoader(yaml.SafeLoader):
    """YAML without aliases and with plain values only.

    Aliases: ``*name`` makes nested data that is tiny on the wire but exponential to walk (a "billion laughs"
    task would hold a server thread for hours); no task needs one.  Plain values: strings, numbers, booleans,
    null, lists and mappings, as JSON has.  ``!!binary`` would give bytes, which a path check does not read as
    a file name but a method's ``str`` argument takes as one; ``!!set``, ``!!omap`` and ``!!pairs`` are
    refused too, and a date stays the text it was written as.
    """

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(None, None, "YAML aliases (*name) are not accepted", event.start_mark)
        return super().compose_node(parent, index)

    def _refuse(self, node: Any) -> Any:
        raise yaml.constructor.ConstructorError(None, None, f"YAML {node.tag} values are not accepted", node.start_mark)


for _tag in ("binary", "set", "omap", "pairs"):
    _NoAliasLoader.add_constructor(f"tag:yaml.org,2002:{_tag}", _NoAliasLoader._refuse)


def _as_text(loader: _NoAliasLoader, node: Any) -> str:
    return str(loader.construct_scalar(node))


_NoAliasLoader.add_constructor("tag:yaml.org,2002:timestamp", _as_text)


def load_yaml(text: str) -> Any:
    """Parse front-matter YAML safely: no Python objects, no aliases, bounded size (``yaml.YAMLError`` else)."""
    if len(text) > MAX_FRONT_MATTER:
        raise yaml.YAMLError(f"the front matter is longer than {MAX_FRONT_MATTER // 1024} KB")
    return yaml.load(text, Loader=_NoAliasLoader)  # a SafeLoader subclass: no Python objects


def split_front_matter(text: str) -> tuple[dict[str, Any] | None, str]:
    """``(front matter, body)``; the front matter is ``None`` when the text has none (a BOM is ignored)."""
    stripped = text.lstrip("\ufeff")
    if not stripped.startswith("---"):
        return None, stripped
    match = _BLOCK.match(stripped)
    if match is None:
        raise FrontMatterError("the front matter is not closed; end it with a line '---'")
    try:
        meta = load_yaml(match.group(1) or "")
    except yaml.YAMLError as exc:
        detail = str(exc).replace("\n", " ")
        raise FrontMatterError(
            f"the front matter is not valid YAML ({detail}); fix the YAML between the '---' lines"
        ) from None
    if meta is None:
        meta = {}
    if not isinstance(meta, dict):
        raise FrontMatterError("the front matter must be a mapping of keys to values, such as 'title: ...'")
    return meta, stripped[match.end():]
