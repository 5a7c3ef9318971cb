"""Write the synthetic tables of the research suite (into ``data/``), each from a fixed seed.

Every file is written with explicit number formats, so the bytes do not depend on the numpy or pandas
version; ``tests/eval/test_suite_references.py`` regenerates them into a temporary folder and checks that
they equal the committed files.  The true answers that only the generator knows (the job-training effect)
are recomputed by ``causal.py`` from the same generator, never read from a file a run can see.

Usage: ``python make_data.py [OUT_DIR]`` (default: ``../data`` beside this script).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def job_training(n: int = 1500, seed: int = 1978) -> dict[str, np.ndarray]:
    """A job-training programme with selection on observables (NSW/PSID-like): people with low earlier
    earnings enrol more often, so the naive difference of means is far below the true effect."""
    rng = np.random.default_rng(seed)
    age = rng.integers(18, 56, n)
    educ = np.clip(np.round(rng.normal(11.5, 2.5, n)), 4, 18).astype(int)
    married = (rng.random(n) < 0.45).astype(int)
    base = np.exp(rng.normal(8.8, 0.9, n)) * (rng.random(n) > 0.25)  # a quarter earned nothing
    re74 = np.round(base * (0.8 + 0.4 * rng.random(n)), 2)
    re75 = np.round(base * (0.85 + 0.4 * rng.random(n)), 2)
    logit = 1.2 - 0.00025 * re75 - 0.03 * (age - 30) - 0.15 * (educ - 11.5) - 0.4 * married
    treated = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    effect = 1600 + 150 * (educ - 11.5) + rng.normal(0, 300, n)  # heterogeneous, known per person
    untreated = 2000 + 0.55 * re75 + 0.25 * re74 + 120 * (educ - 11.5) + 40 * (age - 30) + 800 * married
    re78_0 = np.maximum(0.0, untreated + rng.normal(0, 2500, n))
    re78_1 = np.maximum(0.0, untreated + effect + rng.normal(0, 2500, n))
    re78 = np.where(treated == 1, re78_1, re78_0)
    return {"treated": treated, "age": age, "educ": educ, "married": married, "re74": re74, "re75": re75,
            "re78": np.round(re78, 2), "y0": re78_0, "y1": re78_1}


def tutoring(n: int = 400, seed: int = 7) -> dict[str, np.ndarray]:
    """Every pupil in the table was tutored: a table with no comparison group."""
    rng = np.random.default_rng(seed)
    prior = np.round(rng.normal(62, 12, n), 1)
    hours = rng.integers(5, 41, n)
    score = np.round(np.clip(prior + 0.2 * hours + rng.normal(3, 8, n), 0, 100), 1)
    return {"pupil": np.arange(1, n + 1), "tutored": np.ones(n, dtype=int), "hours": hours,
            "prior_score": prior, "score": score}


def sensors(seed: int = 2023) -> list[tuple[str, str, float]]:
    """Hourly July temperatures of three stations; station B writes -999 when its sensor drops out."""
    rng = np.random.default_rng(seed)
    rows = []
    hours = np.arange(31 * 24)
    for station, mean in (("A", 21.0), ("B", 24.5), ("C", 18.0)):
        temp = mean + 5 * np.sin(2 * np.pi * (hours % 24 - 9) / 24) + rng.normal(0, 1.5, hours.size)
        temp = np.round(temp, 2)
        if station == "B":
            temp[rng.choice(hours.size, 37, replace=False)] = -999.0
        for h, t in zip(hours, temp, strict=True):
            rows.append((station, f"2023-07-{h // 24 + 1:02d}T{h % 24:02d}:00", float(t)))
    return rows


def patients(seed: int = 11) -> list[tuple[int, str, float, str]]:
    """Body weights from two clinics; the north clinic records pounds (the unit column says so)."""
    rng = np.random.default_rng(seed)
    rows = []
    for pid in range(1, 601):
        clinic = "north" if rng.random() < 0.4 else "south"
        kg = float(np.clip(rng.normal(76, 13), 40, 150))
        if clinic == "north":
            rows.append((pid, clinic, round(kg / 0.45359237, 1), "lb"))
        else:
            rows.append((pid, clinic, round(kg, 1), "kg"))
    return rows


def orders(seed: int = 5) -> list[tuple[str, str, str, str]]:
    """Orders exported twice in part (25 rows repeated) with amounts written as '1,234.50'."""
    rng = np.random.default_rng(seed)
    rows = []
    for k in range(1, 301):
        amount = float(np.round(np.exp(rng.normal(5.5, 1.1)), 2))
        day = int(rng.integers(1, 29))
        region = ("east", "west", "north")[int(rng.integers(0, 3))]
        rows.append((f"A{k:04d}", f"2024-03-{day:02d}", region, f"{amount:,.2f}"))
    repeated = rng.choice(len(rows), 25, replace=False)
    out = list(rows)
    for index in sorted(int(i) for i in repeated):
        out.insert(int(rng.integers(index, len(out) + 1)), rows[index])
    return out


def screening(n: int = 2000, r2: float = 0.3, seed: int = 19) -> dict[str, np.ndarray]:
    """Predicted and realised welfare of n people, bivariate normal with corr² = r2."""
    rng = np.random.default_rng(seed)
    rho = np.sqrt(r2)
    y = rng.normal(0, 1, n)
    f = rho * y + np.sqrt(1 - rho**2) * rng.normal(0, 1, n)
    return {"person": np.arange(1, n + 1), "predicted_welfare": np.round(f, 5), "welfare": np.round(y, 5)}


def _write(path: Path, header: list[str], rows: list[list[str]]) -> None:
    text = ",".join(header) + "\n" + "".join(",".join(row) + "\n" for row in rows)
    path.write_text(text, encoding="utf-8", newline="")


SYNTHETIC = ("job_training.csv", "tutoring.csv", "station_temperatures.csv", "patient_weights.csv", "orders.csv",
             "screening.csv")


def write_all(out: Path) -> list[Path]:
    """Write every synthetic table into ``out``; returns their paths."""
    out.mkdir(parents=True, exist_ok=True)
    jobs = job_training()
    cols = ["treated", "age", "educ", "married", "re74", "re75", "re78"]
    _write(out / "job_training.csv", cols,
           [[str(jobs["treated"][i]), str(jobs["age"][i]), str(jobs["educ"][i]), str(jobs["married"][i]),
             f"{jobs['re74'][i]:.2f}", f"{jobs['re75'][i]:.2f}", f"{jobs['re78'][i]:.2f}"]
            for i in range(jobs["age"].size)])
    tut = tutoring()
    _write(out / "tutoring.csv", ["pupil", "tutored", "hours", "prior_score", "score"],
           [[str(tut["pupil"][i]), str(tut["tutored"][i]), str(tut["hours"][i]), f"{tut['prior_score'][i]:.1f}",
             f"{tut['score'][i]:.1f}"] for i in range(tut["pupil"].size)])
    _write(out / "station_temperatures.csv", ["station", "time", "temperature_c"],
           [[s, t, f"{v:.2f}"] for s, t, v in sensors()])
    _write(out / "patient_weights.csv", ["patient", "clinic", "weight", "unit"],
           [[str(p), c, f"{w:.1f}", u] for p, c, w, u in patients()])
    _write(out / "orders.csv", ["order_id", "date", "region", "amount_usd"],
           [[o, d, r, f'"{a}"'] for o, d, r, a in orders()])
    scr = screening()
    _write(out / "screening.csv", ["person", "predicted_welfare", "welfare"],
           [[str(scr["person"][i]), f"{scr['predicted_welfare'][i]:.5f}", f"{scr['welfare'][i]:.5f}"]
            for i in range(scr["person"].size)])
    return [out / name for name in SYNTHETIC]


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE.parent / "data"
    for path in write_all(target):
        print(path)
