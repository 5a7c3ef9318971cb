"""Write every data file of the seventh blind prose task set, deterministically.

``python tests/understanding_blind7/make_data.py`` rewrites ``tests/understanding_blind7/data/``; ``--out DIR``
writes elsewhere (``test_set.py`` does that and compares checksums with the committed files). Each file is
simulated here with numpy alone from its own seed; floats are written with fixed formats so the bytes do not
depend on the platform, and the one ``.npz`` archive is a zip of stored (uncompressed) members with a fixed date,
written by hand. Nothing here uses cmbagent's code. The set states no answers, so no truths file is written; the
structure built into each file is described in ``data/SOURCES.md``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

if __name__ == "__main__":  # run as a script: the shared writers live in the tests package
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.prose_sets.writing import (
    Writers,
    array,
    expit,
    main,
    npy_bytes,
    npz,
    ordered,
    table,
    write_covariance,
)

HERE = Path(__file__).resolve().parent
writer = Writers()
C_KM_S = 299792.458


def distance_modulus(z: np.ndarray, om: float, w0: float = -1.0, wa: float = 0.0, h0: float = 70.0,
                     ode: float | None = None) -> np.ndarray:
    """mu = 5 log10(D_L / 10 pc): flat w0-wa background, or a curved Lambda one when ``ode`` is given."""
    grid = np.linspace(0.0, float(np.max(z)) * 1.001, 8001)
    ok = 0.0 if ode is None else 1.0 - om - ode
    if ode is None:
        a = 1.0 / (1 + grid)
        de = (1.0 - om) * a ** (-3 * (1 + w0 + wa)) * np.exp(-3 * wa * (1 - a))
    else:
        de = ode * np.ones_like(grid)
    inv = 1.0 / np.sqrt(om * (1 + grid) ** 3 + de + ok * (1 + grid) ** 2)
    dc_grid = np.concatenate([[0.0], np.cumsum((inv[1:] + inv[:-1]) / 2 * np.diff(grid))])
    chi = np.interp(z, grid, dc_grid)
    if ok > 0:
        chi = np.sinh(np.sqrt(ok) * chi) / np.sqrt(ok)
    elif ok < 0:
        chi = np.sin(np.sqrt(-ok) * chi) / np.sqrt(-ok)
    return np.asarray(5 * np.log10((1 + z) * chi * C_KM_S / h0) + 25)


# ------------------------------------------------------------------------------------------ causal effects

@writer
def orchard_netting(out: Path) -> None:
    """Growers net the higher, older, wetter plots more often; netting raises fruit set by about 6 points."""
    rng = np.random.default_rng(7101)
    n = 900
    altitude = rng.uniform(40, 420, n)
    slope = rng.gamma(2.0, 3.0, n)
    age = rng.integers(3, 31, n)
    rain = rng.normal(180, 40, n)
    netted = rng.binomial(1, expit(-0.5 + 0.006 * (altitude - 200) + 0.05 * (age - 15) + 0.008 * (rain - 180)))
    fruit = np.clip(34 + 6.0 * netted - 0.02 * (altitude - 200) + 0.3 * (age - 15) + 0.04 * (rain - 180)
                    - 0.3 * slope + rng.normal(0, 5, n), 0, 100)
    table(out / "orchard_netting_plots.csv", {
        "plot_tag": [f"OP{i:04d}" for i in range(1, n + 1)], "grower": rng.choice(["Hale", "Ibbs", "Joss", "Kemp"], n),
        "netted": netted, "altitude_m": altitude, "slope_deg": slope, "tree_age_yr": age, "spring_rain_mm": rain,
        "fruit_set_pct": fruit},
        {"altitude_m": ".0f", "slope_deg": ".1f", "spring_rain_mm": ".0f", "fruit_set_pct": ".1f"})


@writer
def ward_overtime(out: Path) -> None:
    """Busier, sicker wards run more overtime; each overtime hour a week adds 0.12 errors per 1,000 doses."""
    rng = np.random.default_rng(7102)
    n = 420
    beds = rng.integers(12, 37, n)
    acuity = rng.normal(0, 1, n)
    agency = np.clip(rng.beta(2, 8, n), 0, 1)
    night = rng.uniform(0.25, 0.45, n)
    overtime = np.clip(6 + 0.15 * (beds - 24) + 1.5 * acuity + 8 * (agency - 0.2) + rng.normal(0, 2.5, n), 0, None)
    errors = np.clip(2.0 + 0.12 * overtime + 0.4 * acuity + 3.0 * (agency - 0.2) + 2.0 * (night - 0.35)
                     + rng.normal(0, 0.6, n), 0, None)
    table(out / "ward_overtime_2023.tsv", {
        "ward_id": [f"W{i:03d}" for i in range(1, n + 1)], "beds": beds, "acuity_index": acuity,
        "agency_share": agency, "night_ratio": night, "overtime_h_week": overtime, "med_errors_per_1k": errors},
        {"acuity_index": ".3f", "agency_share": ".3f", "night_ratio": ".3f", "overtime_h_week": ".2f",
         "med_errors_per_1k": ".3f"}, sep="\t")


@writer
def listing_blurbs(out: Path) -> None:
    """Sellers who write about 'premium' or 'handmade' goods offer rebates less and sell more; a rebate adds
    about 4 units a month. The quality shows only in the wording of the blurb."""
    rng = np.random.default_rng(7103)
    n = 360
    quality = rng.normal(size=n)
    items = ["teapot", "wool blanket", "desk lamp", "chopping board", "bird feeder", "plant pot", "notebook",
             "candle set"]
    good = ["handmade premium", "artisan, hand-finished", "carefully crafted premium", "heirloom quality"]
    plain = ["basic", "budget", "no-frills", "standard"]
    blurbs = []
    for q in quality:
        adj = rng.choice(good) if q > 0 else rng.choice(plain)
        blurbs.append(f"{adj} {rng.choice(items)}, ships in {int(rng.integers(1, 6))} days")
    price = np.round(np.exp(rng.normal(3.0 + 0.3 * quality, 0.3)), 2)
    rating = np.clip(np.round(4.2 + 0.25 * quality + rng.normal(0, 0.3, n), 1), 1, 5)
    rebate = rng.binomial(1, expit(-0.2 - 1.1 * quality))
    units = np.clip(np.round(20 + 4.0 * rebate + 6.0 * quality + 2.0 * (rating - 4.2) + rng.normal(0, 3, n)),
                    0, None).astype(int)
    table(out / "listing_blurbs_rebate.csv", {
        "listing_no": np.arange(7001, 7001 + n), "blurb": blurbs, "list_price": price, "seller_rating": rating,
        "rebate": rebate, "units_sold_30d": units}, {"list_price": ".2f", "seller_rating": ".1f"})


@writer
def heatpump_grants(out: Path) -> None:
    """No header row. Larger, poorer households in old homes take the grant more; it saves about 900 kWh."""
    rng = np.random.default_rng(7104)
    n = 800
    size = rng.integers(1, 7, n)
    area = rng.normal(95, 25, n)
    decade = rng.choice([1930, 1950, 1970, 1990, 2010], n)
    income = rng.gamma(4, 9, n)
    grant = rng.binomial(1, expit(-0.3 + 0.2 * (size - 3) - 0.02 * (income - 36) - 0.01 * (decade - 1970)))
    kwh = 9000 + 40 * (area - 95) + 350 * (size - 3) - 25 * (decade - 1970) - 900 * grant + rng.normal(0, 700, n)
    table(out / "heatpump_grant_noheader.csv", {"a": size, "b": area, "c": decade, "d": income, "e": grant,
                                                "f": kwh}, {"b": ".1f", "d": ".1f", "f": ".0f"}, header=False)


@writer
def bursary(out: Path) -> None:
    """Study hours drive attendance and the mock score; the panel's rule is linear in the three features."""
    rng = np.random.default_rng(7105)
    n = 150
    hours = np.clip(rng.normal(12, 4, n), 1, None)
    attend = np.clip(70 + 1.2 * (hours - 12) + rng.normal(0, 8, n), 30, 100)
    mock = np.clip(40 + 1.5 * (hours - 12) + 0.3 * (attend - 70) + rng.normal(0, 9, n), 0, 100)
    table(out / "bursary_applicants.csv", {"applicant": [f"A{i:03d}" for i in range(n)], "study_hours": hours,
                                           "attendance_pct": attend, "mock_score": mock},
          {"study_hours": ".1f", "attendance_pct": ".1f", "mock_score": ".1f"})


