"""Every error cmbagent raises, classified by who must fix it.

::

    CmbagentError
    ├── UserError                 the caller's mistake; the message says the fix; CLI exit code 2
    │   ├── ConfigError           bad config file, flag, model spec or missing key
    │   ├── TaskError             missing/empty task file, invalid front matter, unmappable task
    │   │   └── TaskUnclear       the task fits several methods or leaves an argument to a guess: a question
    │   ├── FrontMatterError      YAML front matter that cannot be read (callers add which file)
    │   ├── DataError             a data file that cannot be used (names the row/column/problem)
    │   ├── PathError             a file name that cannot be used here: missing, or not allowed
    │   │   └── PathNotAllowed    outside the allowed folders, /proc /sys /dev, a device or FIFO, a symlink out
    │   ├── UnknownMethodError    a method name that is not registered
    │   ├── UnknownAgentError     an agent name that is not in the roster
    │   └── RunInUse              another process is working on this run (its lock is held)
    ├── ModelRetry                fixable by the model: goes back to it as an observation
    ├── ModelError                a model call that failed for good
    │   ├── ModelHTTPError        the provider answered with an error status after retries
    │   │   └── ModelRequestRejected  400/401/403/404/422: the request itself was refused (also a ConfigError)
    │   ├── ModelConnectionError  the endpoint could not be reached after retries
    │   ├── OutputValidationError structured output still invalid after the allowed repairs
    │   └── ReplayDivergence      a replayed run asked something the transcript did not record
    ├── BudgetExceeded            a USD / token / wall-clock budget is spent; the run stops cleanly
    ├── RunCancelled              a person cancelled the run (`cmbagent cancel`, the UI); it stops cleanly
    ├── StorageError              the run folder or checkpoint store cannot be written (disk full, read-only)
    ├── SandboxError              code execution infrastructure
    │   ├── SandboxUnavailable    the requested isolation backend cannot run here (says why)
    │   └── KernelDied            the kernel died and could not be restarted
    └── MethodRegistrationError   a method tool that breaks the method contract (raised at import)

Third-party exceptions are translated at the boundary with ``raise ... from exc``.
"""

from __future__ import annotations

__all__ = [
    "BudgetExceeded",
    "CmbagentError",
    "ConfigError",
    "DataError",
    "FrontMatterError",
    "KernelDied",
    "MethodRegistrationError",
    "ModelConnectionError",
    "ModelError",
    "ModelHTTPError",
    "ModelRequestRejected",
    "ModelRetry",
    "OutputValidationError",
    "PathError",
    "PathNotAllowed",
    "ReplayDivergence",
    "RunCancelled",
    "RunInUse",
    "SandboxError",
    "SandboxUnavailable",
    "StorageError",
    "TaskError",
    "TaskUnclear",
    "UnknownAgentError",
    "UnknownMethodError",
    "UserError",
]


class CmbagentError(Exception):
    """Base of every error raised by cmbagent."""


class UserError(CmbagentError):
    """The caller's mistake. The message states what to change."""


class ConfigError(UserError):
    """A configuration problem: flag, config file, model spec, missing API key."""


class TaskError(UserError):
    """A task file that cannot be run as given."""


class TaskUnclear(TaskError):
    """The task could mean several things and nothing is run on a guess: several methods fit it about equally,
    or an argument could only be guessed.  ``choices`` are the candidates (``method``, ``probability``,
    ``front_matter``: the exact front matter that pins it); ``questions`` what the reader could not decide.
    Callers ask the person (the CLI prints it and exits 2, the UI asks in the chat)."""

    def __init__(self, message: str, *, choices: list[dict[str, object]] | None = None,
                 questions: list[str] | None = None):
        super().__init__(message)
        self.choices = list(choices or [])
        self.questions = list(questions or [])


class FrontMatterError(UserError):
    """A markdown file's YAML front matter cannot be read; the message says what to fix, not which file."""


class DataError(UserError):
    """A data file that cannot be used; the message names the row, column or problem."""


class PathError(UserError):
    """A file name that cannot be used: it is missing, or the path policy does not allow it here."""


class PathNotAllowed(PathError):
    """A file name outside the allowed folders, in /proc, /sys or /dev, not a regular file, or reached
    through a symlink that leaves the allowed folders.  The message says how to allow it (``--data-dir``)
    or what to do instead (attach the file)."""


class UnknownMethodError(UserError):
    """A method name that is not in the registry."""


class UnknownAgentError(UserError):
    """An agent name that is not in the roster."""


class ModelRetry(CmbagentError):
    """Something the model can fix; the message is sent back to it as an observation."""


class ModelError(CmbagentError):
    """A model call failed for good."""


class ModelHTTPError(ModelError):
    """The provider answered with an error status after the configured retries."""

    def __init__(self, message: str, *, status_code: int, model: str | None = None, body: str | None = None):
        super().__init__(message)
        self.status_code = status_code
        self.model = model
        self.body = body


class ModelRequestRejected(ModelHTTPError, ConfigError):
    """The provider refused the request itself (bad key, unknown model, invalid parameter); not retried."""


class ModelConnectionError(ModelError):
    """The provider endpoint could not be reached after the configured retries."""

    def __init__(self, message: str, *, url: str | None = None):
        super().__init__(message)
        self.url = url


class OutputValidationError(ModelError):
    """Structured output was still invalid after the allowed repairs; quotes the output."""

    def __init__(self, message: str, *, output: str = ""):
        super().__init__(message)
        self.output = output


class ReplayDivergence(ModelError):
    """A replayed run made a request that differs from the recorded one."""

    def __init__(self, message: str, *, diff: str = ""):
        super().__init__(message)
        self.diff = diff


class BudgetExceeded(CmbagentError):
    """A budget (USD, tokens or wall-clock seconds) is exhausted."""

    def __init__(self, message: str, *, kind: str = "", limit: float = 0.0, spent: float = 0.0):
        super().__init__(message)
        self.kind = kind
        self.limit = limit
        self.spent = spent


class RunInUse(UserError):
    """Another process holds the run's lock (a second ``resume`` of a run that is still going)."""


class RunCancelled(CmbagentError):
    """The run was asked to stop; it ends ``cancelled`` with a partial report and can be resumed."""


class StorageError(CmbagentError):
    """The run's files or checkpoints cannot be written (disk full, read-only file system, lost database).

    Nothing already written is lost; the message names the place and says to free space (or make it
    writable) and resume.
    """


class SandboxError(CmbagentError):
    """Code-execution infrastructure failed."""


class SandboxUnavailable(SandboxError):
    """The requested isolation backend cannot run on this machine; the message says why."""


class KernelDied(SandboxError):
    """The kernel died and could not be restarted."""


class MethodRegistrationError(CmbagentError):
    """A method tool breaks the method-tool contract."""
