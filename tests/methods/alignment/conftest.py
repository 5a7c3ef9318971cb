"""Shared fixtures: the simulated ANES 1996 population (statsmodels ships the study) and its margins."""

from __future__ import annotations

import pandas as pd
import pytest

from cmbagent.tools.methods.alignment import anes96_population


@pytest.fixture(scope="session")
def population() -> pd.DataFrame:
    return anes96_population(20_000, seed=1996)


@pytest.fixture(scope="session")
def margins(population: pd.DataFrame) -> dict[str, dict[str, float]]:
    return {c: population[c].value_counts(normalize=True).to_dict() for c in ("age_group", "education")}