@writer
def cycle_commute(out: Path) -> None:
    """Fitness (unseen) drives cycling and fewer sick spells; the weather and route exposure features shift
    who cycles. Cycling lowers the chance of any sick spell by about 0.1."""
    rng = np.random.default_rng(7106)
    n = 900
    age = rng.integers(22, 64, n)
    km = np.clip(rng.gamma(2.0, 3.5, n), 0.5, None)
    fitness = rng.normal(size=n)
    w = rng.normal(size=(n, 16))
    pull = w[:, :4] @ np.array([0.8, -0.6, 0.5, 0.4])
    cycled = rng.binomial(1, expit(0.2 + pull - 0.12 * (km - 7) + 0.6 * fitness - 0.02 * (age - 40)))
    sick = rng.binomial(1, np.clip(expit(-0.6 - 0.5 * fitness + 0.015 * (age - 40)) - 0.1 * cycled, 0.01, 0.99))
    table(out / "cycle_commute_cohort.csv", {"employee": [f"E{i:04d}" for i in range(n)], "age": age,
                                             "commute_km": km, "cycled": cycled, "sick_any": sick},
          {"commute_km": ".1f"})
    array(out / "weather_route_features.npy", w)


@writer
def arrears(out: Path) -> None:
    """A landlord's risk predictions and the weeks of arrears each tenancy later ran up (higher is worse)."""
    rng = np.random.default_rng(7107)
    n = 1200
    latent = rng.normal(size=n)
    weeks = np.clip(np.round(np.exp(0.6 + 0.9 * latent + rng.normal(0, 0.5, n)) - 1), 0, None).astype(int)
    table(out / "tenancy_arrears_scored.csv", {
        "tenancy": [f"T{i:05d}" for i in range(n)], "predicted_risk": expit(latent + rng.normal(0, 0.9, n)),
        "arrears_weeks": weeks}, {"predicted_risk": ".4f"})


