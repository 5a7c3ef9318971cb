"""Every finding code the built-in audits emit, declared once: default severity, meaning, and the check that
would settle it (a warning's caveat in the report quotes it).  ``docs/extending.md`` lists them.

The table imports nothing of the audits: :mod:`cmbagent.audits._registry` declares every entry of
:data:`BUILT_IN` with :func:`~cmbagent.audits.declare_code` when it loads, before any audit registers.
"""

from __future__ import annotations

from cmbagent.cells import RESULT_BEGIN, RESULT_END
from cmbagent.state import Severity

__all__ = ["BUILT_IN"]

#: ``declare_code`` arguments of every built-in code, in the order they are declared
BUILT_IN: list[tuple[tuple[str, Severity, str, str], dict[str, str]]] = []


def _code(code: str, severity: Severity, meaning: str, settle: str, **options: str) -> None:
    BUILT_IN.append(((code, severity, meaning, settle), options))


_code("value.not_finite", Severity.ERROR, "A reported number is NaN, infinite or missing.",
      "Find where the computation lost the number (empty selection, division by zero, failed fit).")

_code("value.negative_spread", Severity.ERROR, "A reported standard deviation or variance is negative.",
      "Recompute the uncertainty; a spread cannot be negative.")

_code("value.inverted_interval", Severity.ERROR, "A reported interval has its lower end above its upper end.",
      "Recompute the interval's quantiles.")

_code("step.no_result", Severity.ERROR, "The cell printed no result object for the graph to read.",
      f"Print the step's numbers as one JSON object between {RESULT_BEGIN} and {RESULT_END}.")

_code("step.error_ignored", Severity.ERROR,
      "The cell raised or logged an exception it did not handle, and still reported success.",
      "Handle the failure (fix the reader, the input or the call) instead of printing it and going on.")

_code("method.check_failed", Severity.WARNING, "One of the method's own checks failed.",
      "Read the check's message; rerun with settings that make it pass or report why it may fail.")

_code("method.note", Severity.NOTE, "Something the method tool states about its own result.",
      "Read the method's note; it is part of the result.")

_code("method.known_shortfall", Severity.NOTE,
      "The method was measured not to reproduce one of its paper's claims under this protocol.",
      "Compare against the baselines reported beside it; do not cite the paper's claim for this setting.")

_code("fit.chi2_low", Severity.WARNING,
      "χ² far below its degrees of freedom (p > 1 − 1e-3): errors overestimated or correlations ignored.",
      "Refit with the full covariance of the data (or check how the errors were computed); χ²/dof should "
      "lie within a few √(2/dof) of 1.")

_code("fit.chi2_high", Severity.WARNING,
      "χ² far above its degrees of freedom (p < 1e-3): tension between model and data, or errors "
      "underestimated.",
      "Inspect the residuals for outliers, add the missing error terms (intrinsic scatter, systematics) "
      "or a model with the missing physics.")

_code("param.prior_dominated", Severity.WARNING,
      "A Gaussian prior carries most of a reported posterior: the data barely narrow it.",
      "Report the data-alone value beside the posterior and how much the data narrow the prior, or add data "
      "that constrain the parameter.", outcome="answer")

_code("param.unconstrained", Severity.WARNING,
      "These data do not constrain a parameter: its posterior is as wide as its flat prior, or one side of "
      "it is set by a prior bound. That is a result: the report states it, with the bound or the prior range.",
      "Report the parameter as unconstrained by these data (or its one-sided bound); do not quote its mean "
      "as a measurement; add data that constrain it if a value is needed.", outcome="answer")

_code("report.unconstrained_as_measurement", Severity.ERROR,
      "The report presents a number of a parameter these data do not constrain as a measurement.",
      "Say the parameter is unconstrained by these data, with its bound or the prior range, instead of "
      "quoting its posterior mean as a value.")

_code("method.argument_defaulted", Severity.NOTE,
      "The method refused an optional argument of the planned call by name; code ran the call once more with "
      "that argument at its default.",
      "If the default is not what the task needs, state the value in the task's front matter.")

_code("report.summary_replaced", Severity.NOTE,
      "The summariser's summary of a method step named none of the step's values and wrote none of its "
      "numbers; code replaced it with the method's own summary.",
      "Route the summariser to a stronger model (`--agent-model summariser=...`) for prose summaries.")

_code("method.model_choices", Severity.NOTE,
      "A model (the planner or the method operator) set arguments of a method call that the task does not "
      "state to values other than the method's defaults; the numbers depend on them.",
      "If they matter, state them in the task's front matter (`arguments:`) or in its text.")

_code("plan.aimless_steps", Severity.NOTE,
      "Code dropped planned steps without a method whose goal has no word in it (only identifiers, file "
      "names or fragments such as 'output_file'): there was nothing to achieve, nothing to check them "
      "against.",
      "Write each step's goal as what the step must achieve, in a sentence.")

_code("task.assumed", Severity.NOTE,
      "The task leaves a choice open that the method needs (an adjustment set, say); code made it by a stated "
      "rule, and the numbers depend on it.",
      "If another choice is meant, state it in the task (a sentence naming it, or the front matter's "
      "`arguments:`).")

_code("task.read_by_meaning", Severity.NOTE,
      "A number of the task's prose was put into a method argument by meaning: no rule read it, and its clause "
      "is clearly closest, by the embedding model, to that argument's name and documentation. The value is "
      "what the text states; the argument it went to is the reading's judgement.",
      "If the number sets another argument, state it in the front matter's `arguments:`.")

