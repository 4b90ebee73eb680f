"""Make data/breast_cancer_cv.csv: out-of-sample scores of two models.

The Wisconsin diagnostic breast cancer data bundled with scikit-learn
(``sklearn.datasets.load_breast_cancer``: 569 tumours, 212 malignant, 357
benign, 30 numeric features; no download) is scored by two models under
stratified 5-fold cross-validation (shuffled, ``random_state=0``):

* ``logistic`` -- logistic regression (L2, C=1) on standardised features;
* ``naive_bayes`` -- Gaussian naive Bayes on the raw features.

Each score is the model's out-of-fold probability that the tumour is
malignant (the positive class), rounded to 6 decimals.  Naive Bayes is very
over-confident, so many of its rounded scores tie at exactly 0 or 1; its
ROC curve is visibly below the logistic one near the top-left corner.

Run from the project root (offline, deterministic)::

    python data/make_breast_cancer_cv.py

scikit-learn is a development-only dependency: this script is the only
place it is used; the ``rocci`` package and the dashboard never import it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

SEED = 0
N_FOLDS = 5
OUT = Path(__file__).resolve().parent / "breast_cancer_cv.csv"


def make_models() -> dict:
    return {
        "logistic": make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
        "naive_bayes": GaussianNB(),
    }


def main() -> pd.DataFrame:
    data = load_breast_cancer()
    X, y = data.data, data.target
    names = np.asarray(data.target_names)  # ['malignant', 'benign']: target 0 = malignant
    malignant = int(np.flatnonzero(names == "malignant")[0])

    cv = StratifiedKFold(n_splits=N_FOLDS, shuffle=True, random_state=SEED)
    fold = np.zeros(len(y), dtype=int)
    scores = {name: np.full(len(y), np.nan) for name in make_models()}
    for k, (train, test) in enumerate(cv.split(X, y), start=1):
        fold[test] = k
        for name, model in make_models().items():
            model.fit(X[train], y[train])
            col = list(model.classes_).index(malignant)
            scores[name][test] = model.predict_proba(X[test])[:, col]

    df = pd.DataFrame({"id": np.arange(len(y)), "fold": fold, "label": names[y]})
    for name, s in scores.items():
        assert np.isfinite(s).all()
        df[name] = np.round(s, 6)
    df.to_csv(OUT, index=False, float_format="%.6f", lineterminator="\n")
    return df


if __name__ == "__main__":
    frame = main()
    print(f"wrote {OUT} ({len(frame)} rows)")
    print(frame["label"].value_counts().to_string())