# ------------------------------------------------------------------------------------------------ surveys

AGES = ["16-29", "30-49", "50-64", "65+"]


@writer
def fare_survey(out: Path) -> None:
    """Two wordings of a fare question (form B mentions the cost to taxpayers), a retest a fortnight later,
    car owners and the over-50s over-represented."""
    rng = np.random.default_rng(7108)
    n = 1000
    age = rng.choice(AGES, n, p=[0.12, 0.28, 0.32, 0.28])
    region = rng.choice(["inner", "outer", "rural"], n, p=[0.3, 0.4, 0.3])
    car = rng.choice(["car", "nocar"], n, p=[0.75, 0.25])
    form = rng.choice(["A", "B"], n)
    score = 0.5 * (age == "16-29") + 0.6 * (car == "nocar") + 0.3 * (region == "inner") - 0.5 * (form == "B")
    first = ordered(rng, score, ["favour", "undecided", "against"], (-0.5, 0.7))
    retest = [a if rng.random() < 0.8 else str(rng.choice(["favour", "undecided", "against"])) for a in first]
    cap = ordered(rng, 0.4 * score, ["favour", "undecided", "against"], (-0.4, 0.4))
    table(out / "fare_survey_responses.csv", {
        "resp": [f"F{i:04d}" for i in range(n)], "form": form, "age_band": age, "region": region,
        "car_access": car, "free_fares": first, "free_fares_retest": retest, "weekly_cap": cap})
    shares = {"age_band": dict(zip(AGES, (0.24, 0.33, 0.24, 0.19), strict=True)),
              "region": {"inner": 0.38, "outer": 0.42, "rural": 0.20},
              "car_access": {"car": 0.58, "nocar": 0.42}}
    rows = [(v, lv, s) for v, levels in shares.items() for lv, s in levels.items()]
    table(out / "fare_region_margins.csv", {"variable": [r[0] for r in rows], "level": [r[1] for r in rows],
                                            "share": [r[2] for r in rows]}, {"share": ".2f"})


