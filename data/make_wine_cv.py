"""Make data/wine_cv.csv: out-of-sample class probabilities of a 3-class model.

The wine recognition data bundled with scikit-learn
(``sklearn.datasets.load_wine``: 178 wines from three cultivars, 59 / 71 / 48,
13 chemical measurements; no download) is scored by a multinomial logistic
regression (L2, C=1) on standardised **alcohol** and **total phenols** only,
under stratified 5-fold cross-validation (shuffled, ``random_state=0``).
Two of the thirteen features keep the classes overlapping, so the model
makes mistakes (about 85% correct) and the curves have visible uncertainty.

Each row holds the wine's fold, its cultivar, and the model's out-of-fold
probability of each cultivar (one column per class, named like the class),
rounded to 4 decimals.

Run from the project root (offline, deterministic)::

    python data/make_wine_cv.py

scikit-learn is a development-only dependency, used by the data scripts
alone; the ``rocci`` package and the dashboard never import it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.datasets import load_wine
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

SEED = 0
N_FOLDS = 5
FEATURES = ("alcohol", "total_phenols")
OUT = Path(__file__).resolve().parent / "wine_cv.csv"


def main() -> pd.DataFrame:
    data = load_wine()
    cols = [list(data.feature_names).index(f) for f in FEATURES]
    X, y = data.data[:, cols], data.target
    names = np.array([f"cultivar_{k + 1}" for k in range(len(data.target_names))])

    cv = StratifiedKFold(n_splits=N_FOLDS, shuffle=True, random_state=SEED)
    fold = np.zeros(len(y), dtype=int)
    proba = np.full((len(y), names.size), np.nan)
    for k, (train, test) in enumerate(cv.split(X, y), start=1):
        fold[test] = k
        model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
        model.fit(X[train], y[train])
        proba[np.ix_(test, model.classes_)] = model.predict_proba(X[test])

    assert np.isfinite(proba).all()
    df = pd.DataFrame({"id": np.arange(len(y)), "fold": fold, "class": names[y]})
    for j, name in enumerate(names):
        df[name] = np.round(proba[:, j], 4)
    df.to_csv(OUT, index=False, float_format="%.4f", lineterminator="\n")
    return df


if __name__ == "__main__":
    frame = main()
    print(f"wrote {OUT} ({len(frame)} rows)")
    print(frame["class"].value_counts().sort_index().to_string())
