"""The task brief a model writes has bounded lists and mappings: a grammar-constrained decoder must close them.

SmolLM2-135M under llama.cpp's json_schema grammar repeated one data file until its 8,192-token limit when
``data_files`` had no ``maxItems`` (issue 16); with the bound the grammar ends the list.
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from cmbagent.state import TaskBrief


def _unbounded(node: Any, path: str = "") -> list[str]:
    found: list[str] = []
    if isinstance(node, dict):
        if node.get("type") == "array" and "maxItems" not in node:
            found.append(path)
        if node.get("type") == "object" and node.get("additionalProperties") not in (None, False) \
                and "maxProperties" not in node:
            found.append(path)
        for key, value in node.items():
            found += _unbounded(value, f"{path}/{key}")
    elif isinstance(node, list):
        for n, value in enumerate(node):
            found += _unbounded(value, f"{path}/{n}")
    return found


def test_every_list_and_open_mapping_of_the_brief_is_bounded() -> None:
    schema = TaskBrief.model_json_schema()
    assert _unbounded({k: v for k, v in schema.items() if k != "$defs"}) == []


def test_a_brief_past_its_bounds_is_refused_with_the_field_named() -> None:
    with pytest.raises(ValidationError, match="data_files"):
        TaskBrief(title="t", objective="o", data_files=[f"data/{n}.csv" for n in range(21)])