@writer
def allotments(out: Path) -> None:
    """A city allotment survey with design weights, a weighted reference sample, and a model's answers as
    three income personas."""
    rng = np.random.default_rng(7109)
    n = 900
    incomes = ["low", "middle", "high"]
    age = rng.choice(AGES, n, p=[0.1, 0.3, 0.3, 0.3])
    income = rng.choice(incomes, n, p=[0.2, 0.4, 0.4])
    housing = rng.choice(["flat", "house"], n, p=[0.3, 0.7])
    wt = np.round(np.where(housing == "flat", 1.4, 0.85) * rng.uniform(0.8, 1.2, n), 3)
    score = 0.6 * (housing == "flat") + 0.4 * (age == "65+") - 0.3 * (income == "high")
    wants = ordered(rng, score, ["yes", "maybe", "no"], (-0.3, 0.6))
    pay = ordered(rng, 0.5 * score + 0.4 * (income == "high"), ["yes", "maybe", "no"], (-0.2, 0.5))
    table(out / "allotment_postal_returns.csv", {"id": np.arange(1, n + 1), "wt": wt, "age_band": age,
                                         "income_band": income, "housing": housing, "wants_plot": wants,
                                         "would_pay_rent": pay}, {"wt": ".3f"})
    m = 800
    table(out / "allotment_reference.csv", {
        "age_band": rng.choice(AGES, m, p=[0.25, 0.33, 0.23, 0.19]),
        "income_band": rng.choice(incomes, m, p=[0.35, 0.4, 0.25]),
        "housing": rng.choice(["flat", "house"], m, p=[0.45, 0.55]),
        "refwt": rng.uniform(0.5, 1.8, m)}, {"refwt": ".3f"})
    model = {("wants_plot", "low"): (0.55, 0.30, 0.15), ("wants_plot", "middle"): (0.50, 0.30, 0.20),
             ("wants_plot", "high"): (0.40, 0.30, 0.30), ("would_pay_rent", "low"): (0.30, 0.40, 0.30),
             ("would_pay_rent", "middle"): (0.45, 0.35, 0.20), ("would_pay_rent", "high"): (0.65, 0.25, 0.10)}
    rows = [(q, a, s, g) for (q, g), ps in model.items() for a, s in zip(["yes", "maybe", "no"], ps, strict=True)]
    table(out / "allotment_model_personas.csv", {"question": [r[0] for r in rows], "answer": [r[1] for r in rows],
                                                 "share": [r[2] for r in rows], "subgroup": [r[3] for r in rows]},
          {"share": ".2f"})


# ------------------------------------------------------------------------------------------------ anomalies

@writer
def bearing_rig(out: Path) -> None:
    """About 5% of the runs end in a seized bearing: temperature, kurtosis and the defect band rise."""
    rng = np.random.default_rng(7110)
    n = 1000
    seized = rng.random(n) < 0.05
    cols = {"load_kn": rng.uniform(2, 12, n), "speed_rpm": rng.uniform(600, 3000, n),
            "outer_temp_c": rng.normal(55, 5, n) + 6 * seized, "vib_kurtosis": rng.normal(3.1, 0.4, n) + 1.8 * seized,
            "bpfo_band_db": rng.normal(-42, 3, n) + 5 * seized, "grease_age_h": rng.uniform(0, 800, n)}
    table(out / "bearing_rig_runs.csv", {**cols, "seized": seized.astype(int)},
          dict.fromkeys(cols, ".3f"))


@writer
def ledger(out: Path) -> None:
    """Unlabelled transaction features, about 2% of them odd (large, at night, to new payees)."""
    rng = np.random.default_rng(7111)
    n = 1500
    odd = rng.random(n) < 0.02
    x = np.column_stack([
        rng.lognormal(4, 1, n) * np.where(odd, 6, 1), np.where(odd, rng.uniform(0, 5, n), rng.uniform(7, 22, n)),
        rng.poisson(np.where(odd, 0.5, 12), n), rng.binomial(1, np.where(odd, 0.9, 0.1)), rng.normal(0, 1, n)])
    npz(out / "ledger_features.npz", {"X": npy_bytes(x)})


# ------------------------------------------------------------------------------------------------ robustness

@writer
def pollen(out: Path) -> None:
    """Birch (1) against alder (0) pollen grains from four shape measurements, overlapping."""
    rng = np.random.default_rng(7112)
    n = 420
    birch = rng.random(n) < 0.5
    table(out / "pollen_grain_morphometry.csv", {
        "diameter_um": rng.normal(np.where(birch, 22, 24), 1.6),
        "pore_count": rng.normal(np.where(birch, 3.0, 4.6), 0.7), "exine_um": rng.normal(np.where(birch, 1.4, 1.2), 0.2),
        "arci_index": rng.normal(np.where(birch, 0.2, 0.9), 0.35), "is_birch": birch.astype(int)},
        {"diameter_um": ".2f", "pore_count": ".2f", "exine_um": ".3f", "arci_index": ".3f"})


@writer
def algal_blooms(out: Path) -> None:
    """Reservoir weeks with and without a bloom; runoff matters, but water temperature and sunshine matter more,
    and runoff is partly predictable from rainfall."""
    rng = np.random.default_rng(7113)
    n = 800
    rain = rng.gamma(2, 10, n)
    runoff = 0.5 * rain + rng.gamma(2, 4, n)
    cols = {"water_temp_c": rng.normal(16, 4, n), "sunshine_h": rng.uniform(10, 70, n), "rainfall_mm": rain,
            "fertiliser_runoff": runoff, "inflow_m3s": rng.gamma(3, 2, n), "secchi_m": rng.uniform(0.5, 4, n)}
    logit = (-2.0 + 0.35 * (cols["water_temp_c"] - 16) + 0.04 * (cols["sunshine_h"] - 40) + 0.04 * (runoff - 18)
             - 0.4 * (cols["secchi_m"] - 2))
    table(out / "reservoir_bloom_weeks.csv", {**cols, "bloom": rng.binomial(1, expit(logit))},
          dict.fromkeys(cols, ".3f"))


