"""A critic's rejection of a method step counts only when it cites the result (cmbagent/audits/_critics.py)."""

from __future__ import annotations

from cmbagent.audits import Grounds, finding, weigh_critics
from cmbagent.state import CheckResult, CriterionResult, Critique, Finding, Severity

VALUES = {"Omega_m": {"mean": 0.3512, "std": 0.0183}, "chi2": 1745.31, "n_sn": 1701, "dof": 1700}
CHECKS = [CheckResult(name="chi2_per_dof", passed=True, message="chi2/dof = 1.03"),
          CheckResult(name="converged", passed=True)]
FOUND = [finding("fit.chi2_low", "chi2 is low").model_copy(update={"step_id": "s1"})]


def grounds(figures: tuple[str, ...] = ()) -> Grounds:
    return Grounds.of(values=VALUES, checks=CHECKS, findings=FOUND, figures=figures)


def weigh(*verdicts: tuple[str, Critique], raised: list[Finding] | None = None, saw_images: bool = False,
          figures: tuple[str, ...] = ()) -> tuple[set[str], list[Finding]]:
    return weigh_critics(list(verdicts), raised or [], grounds(figures), step_id="s1", cell="cell.py",
                         saw_images=saw_images)


def test_noise_is_set_aside_and_said() -> None:
    noise = Critique(accepted=False, verdict="fine", issues=["a2", "c1", "c2", "Merger, 2022-11-12 11:11:00 PM"],
                     criteria=[CriterionResult(criterion="A", met=False, evidence="Dies eines ")])
    set_aside, found = weigh(("step_critic", noise), ("science_checker", Critique(accepted=True, verdict="ok")))
    assert set_aside == {"step_critic"}
    [warning] = found
    assert warning.code == "critic.unsupported" and warning.severity is Severity.WARNING
    assert warning.step_id == "s1" and warning.source == "step_critic" and warning.cell == "cell.py"
    assert "'fine'" in warning.message and "'c1'" in warning.message and "not acted on" in warning.message


def test_a_rejection_that_names_a_value_a_check_a_finding_or_a_number_stands() -> None:
    cited = [
        Critique(accepted=False, verdict="Omega_m is far from the Planck value."),  # a value by name
        Critique(accepted=False, verdict="bad", issues=["the OMEGA_M error bar is too small"]),  # case aside
        Critique(accepted=False, verdict="bad", issues=["chi2_per_dof says nothing about the covariance"]),
        Critique(accepted=False, verdict="bad", issues=["see fit.chi2_low: the errors are overestimated"]),
        Critique(accepted=False, verdict="bad", issues=["0.351 is 2.8 sigma above 0.3"]),  # rounded as written
        Critique(accepted=False, verdict="bad", issues=["a chi2 of 1745.3 for 1700 points"]),
        Critique(accepted=False, verdict="bad", criteria=[CriterionResult(criterion="fit", met=False,
                                                                          evidence="a spread of 0.0183 is small")]),
    ]
    for critique in cited:
        assert weigh(("step_critic", critique)) == (set(), []), critique


def test_numbers_that_match_by_chance_do_not_ground_a_rejection() -> None:
    # small integers and years: "c1", "12", "2022" are not numbers of the result even where one equals one
    for text in ["c1", "12", "2022 and 11", "0.5", "0.3", "0.35", "1.0 for each edge", "issue 1701a", "x1745.31"]:
        assert not grounds().cites(text), text
    assert grounds().cites("1701 supernovae")  # an integer of three digits or more is quoted, not guessed


def test_a_critics_findings_that_cite_nothing_are_quoted_not_counted() -> None:
    raised = [
        Finding(code="cmbagent_result", severity=Severity.ERROR, step_id="s1", message="Merger, 2022-11-12",
                source="science_checker"),
        Finding(code="a1.6.264", severity=Severity.NOTE, step_id="s1", message="no", source="science_checker"),
        Finding(code="fit.covariance_missing", severity=Severity.ERROR, step_id="s1",
                message="chi2 = 1745.31 without the systematic covariance", source="science_checker"),
    ]
    set_aside, found = weigh(("science_checker", Critique(accepted=True, verdict="ok")), raised=raised)
    assert set_aside == set()
    assert [(f.code, f.severity) for f in found] == [("fit.covariance_missing", Severity.ERROR),
                                                     ("critic.unsupported", Severity.WARNING)]
    note = found[1]
    assert note.message.startswith("science_checker's finding(s) cite nothing of the result, or cite it without a "
                                   "reason, and are not counted")
    assert "error: cmbagent_result: Merger, 2022-11-12" in note.message and "a1.6.264" in note.message
    assert note.evidence["rejection_set_aside"] is False and len(note.evidence["uncited"]) == 2
    # rejected as well: one warning says both
    noise = Critique(accepted=False, verdict="failed", issues=["cmb_ag"])
    set_aside, found = weigh(("science_checker", noise), raised=raised[:1])
    [note] = found
    assert set_aside == {"science_checker"} and "rejected this step" in note.message
    assert "; its finding(s) cite nothing" in note.message


def test_a_plot_critic_that_saw_the_images_may_reject_what_it_saw() -> None:
    unlabeled = Critique(accepted=False, verdict="The axes have no labels.")
    assert weigh(("plot_critic", unlabeled), saw_images=True) == (set(), [])
    # without the images it judged file names: it must name one, or a plot finding
    assert weigh(("plot_critic", unlabeled))[0] == {"plot_critic"}
    named = Critique(accepted=False, verdict="hubble.png is empty: 812 bytes")
    assert weigh(("plot_critic", named), figures=("figures/hubble.png",)) == (set(), [])


