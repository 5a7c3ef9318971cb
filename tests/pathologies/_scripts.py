"""Scripted agents for the pathology tasks whose mistake is a model's, not a method's: the cell an engineer
writes, the number a reporter invents.  Each script answers only the agents it names; the offline backend
plays every other agent (critics, summariser, auditor), so the audits and the critics are the real ones.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cmbagent.agents import CodeDraft
from cmbagent.cells import print_result
from cmbagent.models import ModelRequest
from cmbagent.state import (
    CriterionResult,
    CriticFinding,
    Critique,
    PlanDraft,
    ReportDraft,
    StepDraft,
    TaskBrief,
)

Script = dict[str, Callable[[ModelRequest], Any]]


def _code_task(code: str, goal: str) -> Script:
    def brief(request: ModelRequest) -> TaskBrief:
        ctx = request.context
        return TaskBrief(title=getattr(ctx, "title", "task"), objective=goal, data_files=list(ctx.data_files))

    def plan(request: ModelRequest) -> PlanDraft:
        files = list(request.context.brief.data_files)
        return PlanDraft(steps=[StepDraft(title="Analyse the data", goal=goal, agent="engineer", inputs=files,
                                          acceptance_criteria=["the numbers are printed as the step's result"])],
                         rationale="one analysis cell")

    return {"task_analyst": brief, "planner": plan,
            "engineer": lambda request: CodeDraft(code=code, explanation="the analysis")}


ROWS_DROPPED = """import json
import numpy as np
import pandas as pd

table = pd.read_csv("data/union_points_nan.csv").dropna()
slope, intercept = np.polyfit(np.log10(table.z), table.mu, 1)
""" + print_result('{"slope": float(slope), "intercept": float(intercept), "n": int(len(table))}')

TRAIN_SCORE = """import json
import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

data = np.load("data/cardio.npz")
X, y = data["X"], data["y"]
model = LogisticRegression(max_iter=2000).fit(X, y)
auc = roc_auc_score(y, model.predict_proba(X)[:, 1])
""" + print_result('{"auc_roc": float(auc), "n": int(len(y))}')

SWALLOWED = """import json

try:
    with open("data/cardio.npz", encoding="utf-8") as handle:
        n_rows = len(handle.read().splitlines())
except Exception as exc:
    print(f"could not read data/cardio.npz: {type(exc).__name__}: {exc}")
    n_rows = open("data/cardio.npz", "rb").read().count(b"\\n")
""" + print_result('{"n_lines": n_rows}')

UNREADABLE_PLOT = """import json
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

table = pd.read_csv("data/union_points.csv")
slope, intercept = np.polyfit(np.log10(table.z), table.mu, 1)
zz = np.geomspace(table.z.min(), table.z.max(), 50)
fig, ax = plt.subplots()
ax.plot(table.z, table.mu, ".")
ax.plot(zz, intercept + slope * np.log10(zz))
ax.set_xscale("log")
fig.savefig("figures/hubble.png")
plt.close(fig)
""" + print_result('{"slope": float(slope), "n": int(len(table)), "figures": ["figures/hubble.png"]}')

SPECIFICATION_SEARCH = """import itertools
import json
import numpy as np
import pandas as pd
from scipy import stats

table = pd.read_csv("data/sipp_sample.csv")
controls = ["age", "inc", "educ", "fsize", "marr", "twoearn", "db", "pira", "hown"]
best = None
for pair in itertools.combinations(controls, 2):
    X = np.column_stack([np.ones(len(table)), table.e401, table[list(pair)]])
    beta, _, _, _ = np.linalg.lstsq(X, table.net_tfa, rcond=None)
    resid = table.net_tfa - X @ beta
    dof = len(table) - X.shape[1]
    se = np.sqrt(resid @ resid / dof * np.linalg.inv(X.T @ X)[1, 1])
    p = 2 * stats.t.sf(abs(beta[1] / se), dof)
    if best is None or p < best["p_value"]:
        best = {"estimate": float(beta[1]), "p_value": float(p), "controls": list(pair)}
""" + print_result("best")

HELD_OUT = """import json
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score, roc_curve
from sklearn.model_selection import train_test_split

data = np.load("data/cardio.npz")
X_train, X_test, y_train, y_test = train_test_split(data["X"], data["y"], test_size=0.3, random_state=0,
                                                    stratify=data["y"])
model = LogisticRegression(max_iter=2000).fit(X_train, y_train)
score = model.predict_proba(X_test)[:, 1]
auc = roc_auc_score(y_test, score)
fpr, tpr, _ = roc_curve(y_test, score)
fig, ax = plt.subplots()
ax.plot(fpr, tpr, label=f"logistic regression (AUC {auc:.3f})")
ax.plot([0, 1], [0, 1], ls=":", label="chance")
ax.set_xlabel("false positive rate")
ax.set_ylabel("true positive rate")
ax.legend()
fig.savefig("figures/roc.png")
plt.close(fig)
""" + print_result('{"auc_roc": float(auc), "n_train": int(len(y_train)), "n_test": int(len(y_test))}')


def _invented_report(request: ModelRequest) -> ReportDraft:
    """A fluent narrative that quotes the run's Omega_m correctly and adds an H0 no step computed."""
    done = [r for r in request.context.results if r.values.get("Omega_m")]
    om = done[0].values["Omega_m"] if done else {"mean": 0.3, "std": 0.03}
    return ReportDraft(title="Omega_m from JLA",
                       summary=f"We find Omega_m = {om['mean']:.3f} ± {om['std']:.3f} and H0 = 73.9 ± 1.1 km/s/Mpc.",
                       conclusions=["The expansion is accelerating, with H0 = 73.9 km/s/Mpc."])


def _noise_critique(request: ModelRequest) -> Critique:
    """What SmolLM2-135M answered as step_critic and science_checker of the fit through a JSON-schema grammar:
    well formed, rejecting, and about nothing in the result (the other steps' critics accept)."""
    if not getattr(request.context, "method", None):
        return Critique(accepted=True, verdict="Criteria met.")
    return Critique(accepted=False, verdict="failed", issues=["a2", "c1", "cmb_ag", "Merger, 2022-11-12 11:11:00 PM"],
                    criteria=[CriterionResult(criterion="A", met=False, evidence="Dies eines ")],
                    findings=[CriticFinding(code="CMBAGENT_RESULT", severity="error",
                                            message="Merger, 2022-11-12 11:11:00 PM")])


SCRIPTS: dict[str, Script] = {
    "rows_dropped": _code_task(ROWS_DROPPED, "Fit the slope of mu against log10 z."),
    "train_score": _code_task(TRAIN_SCORE, "Report the AUC-ROC of a logistic regression."),
    "swallowed_exception": _code_task(SWALLOWED, "Report the size of the cardio file."),
    "unreadable_plot": _code_task(UNREADABLE_PLOT, "Plot the Hubble diagram with a line fit."),
    "specification_search": _code_task(SPECIFICATION_SEARCH, "Test the e401 coefficient for net_tfa."),
    "held_out": _code_task(HELD_OUT, "Report the held-out AUC-ROC with a ROC figure."),
    "invented_number": {"reporter": _invented_report},
    "noise_critics": {"step_critic": _noise_critique, "science_checker": _noise_critique},
}
