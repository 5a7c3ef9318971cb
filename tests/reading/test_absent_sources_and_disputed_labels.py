"""What a task rests on but does not give is a question, not a run on defaults (issue 29, session 19). The twenty-fifth
blind set, when it was spent, showed three tasks whose honest reply is a question running silently; these tests use
tables and sentences written for them, none taken from that set.

- Values taken from a document the task only names: "the parameters in Table 2 of our preprint".
- Weighting "to the census" when no table of the population's margins is attached.
- A label column whose meaning the text itself disputes: "some of the nurses say `flagged` marks real
  deteriorations, others say …".
- And settings the same set showed unread: "a refit after every four", "pools of 120 segments", "generate 2000
  sums", a "Planck fit" as the CMB fit.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tests.reading._make import read_with


def _read(text: str, folder: Path | None = None, files: list[str] | None = None) -> object:
    from cmbagent.agents import read_task
    from cmbagent.inputs import profile_inputs

    names = files or []
    profiles = profile_inputs({f: folder / f for f in names}) if folder is not None else []
    return read_task(text=text, title="", data_files=names, profiles=profiles)


def test_values_from_a_document_that_is_not_attached_are_a_question() -> None:
    reading = _read("Please compute the lensed CMB power spectra for the parameters in Table 2 of our preprint, up to "
                    "ell of 2000, and plot TT.")
    assert reading.method == "cosmology.cmb_spectra"
    assert not reading.clear
    assert any("Table 2 of our preprint" in q and "not attached" in q for q in reading.unread), reading.unread
    # the same request with the values written out runs
    given = _read("Please compute the lensed CMB power spectra for H0 = 68, ombh2 = 0.0224 and omch2 = 0.119, up to "
                  "ell of 2000, and plot TT.")
    assert not any("not attached" in q for q in given.unread), given.unread


def test_weighting_to_a_census_that_is_not_given_is_a_question(tmp_path: Path) -> None:
    rng = np.random.default_rng(71)
    rows = ["id,age_band,ward,q_parking,q_bus_lane"]
    rows += [f"{i},{rng.choice(['18-34', '35-64', '65+'])},{rng.choice(['north', 'south'])},"
             f"{rng.choice(['yes', 'no'])},{rng.choice(['yes', 'no'])}" for i in range(300)]
    (tmp_path / "parking_poll.csv").write_text("\n".join(rows) + "\n")
    (tmp_path / "assistant_shares.csv").write_text(
        "question,answer,share\nq_parking,yes,0.6\nq_parking,no,0.4\nq_bus_lane,yes,0.3\nq_bus_lane,no,0.7\n")
    text = ("The first attachment is our parking poll (age band, ward, two questions); the second is the answer "
            "shares our assistant gave to the same questions. Weight the poll to the census for age band and ward and "
            "tell us how far the assistant is from residents.")
    reading = _read(text, tmp_path, ["parking_poll.csv", "assistant_shares.csv"])
    assert reading.method == "alignment.survey_benchmark"
    assert any("population" in q and "census" in q for q in reading.unread), reading.unread


def test_a_label_the_text_disputes_is_a_question(tmp_path: Path) -> None:
    rng = np.random.default_rng(72)
    x = rng.normal(0, 1, (500, 4))
    flagged = (rng.uniform(size=500) < 0.08).astype(int)
    path = tmp_path / "ward_obs.csv"
    np.savetxt(path, np.column_stack([np.round(x, 3), flagged]), delimiter=",",
               header="heart_rate,resp_rate,spo2,temp,flagged", comments="", fmt=["%.3f"] * 4 + ["%d"])
    disputed = (f"{path.name} has 500 shifts of ward observations and a flagged column. Find the shifts that look "
                "like abnormal deteriorations. Some of the nurses say flagged marks them; others say most flags are "
                "false alarms from a loose probe.")
    reading = read_with(path, disputed)
    assert reading.method == "anomaly.wsad_dt"
    assert any("doubts what `flagged` marks" in q for q in reading.unread), reading.unread
    trusted = (f"{path.name} has 500 shifts of ward observations; flagged is 1 where a deterioration was confirmed. "
               "Find the shifts that look like abnormal deteriorations. Seed 1.")
    assert not any("doubts" in q for q in read_with(path, trusted).unread)


def test_settings_said_in_other_words() -> None:
    queries = _read("Preference lab, CartPole only: thirty queries of each type with a refit after every four, two "
                    "independent problems, a sharp labeler (rationality 3), pools of 120 segments and 80 held-out "
                    "segments. Seed 2.")
    assert queries.method == "rl.distinguishability_queries"
    arguments = queries.understanding.arguments
    assert (arguments.get("batch"), arguments.get("pool_size"), arguments.get("test_size")) == (4, 120, 80), arguments

    sums = _read("Does the number-token loss help on addition? Generate 2000 sums of operands up to 40 and compare "
                 "cross-entropy alone with cross-entropy plus the number-token term at weight 0.5. Seeds 0 and 1, 200 "
                 "steps per model.")
    assert sums.understanding.arguments.get("n_examples") == 2000, sums.understanding.arguments

    cmb = _read("Rerun the full Planck fit (TT, TE and EE) in LCDM with a tighter optical-depth prior, tau = 0.058 ± "
                "0.005. Run until R-1 < 0.03. Seed 5.")
    assert cmb.choice.candidates[0].method == "cosmology.fit_cmb", cmb.choice.candidates[:2]
