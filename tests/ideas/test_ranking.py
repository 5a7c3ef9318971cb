"""Code ranks the ideas from the hater's last review (cmbagent/ideas/_output.py); what it says of an idea the
review did not critique is what happened."""

from __future__ import annotations

from cmbagent.agents import Idea, IdeaCritique, IdeaReview, IdeaSet
from cmbagent.ideas._output import rank_ideas

METHODS = {"cosmology.fit_supernovae"}


def ideas(n: int) -> IdeaSet:
    return IdeaSet(ideas=[Idea(title=f"Idea {k}", question="q", method="cosmology.fit_supernovae", approach="a")
                          for k in range(1, n + 1)])


def test_a_review_that_critiques_other_ideas_is_said_to() -> None:
    """SmolLM2's hater critiqued ideas 104 and 327 of two; the ideas were reported "not reviewed (the run ended
    before the idea hater saw this set)", which was not what happened."""
    stray = IdeaReview(satisfied=False, critiques=[
        IdeaCritique(idea=104, novelty=2, feasibility=3, verdict="v", keep=False),
        IdeaCritique(idea=1, novelty=4, feasibility=5, verdict="Sound.", keep=True)])
    first, second = rank_ideas(ideas(2), stray, METHODS)
    assert first.idea.title == "Idea 1" and first.selected and first.score == 9
    assert second.reasons == "not critiqued: the idea hater's review names other ideas (1, 104)"
    [unseen] = rank_ideas(ideas(1), None, METHODS)
    assert unseen.reasons.startswith("not reviewed (the run ended") and not unseen.selected
