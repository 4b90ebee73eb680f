"""Real-looking data of our own for the page tests (AppTest and browser): not the bundled samples."""

from __future__ import annotations

import numpy as np
import pandas as pd


def clinic_frame(n=2400, share=0.12, seed=11) -> pd.DataFrame:
    """Risk data as a clinic would have it: string labels ("disease"/"healthy"), 12% prevalence, two
    calibrated risk models (risk_v2 better than risk_v1) and a points score (0 to 40) that is not a
    probability."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < share
    z = rng.normal(size=n)
    lin2 = -2.4 + 1.7 * y + 0.9 * z
    lin1 = -2.2 + 1.1 * y + 0.9 * rng.normal(size=n)
    return pd.DataFrame({
        "outcome": np.where(y, "disease", "healthy"),
        "risk_v2": np.round(1 / (1 + np.exp(-lin2)), 4),
        "risk_v1": np.round(1 / (1 + np.exp(-lin1)), 4),
        "points": np.clip(np.round(12 + 6 * y + 5 * z), 0, 40).astype(int),
    })


def six_models_frame(n=5000, share=0.16, seed=7) -> pd.DataFrame:
    """A fraud-like file with six risk models of different strength on the same transactions (string labels
    'fraud'/'ok', 16% positives), two of them close (gbm and xgb)."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < share
    base = rng.normal(size=n)
    frame = pd.DataFrame({"transaction": np.arange(n) + 100_000, "outcome": np.where(y, "fraud", "ok")})
    for name, sep in (("gbm", 1.6), ("xgb", 1.55), ("logit", 1.2), ("forest", 1.4), ("rules", 0.8), ("naive", 0.6)):
        z = sep * y + 0.6 * base + rng.normal(size=n)
        frame[name] = np.round(1 / (1 + np.exp(-(z - 1.5))), 4)
    return frame


def two_months_frame(n=(3000, 2600), shares=(0.1, 0.13), seed=21) -> pd.DataFrame:
    """One churn model scored on two months' customers (a 'month' column splits the test sets), with a
    challenger scored on the second month only (missing in the first): string labels 'churned'/'stayed'."""
    rng = np.random.default_rng(seed)
    parts = []
    for month, size, share, sep in (("2026-09", n[0], shares[0], 1.5), ("2026-10", n[1], shares[1], 1.2)):
        y = rng.random(size) < share
        z = rng.normal(size=size)
        parts.append(pd.DataFrame({
            "month": month, "status": np.where(y, "churned", "stayed"),
            "churn_model": np.round(1 / (1 + np.exp(-(sep * y + z - 2.2))), 4),
        }))
    frame = pd.concat(parts, ignore_index=True)
    frame["customer"] = np.arange(len(frame)) + 5000
    return frame[["customer", "month", "status", "churn_model"]]