# ------------------------------------------------------------------------------------------------ bayes

@writer
def seedlings(out: Path) -> None:
    """Oak seedling survival against shade, soil nitrogen and deer browsing."""
    rng = np.random.default_rng(7114)
    n = 160
    shade = rng.uniform(0, 90, n)
    nitrogen = rng.normal(1.2, 0.4, n)
    browse = rng.binomial(1, 0.35, n)
    alive = rng.binomial(1, expit(1.0 - 0.03 * (shade - 45) + 1.2 * (nitrogen - 1.2) - 1.4 * browse))
    table(out / "oak_seedling_survival.csv", {"site": rng.choice(["N1", "N2", "S1"], n), "shade_pct": shade,
                                              "soil_n_pct": nitrogen, "browsed": browse, "alive_yr2": alive},
          {"shade_pct": ".1f", "soil_n_pct": ".3f"})


@writer
def frog_calls(out: Path) -> None:
    """48 dominant call frequencies from a pond with two cryptic species (standardised means about +/-1.2)."""
    rng = np.random.default_rng(7115)
    species = rng.random(48) < 0.5
    khz = np.where(species, rng.normal(2.3, 0.12, 48), rng.normal(2.9, 0.12, 48))
    table(out / "pond_call_peaks.csv", {"peak_khz": khz}, {"peak_khz": ".3f"})


@writer
def glaze(out: Path) -> None:
    """Crazing density of a glaze against peak kiln temperature and cooling rate, smooth with a ridge."""
    rng = np.random.default_rng(7116)
    n = 72
    temp = rng.uniform(1180, 1290, n)
    cool = rng.uniform(40, 240, n)
    t, c = (temp - 1180) / 110, (cool - 40) / 200
    craze = 3 + 2.0 * np.sin(3.0 * t) + 1.5 * c ** 2 - 1.2 * t * c + rng.normal(0, 0.15, n)
    table(out / "glaze_crazing_trials.csv", {"kiln_peak_c": temp, "cool_rate_c_h": cool, "crazes_per_cm2": craze},
          {"kiln_peak_c": ".1f", "cool_rate_c_h": ".1f", "crazes_per_cm2": ".3f"})


def gain(u: np.ndarray) -> np.ndarray:
    """Invariant under rotations by 60 degrees about z and under z -> -z."""
    phi = np.arctan2(u[:, 1], u[:, 0])
    return 2.0 * u[:, 2] ** 2 + 0.8 * np.cos(6 * phi) * (1 - u[:, 2] ** 2) ** 3


@writer
def antenna(out: Path) -> None:
    """Gain (dB) of a six-element array on unit vectors; a training and a separate check table."""
    rng = np.random.default_rng(7117)
    for name, n in (("antenna_gain_scan.csv", 600), ("antenna_gain_check.csv", 300)):
        u = rng.normal(size=(n, 3))
        u /= np.linalg.norm(u, axis=1, keepdims=True)
        table(out / name, {"ux": u[:, 0], "uy": u[:, 1], "uz": u[:, 2],
                           "gain_db": gain(u) + rng.normal(0, 0.1, n)},
              {"ux": ".9f", "uy": ".9f", "uz": ".9f", "gain_db": ".4f"})  # unit norms to 1e-6 or better


# ------------------------------------------------------------------------------------------------ cosmology

@writer
def kestrel(out: Path) -> None:
    """40 peak magnitudes of an evolving dark energy (w0 -0.9, wa -0.4, Omega_m 0.3), M -19.3, full covariance."""
    rng = np.random.default_rng(7118)
    n = 40
    z = np.sort(rng.uniform(0.02, 1.6, n))
    zhel = z + rng.normal(0, 0.0004, n)
    stat = rng.uniform(0.09, 0.15, n)
    cov = np.diag(stat ** 2) + 0.02 ** 2 * np.exp(-np.abs(z[:, None] - z[None, :]) / 0.4)
    mb = distance_modulus(z, 0.30, -0.9, -0.4) - 19.3 + rng.multivariate_normal(np.zeros(n), cov)
    table(out / "kestrel_sn.csv", {"zcmb": z, "zhel": zhel, "mb": mb, "dmb": stat},
          dict.fromkeys(("zcmb", "zhel", "mb", "dmb"), ".5f"))
    write_covariance(out / "kestrel_sn_cov.txt", cov)


