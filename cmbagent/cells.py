"""What a cell prints for the graph to read, defined once: the result markers and the method cell.

A cell reports its numbers as one JSON object printed between :data:`RESULT_BEGIN` and :data:`RESULT_END`
lines; :func:`parse_result` reads the last such object from the cell's output.  A method step runs
:func:`method_cell`, which calls the method tool inside the sandbox and prints its values, artifacts and
checks that way.  Agent prompts quote the markers through the ``{{ result_begin }}`` / ``{{ result_end }}``
placeholders, so they too come from here.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["RESULT_BEGIN", "RESULT_END", "method_cell", "parse_result", "print_result"]

RESULT_BEGIN = "<<<CMBAGENT_RESULT"
RESULT_END = "CMBAGENT_RESULT>>>"
_RESULT = re.compile(re.escape(RESULT_BEGIN) + r"\s*(.*?)\s*" + re.escape(RESULT_END), re.S)


def parse_result(stdout: str) -> dict[str, Any] | None:
    """The last JSON object printed between the result markers, or None."""
    for text in reversed(_RESULT.findall(stdout)):
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    return None


def print_result(expression: str) -> str:
    """Cell lines that print the JSON of ``expression`` (Python source) between the markers."""
    return f"print({RESULT_BEGIN!r})\nprint(json.dumps({expression}))\nprint({RESULT_END!r})\n"


def method_cell(name: str, arguments: dict[str, Any], result_path: str) -> str:
    """The cell that runs a method tool in the sandbox (rendered by code: formatting is not a judgement)."""
    args = json.dumps(json.dumps(arguments, sort_keys=True))
    return (
        "import json, pathlib\n"
        "from cmbagent.tools.methods import run_method\n\n"
        f"_result = run_method({name!r}, json.loads({args}))\n"
        f"pathlib.Path({result_path!r}).write_text(_result.to_json(indent=1))\n"
        "print(_result.summary)\n"
        "for _c in _result.checks:\n"
        "    print(f\"[{'pass' if _c.passed else 'FAIL'}] {_c.name}: {_c.message}\")\n"
        + print_result("{'values': _result.values, 'artifacts': _result.artifacts,\n"
                       "                  'checks': [c.model_dump() for c in _result.checks]}")
    )
