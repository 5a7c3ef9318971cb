"""Reference answers of the counting, testing, bootstrap and classification tasks (numpy, scipy, pandas,
scikit-learn; no cmbagent code).

Where an answer depends on random numbers (a bootstrap, cross-validation folds, an isolation forest) the
reference is the average over many seeds and the spread over those seeds is printed beside it
(``*_seed_sd``): the graders' tolerances are a few of those spreads, so any honest seed passes and a wrong
method does not.

Prints one JSON object: ``{task: {value name: number}}``.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one thread: OpenMP on a busy 2-core machine thrashes

import numpy as np
import pandas as pd

DATA = Path(__file__).resolve().parent.parent / "data"


def pantheon() -> pd.DataFrame:
    return pd.read_csv(DATA / "Pantheon+SH0ES.dat", sep=r"\s+")


def bootstrap_median(values: np.ndarray, n_boot: int, seed: int) -> tuple[float, float]:
    rng = np.random.default_rng(seed)
    medians = np.median(values[rng.integers(0, values.size, (n_boot, values.size))], axis=1)
    lo, hi = np.percentile(medians, [2.5, 97.5])
    return float(lo), float(hi)


def main() -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    sn = pantheon()
    calib = sn[sn["IS_CALIBRATOR"] == 1]
    out["c01-cepheid-calibrators"] = {"n_rows": len(calib), "n_supernovae": calib["CID"].nunique()}
    hubble = sn[sn["zHD"] > 0.01]
    out["c02-distinct-supernovae"] = {"n_rows": len(hubble), "n_supernovae": hubble["CID"].nunique()}
    per_sn = calib.groupby("CID")["CEPH_DIST"].first()  # one Cepheid distance per supernova (its host's)
    out["c18-cepheid-distances"] = {"mean_ceph_dist": float(per_sn.mean()), "n_supernovae": int(per_sn.size),
                                    "naive_mean_all_rows": float(sn["CEPH_DIST"].mean())}
    union = [line.split("\t") for line in (DATA / "SCPUnion2.1_mu_vs_z.txt").read_text().splitlines()
             if line and not line.startswith("#")]
    p_low = np.array([float(row[4]) for row in union])
    out["c19-low-mass-hosts"] = {"share": float((p_low > 0.5).mean()), "n": int((p_low > 0.5).sum())}

    sipp = pd.read_csv(DATA / "sipp1991.csv")
    eligible = sipp.loc[sipp["e401"] == 1, "net_tfa"].to_numpy(float)
    ends = np.array([bootstrap_median(eligible, 2000, seed) for seed in range(20)])
    out["c08-bootstrap-median"] = {"median": float(np.median(eligible)),
                                   "lower_95": float(ends[:, 0].mean()), "upper_95": float(ends[:, 1].mean()),
                                   "lower_95_seed_sd": float(ends[:, 0].std(ddof=1)),
                                   "upper_95_seed_sd": float(ends[:, 1].std(ddof=1))}

    from scipy import stats

    r, _ = stats.pearsonr(sipp["age"], sipp["inc"])
    half = 1.959963984540054 / np.sqrt(len(sipp) - 3)
    out["c09-age-income-correlation"] = {"r": float(r), "lower_95": float(np.tanh(np.arctanh(r) - half)),
                                         "upper_95": float(np.tanh(np.arctanh(r) + half))}

    cancer = pd.read_csv(DATA / "breast_cancer.csv")
    malignant = cancer.loc[cancer["benign"] == 0, "mean radius"]
    benign = cancer.loc[cancer["benign"] == 1, "mean radius"]
    welch = stats.ttest_ind(malignant, benign, equal_var=False)
    out["c10-welch-test"] = {"t": float(welch.statistic), "log10_p": float(np.log10(welch.pvalue)),
                             "mean_malignant": float(malignant.mean()), "mean_benign": float(benign.mean())}
    out["c16-radius-histogram"] = {"mean_malignant": float(malignant.mean()), "mean_benign": float(benign.mean())}

    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    features = cancer.drop(columns=["benign"]).to_numpy(float)
    labels = cancer["benign"].to_numpy(int)
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=5000))
    scores = [cross_val_score(model, features, labels, cv=StratifiedKFold(5, shuffle=True, random_state=s)).mean()
              for s in range(20)]
    out["c11-cross-validated-accuracy"] = {"accuracy": float(np.mean(scores)),
                                           "accuracy_seed_sd": float(np.std(scores, ddof=1))}

    from sklearn.ensemble import IsolationForest
    from sklearn.metrics import roc_auc_score

    thyroid = np.load(DATA / "38_thyroid.npz")
    x, y = thyroid["X"], thyroid["y"]
    aucs = [roc_auc_score(y, -IsolationForest(n_estimators=100, random_state=s).fit(x).score_samples(x))
            for s in range(10)]
    out["c17-thyroid-isolation-forest"] = {"share_anomalies": float(y.mean()), "n_anomalies": int(y.sum()),
                                           "auc_roc": float(np.mean(aucs)), "auc_roc_seed_sd": float(np.std(aucs, ddof=1))}
    return out


if __name__ == "__main__":
    json.dump(main(), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