@writer
def heron(out: Path) -> None:
    """90 moduli in the Union2.1 text layout (name z mu sigma_mu p), flat Lambda Omega_m 0.29, H0 69."""
    rng = np.random.default_rng(7119)
    n = 90
    z = np.sort(rng.uniform(0.015, 1.1, n))
    err = rng.uniform(0.1, 0.25, n)
    mu = distance_modulus(z, 0.29, h0=69.0) + rng.normal(0, err)
    lines = ["# Heron SN compilation, Union2.1-style columns: name z mu sigma_mu P(low-mass host)"]
    lines += [f"HER{i:03d} {z[i]:.5f} {mu[i]:.5f} {err[i]:.5f} {rng.uniform(0, 1):.3f}" for i in range(n)]
    (out / "heron_union_layout.txt").write_text("\n".join(lines) + "\n")


@writer
def osprey(out: Path) -> None:
    """110 moduli of a curved Lambda universe (Omega_m 0.33, Omega_Lambda 0.62), tab-separated."""
    rng = np.random.default_rng(7120)
    n = 110
    z = np.sort(rng.uniform(0.02, 1.5, n))
    err = rng.uniform(0.12, 0.2, n)
    mu = distance_modulus(z, 0.33, ode=0.62) + rng.normal(0, err)
    table(out / "osprey_moduli.tsv", {"z": z, "mu": mu, "mu_err": err},
          {"z": ".4f", "mu": ".4f", "mu_err": ".3f"}, sep="\t")


@writer
def magpie(out: Path) -> None:
    """70 moduli of flat Lambda (Omega_m 0.315), H0 67.4, for a joint fit with the CMB."""
    rng = np.random.default_rng(7121)
    n = 70
    z = np.sort(rng.uniform(0.02, 1.3, n))
    err = rng.uniform(0.1, 0.2, n)
    mu = distance_modulus(z, 0.315, h0=67.4) + rng.normal(0, err)
    table(out / "magpie_sn_mu.csv", {"z": z, "mu": mu, "mu_err": err}, {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})


@writer
def cosmosis_chain(out: Path) -> None:
    """A CosmoSIS-style chain (section--name header, weight and post columns), 2,400 rows, settling quickly."""
    rng = np.random.default_rng(7122)
    n = 2400
    centre = np.array([0.305, 0.68, 0.80, 0.96])
    sd = np.array([0.012, 0.012, 0.015, 0.008])
    x = np.empty((n, 4))
    state = np.zeros(4)
    for i in range(n):
        state = 0.75 * state + np.sqrt(1 - 0.75 ** 2) * rng.normal(size=4)
        pull = np.exp(-4.0 * i / 300)
        x[i] = centre + pull * (np.array([0.4, 0.74, 0.7, 1.0]) - centre) + sd * state
    weight = rng.uniform(0.2, 1.0, n)
    post = -0.5 * np.sum(((x - centre) / sd) ** 2, axis=1) - 301.7
    lines = ["#cosmological_parameters--omega_m\tcosmological_parameters--h0\tcosmological_parameters--sigma_8"
             "\tcosmological_parameters--n_s\tweight\tpost", "#sampler=emcee", "#walkers=1"]
    lines += ["\t".join([f"{r[0]:.5f}", f"{r[1]:.5f}", f"{r[2]:.5f}", f"{r[3]:.5f}", f"{w:.4f}", f"{p:.3f}"])
              for r, w, p in zip(x, weight, post, strict=True)]
    (out / "kids_like_cosmosis_chain.txt").write_text("\n".join(lines) + "\n")


# ------------------------------------------------------------------------------------------------ lm

@writer
def vision_grid(out: Path) -> None:
    """Embeddings of 7 glyphs x 7 hues rendered images from a frozen vision model (additive plus a bit of
    interaction), 10 images per combination, with their concept labels."""
    rng = np.random.default_rng(7123)
    d = 24
    glyph_vec, hue_vec = rng.normal(size=(7, d)), rng.normal(size=(7, d))
    inter = rng.normal(size=(7, 7, d)) * 0.3
    rows, glyphs, hues = [], [], []
    for g in range(7):
        for h in range(7):
            for _ in range(10):
                rows.append(glyph_vec[g] + hue_vec[h] + inter[g, h] + rng.normal(0, 0.4, d))
                glyphs.append(g)
                hues.append(h)
    array(out / "glyph_hue_embeddings.npy", np.array(rows))
    table(out / "glyph_hue_labels.csv", {"image": [f"img_{i:04d}.png" for i in range(len(rows))],
                                         "glyph": glyphs, "hue": hues})


