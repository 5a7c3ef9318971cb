"""The task as the run holds it (:class:`TaskSpec`) and as the task analyst restates it (:class:`TaskBrief`)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from cmbagent.state._requirements import Requirement

__all__ = ["TaskBrief", "TaskSpec"]


class TaskSpec(BaseModel):
    """A parsed task inside a run: run-relative data paths, front matter without its ``arguments``.

    Built by code from ``task.md`` (see :mod:`cmbagent.task`); small enough to checkpoint.
    """

    text: str
    title: str
    method: str | None = None
    arguments: dict[str, Any] = Field(default_factory=dict)  # file arguments point into the run's data/
    data_files: list[str] = Field(default_factory=list)
    front_matter: dict[str, Any] = Field(default_factory=dict)

    @property
    def seed(self) -> int | None:
        """The seed the front matter asks for (top-level ``seed:``), if any."""
        value = self.front_matter.get("seed")
        return value if isinstance(value, int) and not isinstance(value, bool) else None


class TaskBrief(BaseModel):
    """The task restated as something a planner can decompose.

    Every list is bounded (``maxItems`` in the schema): a grammar-constrained decoder then has to close it, where
    a small model would otherwise repeat one entry until its token limit (SmolLM2-135M listed one data file
    for 8,192 tokens).
    """

    title: str = Field(description="Short title of the task.")
    objective: str = Field(description="What must be found out or produced, in one or two sentences.")
    domain: str = Field(default="", description="Scientific field, e.g. cosmology, causal inference.")
    data_files: list[str] = Field(default_factory=list, max_length=20,
                                  description="Input files (paths inside the run folder).")
    method: str | None = Field(default=None, description="A method tool the task asks for, if any.")
    arguments: dict[str, Any] = Field(default_factory=dict, max_length=24,
                                      description="Method arguments the task states.")
    constraints: list[str] = Field(default_factory=list, max_length=12, description="Explicit requirements and limits.")
    deliverables: list[str] = Field(default_factory=list, max_length=12,
                                    description="Numbers, figures or text to deliver.")
    requirements: list[Requirement] = Field(
        default_factory=list, max_length=24,
        description="Every explicit requirement of the task, one item each: the method argument values it states "
                    "(model and variant, priors, data files and columns, label column, numbers of labels, folds, "
                    "seeds; an argument a column list must not contain is relation 'excludes') and the outputs it "
                    "asks for (|x − ref|, which method is best, a figure). Code checks each at the end.")
