"""What the idea team (idea maker and idea hater) is told: the brief of a task, and the context of one call.

The brief is the team's task message: :meth:`IdeaBrief.render` is sent as it is, and every later message
is the JSON of an :class:`IdeaSet` or an :class:`IdeaReview`.  So the context of one call
(:class:`IdeaContext`: the brief plus the latest idea set and review the agent can see) holds exactly what
the messages carry, and rules (the offline backend, scripted test models) read it instead of parsing prose.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, Field

from cmbagent.agents._context import AgentContext, Passage
from cmbagent.agents._render import clip
from cmbagent.agents._schemas import IdeaReview, IdeaSet

__all__ = ["DataFile", "IdeaBrief", "IdeaContext"]

TEXT_CHARS = 5000
CATALOGUE_CHARS = 6000
PASSAGES_CHARS = 5000


class DataFile(BaseModel):
    """A data file of the task, as code read it: run-relative path, rows, columns (empty when not a table)."""

    path: str
    bytes: int
    rows: int | None = None
    columns: list[str] = Field(default_factory=list)

    def line(self) -> str:
        shape = f", {self.rows} rows" if self.rows is not None else ""
        cols = f"; columns: {', '.join(self.columns[:60])}" if self.columns else ""
        more = f" (+{len(self.columns) - 60} more)" if len(self.columns) > 60 else ""
        return f"- {self.path} ({self.bytes} bytes{shape}){cols}{more}"


class IdeaBrief(AgentContext):
    """The task as the idea team gets it: its words, its data, the method catalogue and indexed passages."""

    title: str
    text: str  # clipped by code
    method: str | None = None  # the method the task names or maps to
    arguments: dict[str, Any] = Field(default_factory=dict)  # the task's own method arguments
    data: list[DataFile] = Field(default_factory=list)
    methods: list[str] = Field(default_factory=list)  # catalogue lines ("- name: summary (arguments: ...)")
    passages: list[Passage] = Field(default_factory=list)  # the index's top hits for the task (when given)
    n_ideas: int
    rounds: int

    @property
    def data_paths(self) -> list[str]:
        return [f.path for f in self.data]

    def sections(self) -> list[tuple[str, str]]:
        posed = f"{self.method} with arguments {json.dumps(self.arguments, default=str)}" if self.method else ""
        return [("Task", f"{self.title}\n\n{clip(self.text, TEXT_CHARS)}"),
                ("The task as posed", posed),
                ("Data files (paths as ideas must name them)", "\n".join(f.line() for f in self.data) or "(none)"),
                ("Method catalogue (every idea uses one of these)", clip("\n".join(self.methods), CATALOGUE_CHARS)),
                ("Passages from the knowledge index",
                 clip("\n\n".join(p.block() for p in self.passages), PASSAGES_CHARS)),
                ("What to produce", f"{self.n_ideas} research ideas, revised over at most {self.rounds} "
                                    "round(s) of criticism.")]


class IdeaContext(AgentContext):
    """One call of the idea maker or hater: the brief and the latest idea set and review in its messages."""

    brief: IdeaBrief
    ideas: IdeaSet | None = None
    review: IdeaReview | None = None

    def sections(self) -> list[tuple[str, str]]:
        return [*self.brief.sections(),
                ("Latest ideas", self.ideas.model_dump_json(indent=1) if self.ideas else ""),
                ("Latest review", self.review.model_dump_json(indent=1) if self.review else "")]