@writer
def lighthouse_needles(out: Path) -> None:
    """Eight needles in which a keeper is tied to a lighthouse only through its town, and a synthetic logbook."""
    pairs = [("Aldous", "the Blackrock light", "Kilmore"), ("Brenna", "the Gull Point tower", "Portavel"),
             ("Casimir", "the Saltire beacon", "Dunhallow"), ("Delphine", "the Maiden Stack light", "Errisford"),
             ("Emrys", "the Heron Reef tower", "Caddon"), ("Faustine", "the Fairhead lamp", "Mallowby"),
             ("Gideon", "the Northholm light", "Tressick"), ("Hesper", "the Scarp beacon", "Wendlow")]
    rows = {"needle": [], "question": [], "answer": [], "literal_question": [], "avoid": []}
    for name, light, town in pairs:
        rows["needle"].append(f"Years ago {name} kept the lamp burning in {town} through every winter storm.")
        rows["question"].append(f"Which keeper tended {light}?")
        rows["answer"].append(name)
        rows["literal_question"].append(f"Who kept the lamp burning in {town}?")
        rows["avoid"].append(town)
    table(out / "keeper_needles.csv", rows)
    rng = np.random.default_rng(7124)
    subjects = ["The tide", "A north wind", "The relief boat", "Fog", "The glass", "A fishing smack", "Rain",
                "The swell", "A coal barge", "The bell buoy"]
    verbs = ["rose", "fell back", "came in late", "lifted by noon", "hung about the rocks", "stood steady",
             "passed to the east", "worsened after dark", "eased towards dawn", "was logged at six"]
    tails = ["and the oil was checked.", "so the wicks were trimmed twice.", "while the gulls kept off the gallery.",
             "and nothing else of note happened.", "but the log stayed dry.", "and the stores were counted.",
             "with the lens cleaned before dusk.", "though the stair rail needed paint."]
    lines = [f"{rng.choice(subjects)} {rng.choice(verbs)} {rng.choice(tails)}" for _ in range(900)]
    (out / "keepers_logbook.txt").write_text(" ".join(lines) + "\n")


@writer
def formulas(out: Path) -> None:
    """400 simple molecular formulas and their total atom counts."""
    rng = np.random.default_rng(7125)
    elements = ["C", "H", "O", "N", "S", "Cl", "P", "Na"]
    seen: dict[str, int] = {}
    while len(seen) < 400:
        k = int(rng.integers(1, 5))
        chosen = rng.choice(elements, k, replace=False)
        counts = rng.integers(1, 13, k)
        text = "".join(e + (str(c) if c > 1 else "") for e, c in zip(chosen, counts, strict=True))
        seen.setdefault(text, int(counts.sum()))
    table(out / "formula_atom_counts.csv", {"formula": list(seen), "atoms": list(seen.values())})


# ------------------------------------------------------------------------------------------------ near misses

@writer
def hip_implants(out: Path) -> None:
    """Time to revision (years) of two cup designs, censored at the end of follow-up."""
    rng = np.random.default_rng(7126)
    n = 240
    design = rng.choice(["cemented", "uncemented"], n)
    t = rng.exponential(np.where(design == "cemented", 28.0, 20.0))
    follow = rng.uniform(1, 12, n)
    table(out / "hip_cup_revisions.csv", {"patient": [f"H{i:04d}" for i in range(n)], "cup": design,
                                          "years": np.minimum(t, follow), "revised": (t <= follow).astype(int)},
          {"years": ".2f"})


@writer
def oak_rings(out: Path) -> None:
    """Ring widths of a master chronology (1850-1949) and an undated beam of 60 rings that starts in 1871."""
    rng = np.random.default_rng(7127)
    climate = rng.normal(0, 1, 100)
    years = np.arange(1850, 1950)
    master = 1.5 + 0.35 * climate + rng.normal(0, 0.1, 100)
    beam = 1.2 + 0.3 * climate[21:81] + rng.normal(0, 0.15, 60)
    table(out / "ring_width_series.csv", {"series": ["master"] * 100 + ["beam_07"] * 60,
                                          "position": list(years) + list(range(1, 61)),
                                          "width_mm": np.concatenate([master, beam])}, {"width_mm": ".3f"})


@writer
def germination(out: Path) -> None:
    """Germinated and failed seeds for four pre-treatments."""
    table(out / "seed_pretreatment_counts.csv", {
        "pretreatment": ["none", "cold_stratified", "scarified", "soaked"], "germinated": [41, 77, 68, 52],
        "failed": [59, 23, 32, 48]})


