"""Every public result's frames are the ones rocci gave before the results shared one base (issue 30).

``tests/reference/result_frames.pkl.gz`` holds, for every call of ``tests/test_vocabulary.py``'s
``_calls()`` and ``_variant_calls()``, the frames of its result (``to_frame()``, and ``leaderboard()`` for
``compare_many``), computed at commit d54c757, before ``to_frame()`` was generated from the dataclass
fields.  The columns, their order, the dtypes and the index must be the same; the numbers equal to 1e-12
(relative; they were equal bit for bit when the fixture was made).  A deliberate change of a frame
regenerates the fixture: ``python tests/test_result_frames.py --write`` (and says so in CHANGELOG.md).
"""

from __future__ import annotations

import gzip
import pickle
import sys
import warnings
from pathlib import Path

import pandas as pd
import pytest

import test_vocabulary as tv

FIXTURE = Path(__file__).resolve().parent / "reference" / "result_frames.pkl.gz"


def _all_calls():
    return {**tv._calls(), **tv._variant_calls()}


def _frames_now(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # the deprecated aliases: tested elsewhere
        return tv._frames(_all_calls()[name]())


def _recorded():
    with gzip.open(FIXTURE, "rb") as f:
        return pickle.load(f)


def test_the_fixture_covers_every_call():
    recorded = {key.rpartition(".")[0] for key in _recorded()}
    assert recorded == set(_all_calls()), "regenerate: python tests/test_result_frames.py --write"


@pytest.mark.parametrize("name", sorted(_all_calls()))
def test_frames_are_unchanged(name):
    recorded = _recorded()
    for kind, frame in _frames_now(name).items():
        before = recorded[f"{name}.{kind}"]
        assert list(frame.columns) == list(before.columns), (name, kind)
        assert frame.dtypes.tolist() == before.dtypes.tolist(), (name, kind)
        pd.testing.assert_frame_equal(frame, before, check_exact=False, rtol=1e-12, atol=1e-15, obj=f"{name}.{kind}")
        assert frame.attrs == before.attrs, (name, kind)


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    frames = {}
    for call_name in _all_calls():
        for kind, frame in _frames_now(call_name).items():
            frames[f"{call_name}.{kind}"] = frame
    with gzip.open(FIXTURE, "wb", compresslevel=9) as f:
        pickle.dump(frames, f, protocol=4)
    print(f"wrote {len(frames)} frames to {FIXTURE}")
