"""Files a visitor attached: only files already in Gradio's upload folder, never a name the client chose.

A page (or any client of the Gradio API) sends an attachment as a ``FileData`` whose ``path`` it writes
itself.  Gradio then copies that path into its cache, or downloads it when it is a URL, before any handler
runs; its own check that the path is an upload is skipped for an app mounted with ``mount_gradio_app``
(it runs only after ``launch()``).  So a crafted call naming ``/proc/self/environ`` would have the server copy
its own environment into the visitor's run, and a URL would make the server a proxy.  :class:`AttachedFiles`
puts the path policy at that point: a path must resolve, strictly, to a regular file inside Gradio's upload
folder (where ``/gradio_api/upload`` writes; :func:`cmbagent.ui._tasks.uploaded_file`), and nothing is ever
downloaded.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import gradio as gr
import gradio.component_meta

from cmbagent.exceptions import UserError
from cmbagent.ui._tasks import uploaded_file

__all__ = ["AttachedFiles"]


@contextlib.contextmanager
def _no_stub_file() -> Iterator[None]:
    """Gradio's component metaclass writes a ``.pyi`` stub beside the module of every new component class (a
    helper for component authors); a class of ours must not write into the installed package at import."""
    write = gradio.component_meta.create_or_modify_pyi
    gradio.component_meta.create_or_modify_pyi = lambda *args, **kwargs: None
    try:
        yield
    finally:
        gradio.component_meta.create_or_modify_pyi = write


with _no_stub_file():

    class AttachedFiles(gr.File):
        """``gr.File`` whose values must be this app's own uploads (see the module docstring); Gradio builds
        a session's updated copy of a component from its class, so the check lives in the class."""

        def get_block_name(self) -> str:
            return "file"  # the same component in the page

        async def async_move_resource_to_block_cache(self, url_or_file_path: str | Path | None) -> str | None:
            if url_or_file_path is None:
                return None
            return await super().async_move_resource_to_block_cache(self._checked(url_or_file_path))

        def move_resource_to_block_cache(self, url_or_file_path: str | Path | None) -> str | None:
            if url_or_file_path is None:
                return None
            return super().move_resource_to_block_cache(self._checked(url_or_file_path))

        @staticmethod
        def _checked(name: str | Path) -> str:
            try:
                uploaded_file(name)
            except UserError as exc:
                raise gr.Error(str(exc)) from None
            return str(name)