@writer
def reaction_times(out: Path) -> None:
    """Reaction times of 30 participants over 40 trials in two conditions."""
    rng = np.random.default_rng(7128)
    rows = []
    for p in range(30):
        base = rng.normal(420, 40)
        for trial in range(40):
            cond = "incongruent" if trial % 2 else "congruent"
            rows.append((f"S{p:02d}", trial + 1, cond, base + (35 if cond == "incongruent" else 0) + rng.normal(0, 45)))
    table(out / "stroop_trials.csv", {"participant": [r[0] for r in rows], "trial": [r[1] for r in rows],
                                      "condition": [r[2] for r in rows], "rt_ms": [r[3] for r in rows]},
          {"rt_ms": ".0f"})


# ------------------------------------------------------------------------------------------------ asks

@writer
def statin_dose(out: Path) -> None:
    """A continuous dose (mg) with three prescriber-preference instruments and a 0/1 outcome."""
    rng = np.random.default_rng(7129)
    n = 700
    age = rng.integers(45, 85, n)
    ldl = rng.normal(3.8, 0.8, n)
    prefs = rng.normal(size=(n, 3))
    dose = np.clip(np.round(20 + 10 * prefs[:, 0] + 5 * prefs[:, 1] + 6 * (ldl - 3.8) + rng.normal(0, 6, n)), 5, 80)
    event = rng.binomial(1, expit(-2.5 + 0.04 * (age - 65) + 0.5 * (ldl - 3.8) - 0.015 * dose))
    table(out / "statin_dose_outcomes.csv", {"age": age, "ldl_mmol": ldl, "pref_practice": prefs[:, 0],
                                             "pref_gp": prefs[:, 1], "pref_region": prefs[:, 2], "dose_mg": dose,
                                             "cv_event_5y": event},
          {"ldl_mmol": ".2f", "pref_practice": ".3f", "pref_gp": ".3f", "pref_region": ".3f", "dose_mg": ".0f"})


@writer
def finch(out: Path) -> None:
    """Supernova moduli and a handful of BAO distance ratios for a joint fit."""
    rng = np.random.default_rng(7130)
    n = 60
    z = np.sort(rng.uniform(0.02, 1.2, n))
    err = rng.uniform(0.12, 0.2, n)
    mu = distance_modulus(z, 0.31) + rng.normal(0, err)
    table(out / "finch_sn_moduli.csv", {"z": z, "mu": mu, "mu_err": err}, {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})
    table(out / "finch_bao_dv_rd.csv", {"z_eff": [0.15, 0.38, 0.51, 0.70, 1.48],
                                        "dv_over_rd": [4.47, 10.23, 13.36, 17.86, 30.69],
                                        "sigma": [0.17, 0.17, 0.21, 0.33, 0.79]})


@writer
def turbine_flags(out: Path) -> None:
    """Wind-turbine SCADA summaries with two 0/1 flag columns: the site inspector's and the lab's."""
    rng = np.random.default_rng(7131)
    n = 900
    fault = rng.random(n) < 0.04
    inspector = np.where(fault, rng.random(n) < 0.8, rng.random(n) < 0.03)
    lab = np.where(fault, rng.random(n) < 0.95, rng.random(n) < 0.005)
    cols = {"gearbox_temp_c": rng.normal(62, 5, n) + 7 * fault, "power_curve_resid": rng.normal(0, 1, n) - 1.5 * fault,
            "pitch_var": rng.gamma(2, 0.5, n) + 1.2 * fault, "nacelle_vib": rng.normal(0.8, 0.2, n) + 0.5 * fault}
    table(out / "turbine_scada_flags.csv", {"turbine": rng.integers(1, 41, n), **cols,
                                            "inspector_flag": inspector.astype(int), "lab_confirmed": lab.astype(int)},
          dict.fromkeys(cols, ".3f"))


@writer
def otoliths(out: Path) -> None:
    """Otolith shape descriptors of two cod stocks."""
    rng = np.random.default_rng(7132)
    n = 360
    north = rng.random(n) < 0.5
    table(out / "otolith_shape_stocks.csv", {
        "length_mm": rng.normal(np.where(north, 11.5, 10.8), 0.8), "roundness": rng.normal(np.where(north, 0.62, 0.66), 0.04),
        "wavelet_3": rng.normal(np.where(north, 0.1, -0.1), 0.3), "wavelet_5": rng.normal(0, 0.3, n),
        "stock": np.where(north, "north", "south")},
        {"length_mm": ".2f", "roundness": ".4f", "wavelet_3": ".4f", "wavelet_5": ".4f"})


def generate(out: Path) -> None:
    writer.run(out)


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