def test_a_rejection_that_only_repeats_a_note_is_set_aside() -> None:
    """SmolLM2 rejected a WSAD-DT run with "error: method.loses_to_baseline", the note it had been shown (the
    task expects the method to lose): the audits had already weighed it as context."""
    note = finding("method.loses_to_baseline", "wsad_dt ranks 3 of 4", severity=Severity.NOTE)
    with_note = Grounds.of(values=VALUES, checks=CHECKS, findings=[*FOUND, note])
    echo = Critique(accepted=False, verdict="fine", issues=["error: method.loses_to_baseline"])
    set_aside, [warning] = weigh_critics([("step_critic", echo)], [], with_note, step_id="s1", cell=None)
    assert set_aside == {"step_critic"} and warning.code == "critic.unsupported"
    assert "only findings the audits rated notes" in warning.message
    # a warning's code, or a number of the result beside the note, still grounds a rejection
    for text in ["method.loses_to_baseline and fit.chi2_low", "method.loses_to_baseline: Omega_m 0.351 is too high"]:
        critique = Critique(accepted=False, verdict="bad", issues=[text])
        assert weigh_critics([("step_critic", critique)], [], with_note, step_id="s1", cell=None) == (set(), [])
    # a critic's own finding that names the note is still counted (it is about the result)
    raised = [Finding(code="method.weak", severity=Severity.WARNING, step_id="s1", source="science_checker",
                      message="see method.loses_to_baseline: the margin is wide")]
    accepted = Critique(accepted=True, verdict="ok")
    assert weigh_critics([("science_checker", accepted)], raised, with_note, step_id="s1", cell=None) == (set(), raised)


def test_the_methods_own_name_cites_nothing() -> None:
    """SmolLM2's noise finding ``causal.dml_ate.c`` named the figure ``figures/dml_ate.png`` by its stem, which is
    the method's own name that the critic saw all over its context."""
    named = Grounds.of(values={"ate": {"mean": 4.013, "std": 0.101}}, checks=[], findings=[],
                       figures=["figures/dml_ate.png"], method="causal.dml_ate")
    for noise in ["causal.dml_ate.c C++00000001", "dml_ate", "causal.dml_ate failed", "causal"]:
        assert not named.cites(noise), noise
    assert named.cites("dml_ate.png has no axis labels") and named.cites("the ate is biased")


def test_an_accepting_critics_error_findings_are_warnings() -> None:
    """SmolLM2's step critic accepted the LIF step and, in the same reply, filed its region counts as error
    findings coded after the figure: they cited the result (its numbers, its figure), so they rejected the step
    and the method ran again.  A critic that accepts rated nothing an error: they are kept as warnings."""
    from cmbagent.audits import critic_findings
    from cmbagent.state import CriticFinding

    echo = CriticFinding(code="figures_lif_regions.png", severity="error", message="chi2 1745.31, Omega_m 0.3512")
    accepted = Critique(accepted=True, verdict="fine", findings=[echo])
    [kept] = critic_findings("step_critic", accepted, step_id="s1", cell="cell.py")
    assert kept.severity is Severity.WARNING and kept.message == echo.message and kept.source == "step_critic"
    rejected = Critique(accepted=False, verdict="chi2 1745.31 is wrong", findings=[echo])
    [stands] = critic_findings("step_critic", rejected, step_id="s1", cell="cell.py")
    assert stands.severity is Severity.ERROR


def test_naming_what_is_fine_is_no_reason() -> None:
    """SmolLM2 rejected an X-hacking audit with the name of a check that had passed ("defensible_set_nonempty"),
    the figure's file name alone and "AUC == 0.99999999999999997": the step ran again for nothing.  Names and
    numbers with no word of the critic's own argue nothing, unless what they name is a problem."""
    bare = ["chi2_per_dof", "converged passed", "hubble.png", "Omega_m 0.351", "Error: chi2_per_dof 2022-04-02T07:40",
            "OMEGA_M == 0.3512", "'n_sn'"]
    for text in bare:
        assert grounds(("figures/hubble.png",)).cites(text), text
        set_aside, [warning] = weigh(("step_critic", Critique(accepted=False, verdict="warning", issues=[text])),
                                     figures=("figures/hubble.png",))
        assert set_aside == {"step_critic"}, text
        assert "without saying what is wrong with them" in warning.message
    # what they name is a problem: a failed check, a warning's code
    failed = Grounds.of(values=VALUES, checks=[*CHECKS, CheckResult(name="covariance_psd", passed=False)],
                        findings=FOUND)
    for text in ["covariance_psd", "fit.chi2_low"]:
        critique = Critique(accepted=False, verdict="warning", issues=[text])
        assert weigh_critics([("step_critic", critique)], [], failed, step_id="s1", cell=None) == (set(), []), text
    # a critic's finding that only names a figure is not counted; one that says something of it is
    raised = [Finding(code="x_hacking_worst_concave_.json", severity=Severity.WARNING, step_id="s1",
                      message="hubble.png", settle="\n", source="science_checker"),
              Finding(code="plot.empty", severity=Severity.WARNING, step_id="s1", message="hubble.png has no points",
                      source="science_checker")]
    set_aside, found = weigh(("science_checker", Critique(accepted=True, verdict="ok")), raised=raised,
                             figures=("figures/hubble.png",))
    assert [f.code for f in found] == ["plot.empty", "critic.unsupported"]
