"""Method registry: schemas from signatures, validation at registration, argument checking."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

import pytest

from cmbagent.exceptions import MethodRegistrationError, UnknownMethodError, UserError
from cmbagent.tools import function_schema
from cmbagent.tools.methods import Check, MethodResult, Paper, _registry, get_method, method, run_method

PAPER = Paper(title="A test paper", arxiv="0000.00000")


def scale(x: float, factor: float = 2.0, mode: Literal["mul", "add"] = "mul") -> MethodResult:
    """Scale a number.

    Args:
        x: The number.
        factor: How much.
        mode: Multiply or add.
    """
    value = x * factor if mode == "mul" else x + factor
    return MethodResult(summary=f"got {value}", values={"y": value}, checks=[Check(name="finite", passed=True)])


@pytest.fixture(autouse=True, scope="module")
def _registered() -> Iterator[None]:
    """``testfamily.scale`` is in the catalogue only while this module's tests run.

    Registered at import, it stayed for every later test of the process (pytest imports every test module before
    running any): the offline reader then weighed a method with the keyword "scale" against every task, and a
    prose set read differently inside the whole suite than alone."""
    method("testfamily.scale", paper=PAPER, keywords=["scale"], example="scale(x=2.0)")(scale)
    yield
    _registry._REGISTRY.pop("testfamily.scale", None)
    _registry._FAMILIES.pop("testfamily", None)


def test_schema_is_derived_from_signature() -> None:
    schema = function_schema(scale)
    props = schema["parameters"]["properties"]
    assert schema["description"].startswith("Scale a number.")
    assert props["x"]["type"] == "number" and props["x"]["description"] == "The number."
    assert props["mode"]["enum"] == ["mul", "add"]
    assert schema["parameters"]["required"] == ["x"]


def test_run_method_validates_and_names_result() -> None:
    result = run_method("testfamily.scale", {"x": 3, "mode": "add"})
    assert result.values == {"y": 5.0}
    assert result.method == "testfamily.scale"
    assert result.ok
    spec = get_method("testfamily.scale")
    assert spec.summary == "Scale a number."
    assert spec.keywords == ("scale",)


def test_bad_arguments_are_user_errors() -> None:
    with pytest.raises(UserError, match="unknown argument"):
        run_method("testfamily.scale", {"x": 1, "fator": 2})
    with pytest.raises(UserError, match="mode"):
        run_method("testfamily.scale", {"x": 1, "mode": "pow"})
    with pytest.raises(UserError, match="x"):
        run_method("testfamily.scale", {})


def test_unknown_method_lists_known_ones() -> None:
    with pytest.raises(UnknownMethodError, match=r"testfamily\.scale"):
        get_method("testfamily.nothing")


def test_registration_rejects_contract_breaks() -> None:
    with pytest.raises(MethodRegistrationError, match=r"family\.method"):
        method("NoDot", paper=PAPER)
    with pytest.raises(MethodRegistrationError, match="docstring"):

        @method("testfamily.nodoc", paper=PAPER)
        def nodoc(x: int) -> MethodResult:
            return MethodResult(summary="")

    with pytest.raises(MethodRegistrationError, match="annotation"):

        @method("testfamily.untyped", paper=PAPER)
        def untyped(x) -> MethodResult:  # type: ignore[no-untyped-def]
            """Doc."""
            return MethodResult(summary="")

    with pytest.raises(MethodRegistrationError, match="MethodResult"):

        @method("testfamily.wrongreturn", paper=PAPER)
        def wrong(x: int) -> dict:  # type: ignore[type-arg]
            """Doc."""
            return {}


def test_result_is_json_clean() -> None:
    import numpy as np

    result = MethodResult(summary="s", values={"a": np.float64(1.5), "b": np.array([1, 2]), "c": float("nan")})
    assert result.values == {"a": 1.5, "b": [1, 2], "c": None}
    assert MethodResult.from_json(result.to_json()) == result


def test_concurrent_first_lookups_see_a_complete_registry() -> None:
    """Several runs starting at once (the UI's worker threads) must all find a built-in method."""
    import importlib
    import threading

    from cmbagent.tools.methods import _registry

    # forget what was loaded so that the threads race on the first load
    _registry._LOADED = False
    _registry._LOADED_FAMILIES.clear()
    for name in [n for n in _registry._REGISTRY if n.startswith("cosmology.")]:
        del _registry._REGISTRY[name]
    import sys

    for module in [m for m in sys.modules if m.startswith("cmbagent.tools.methods.cosmology")]:
        del sys.modules[module]
    errors: list[BaseException] = []

    def lookup() -> None:
        try:
            get_method("cosmology.fit_supernovae")
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=lookup) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    importlib.import_module("cmbagent.tools.methods.cosmology")


def test_family_facts_are_declared_once_and_read_back() -> None:
    from cmbagent.tools.methods import family, get_family, iter_families

    declared = family("testfamily", title="Test family", expert="researcher", description="For tests.")
    assert family("testfamily", title="Test family", expert="researcher", description="For tests.") == declared
    assert get_family("testfamily") == declared
    with pytest.raises(MethodRegistrationError, match="declared twice"):
        family("testfamily", title="Another title")
    with pytest.raises(MethodRegistrationError, match="lower snake case"):
        family("Bad-Name", title="x")
    # built-in families declare their expert agent next to their methods
    assert get_family("cosmology").expert == "cosmologist"
    assert {f.name for f in iter_families()} >= {"cosmology", "causal", "anomaly", "robustness", "testfamily"}
    # a family that declares nothing still has a readable title and the generic expert
    assert get_family("nosuchfamily").expert == "researcher"
