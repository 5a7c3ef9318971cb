"""Reference answers of the data-cleaning tasks, each with its planted problem handled explicitly
(pandas only, no cmbagent code).

* Station temperatures: station B writes -999 for a missing reading; those rows are not temperatures.
* Patient weights: one clinic records pounds (its rows say ``lb``); 1 lb = 0.45359237 kg exactly.
* Orders: 25 rows were exported twice (same order id and content) and amounts are text with thousands
  separators.

Prints one JSON object: ``{task: {value name: number}}``; the naive answers (planted problem ignored) are
printed beside them to show that the tolerances separate the two.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pandas as pd

DATA = Path(__file__).resolve().parent.parent / "data"


def main() -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    temps = pd.read_csv(DATA / "station_temperatures.csv")
    b = temps[temps["station"] == "B"]["temperature_c"]
    valid = b[b != -999.0]
    out["c12-station-temperatures"] = {"mean_b": float(valid.mean()), "n_valid_b": int(valid.size),
                                       "naive_mean_b": float(b.mean())}
    weights = pd.read_csv(DATA / "patient_weights.csv")
    kg = weights["weight"].where(weights["unit"] == "kg", weights["weight"] * 0.45359237)
    out["c13-patient-weights"] = {"mean_kg": float(kg.mean()), "naive_mean": float(weights["weight"].mean())}
    orders = pd.read_csv(DATA / "orders.csv", dtype={"amount_usd": str})
    amount = orders["amount_usd"].str.replace(",", "", regex=False).astype(float)
    distinct = orders.assign(amount=amount).drop_duplicates()
    out["c14-order-revenue"] = {"revenue": float(distinct["amount"].sum()), "n_orders": int(distinct["order_id"].nunique()),
                                "naive_revenue": float(amount.sum())}
    return out


if __name__ == "__main__":
    json.dump(main(), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