_code("task.method_from_reading", Severity.NOTE,
      "The task analyst (a language model) named no method, and code's reading of the task chose one surely "
      "by meaning, words and data; the run used code's choice and plans may name only that method.",
      "If another method (or none) is meant, name it in the front matter (`method:`).")

_code("task.method_disagrees", Severity.WARNING,
      "The task analyst (a language model) chose another method than code's reading of the task, which was "
      "sure of its own; the run follows the analyst.",
      "Read both choices' reasons in run.json (`understanding`); pin the intended method in the front matter.")

_code("task.reading_unsettled", Severity.WARNING,
      "Code's reading of the task left points open for the method the run uses (a number no argument took, a "
      "column it could not place, a file no argument reads); offline the person is asked before anything runs, "
      "with a model the task analyst's arguments decided them.",
      "Check each point against the run's arguments in plan.json; state the intended value in the task or the "
      "front matter's `arguments:`.")

_code("plan.method_step_added", Severity.NOTE,
      "The planner's plans called no step of the method the task needs (its front matter's, or the one code's "
      "reading chose surely) after every repair; code put a step calling it first, with the arguments read.",
      "Check the method step's arguments in plan.json; pin them in the front matter if they differ.")

_code("task.requirement_unmet", Severity.ERROR,
      "An explicit requirement of the task was not met: an argument with another value, a named file not read "
      "in its role, a stated number not used, a model word contradicted (an error; the run ends 'unmet'), or "
      "something requested that is missing or could not be verified (a warning).",
      "Run the task as it is written (requirements.json says what differed), or state in the report why the "
      "requirement could not be met.")

_code("task.requirements_disagree", Severity.WARNING,
      "The requirements agent (a language model reading the task on its own) and the checklist's rules read "
      "the task differently: a file in another role, a setting one of them lists and the other does not.",
      "Read the quoted words of the task; state the intended role or value plainly (or in the front matter).")

_code("report.bad_citation", Severity.ERROR,
      "A citation of the report does not resolve to a passage of the run's knowledge index, or quotes words "
      "the passage does not hold.",
      "Cite only passages the run retrieved, and quote them word for word.")

_code("task.requirements_dropped", Severity.NOTE,
      "Code dropped items of the task analyst's checklist that say nothing to check (an argument item without "
      "the argument's name or value, an output item without its kind or quantity): the run is not judged "
      "against them.",
      "State the requirement in the task's front matter (`arguments:`), or in a sentence that names the "
      "argument and its value.")

_code("param.prior_shift", Severity.WARNING,
      "An informative Gaussian prior moves a reported posterior by a standard deviation or more of what the "
      "data alone give: the value is partly the prior's.",
      "Report the data-only value next to it and say how far the prior moves it (and whether prior and data "
      "agree), or widen the prior.", outcome="answer")

_code("param.degenerate", Severity.WARNING,
      "A reported (or requested) parameter that the likelihood cannot constrain by construction. The answer "
      "is that these data cannot measure it; only a report that quotes it as a measurement is wrong.",
      "Add the information that breaks the degeneracy (a calibrator, a prior from another probe) or do "
      "not report the parameter as a measurement.", outcome="answer")

_code("sampler.not_converged", Severity.ERROR,
      "The MCMC chain has not converged: too short for its autocorrelation time, split R-hat above 1.01, "
      "too few effective samples, or stopped by its step limit.",
      "Run the chain longer (raise max_steps or the number of samples) until it is longer than 50 τ, "
      "R-hat ≤ 1.01 and the effective sample size is in the thousands.")

_code("data.rows_dropped", Severity.WARNING,
      "The rows a step used differ from the rows it read (cuts, missing values, duplicates), and the "
      "step does not say how many.",
      "State how many rows were read, how many were used and why the others were dropped; check that "
      "the cut does not bias the result.")

_code("eval.leakage", Severity.ERROR,
      "A score was computed on data the model was fitted on, or one feature (almost) equals the label.",
      "Score on held-out data only, and drop features that encode the label (AUC ≥ 0.999 alone).")

_code("analysis.specification_search", Severity.WARNING,
      "The step tried many analysis variants and reported the best one.",
      "Report every variant tried (or fix one analysis before looking at the result) and the spread of "
      "the result across them.")

_code("causal.no_overlap", Severity.WARNING,
      "Treated and control units do not overlap: many propensities near 0 or 1, or a covariate that "
      "separates the groups.",
      "Trim to the region of common support (and say so), choose another adjustment set, or report the "
      "effect only for the overlap population.")

_code("method.loses_to_baseline", Severity.NOTE,
      "The paper's method scores below a baseline it was compared with.",
      "State plainly which method is best on each metric; do not present the paper's method as the winner.")

_code("report.answer_missing", Severity.ERROR,
      "The report's summary states none of the run's results: no value of a completed step by name or by "
      "its number.",
      "Answer the task in the summary with the key numbers (name and value as the run produced them); if "
      "the reporter cannot, code writes the summary from the key numbers.")
_code("report.unsupported_number", Severity.ERROR,
      "A number in the narrative matches no value in any step's results or outputs.",
      "Quote only numbers the run produced (from the key numbers or a step's output), or compute the "
      "number in a step first.")

_code("plot.unreadable", Severity.WARNING,
      "A figure with unlabeled axes, several series without a legend, or an empty panel.",
      "Label every axis that shows values (with units), add a legend when a panel shows several series, "
      "and remove empty panels.")

_code("audit.failed", Severity.NOTE, "An audit could not run on this step's evidence.",
      "Check the step's result and files; the other audits still ran.")
