"""Typed results of code execution and the small interface every sandbox backend implements."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, Field

__all__ = ["CellResult", "CellStatus", "Executor", "Heartbeat", "StreamText"]

CellStatus = Literal["ok", "error", "timeout", "restarted", "died"]


class StreamText(BaseModel):
    """A bounded text stream: head and tail kept, the middle dropped and counted."""

    text: str = ""
    dropped_bytes: int = 0


class CellResult(BaseModel):
    """What executing one cell produced.

    status:
        ``ok`` the cell ran to completion; ``error`` it raised; ``timeout`` it ran past its limit and was
        interrupted; ``restarted`` the kernel died or would not interrupt and was restarted (state lost);
        ``died`` the kernel died and could not be restarted.
    """

    status: CellStatus
    stdout: StreamText = Field(default_factory=StreamText)
    stderr: StreamText = Field(default_factory=StreamText)
    results: list[dict[str, Any]] = Field(default_factory=list)  # rich results: mime-type -> data (text kinds)
    images: list[str] = Field(default_factory=list)  # paths of image files written into figures/
    error_name: str | None = None
    error_value: str | None = None
    traceback: str | None = None
    duration_s: float = 0.0
    message: str = ""  # what happened, for a person or the debugger agent (timeouts, restarts)
    execution_count: int | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"


@dataclass(frozen=True)
class Heartbeat:
    """Signs of life of a long cell: ``beat(elapsed_s, last_line)`` every ``every_s`` seconds while it runs.

    ``last_line`` is the last line the cell printed so far (``""`` if none).  A beat that raises is ignored:
    a listener never breaks a cell.
    """

    beat: Callable[[float, str], None]
    every_s: float = 30.0

    def __post_init__(self) -> None:
        if not self.every_s > 0:
            raise ValueError(f"Heartbeat.every_s must be positive (got {self.every_s})")

    def send(self, elapsed: float, last_line: str) -> None:
        try:
            self.beat(elapsed, last_line)
        except Exception:
            pass


class Executor(ABC):
    """A persistent place to run cells (one per run)."""

    @abstractmethod
    def execute(self, code: str, *, timeout: float | None = None, heartbeat: Heartbeat | None = None) -> CellResult:
        """Run ``code`` as one cell; never raises for errors in the code itself.  With ``heartbeat``, a cell
        that runs longer than ``heartbeat.every_s`` reports its elapsed time and last output line."""

    @abstractmethod
    def close(self) -> None:
        """Stop the kernel and every process it started."""

    def cancel(self) -> None:  # noqa: B027 - optional: executors whose cells cannot be stopped ignore it
        """Stop the cell in flight and the kernel, from any thread (the run was cancelled); later cells get
        status ``died``.  The default does nothing: the cell in flight then runs to its end."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
