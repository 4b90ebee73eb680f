"""The one base of every result (issue 30): columns declared once on the dataclass fields, the shared scalars
under one name each, and the repr built from them."""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np
import pandas as pd
import pytest

import rocci
from rocci._core.frames import SHARED_SCALARS, _FrameResult, column, column_fields
import test_vocabulary as tv


def _results():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return {name: call() for name, call in {**tv._calls(), **tv._variant_calls()}.items()}


def test_generated_frames_are_the_column_fields_in_order():
    generated = set()
    for name, res in _results().items():
        cls = type(res)
        if cls.to_frame is not _FrameResult.to_frame and "super().to_frame()" not in _source(cls.to_frame):
            continue  # a hand-written frame (its comment says why)
        generated.add(cls.__name__)
        names = [template.format_map({k: getattr(res, k) for k in ("metric",) if hasattr(res, k)})
                 for field_name, template in column_fields(cls) if getattr(res, field_name) is not None]
        assert list(res.to_frame().columns) == names, name
    assert len(generated) >= 25, sorted(generated)


def _source(fn):
    import inspect

    return inspect.getsource(fn)


def test_every_result_has_columns_or_its_own_to_frame():
    for name, res in _results().items():
        cls = type(res)
        assert column_fields(cls) or cls.to_frame is not _FrameResult.to_frame, name


#: Names a result must not use for a shared scalar (SHARED_SCALARS says which name each has).
OTHER_SPELLINGS = {"level", "alpha", "conf_level", "ci_level", "n_positive", "n_negative", "n_positives",
                   "n_negatives", "m_positive", "m_negative", "bootstrap_kind", "interval_method", "ci_method"}


def test_shared_scalars_have_one_name():
    for name, res in _results().items():
        fields = {f.name for f in dataclasses.fields(res)}
        assert not fields & OTHER_SPELLINGS, (name, fields & OTHER_SPELLINGS)
        if "confidence_level" in fields and np.ndim(res.confidence_level) == 0:
            assert 0 < res.confidence_level < 1, name
        for size in ("n_pos", "n_neg", "m_pos", "m_neg", "m", "m_total"):
            if size in fields and getattr(res, size) is not None and np.ndim(getattr(res, size)) == 0:
                assert int(getattr(res, size)) == getattr(res, size) >= 0, (name, size)


def test_repr_shows_the_shared_scalars_a_result_records():
    y, s = tv._data()
    res = rocci.cost_ci(y, s, w=[0.3])
    head = repr(res).splitlines()[0]
    expected = ", ".join(f"{k}={getattr(res, k)!r}" for k in ("n_pos", "n_neg", "m_pos", "m_neg", "bootstrap", "method",
                                                              "confidence_level"))
    assert head == f"CostCI({expected})"
    full = rocci.cost_ci(y, s, w=[0.3], bootstrap="full")
    assert "m_total=300" in repr(full) and "m_pos" not in repr(full).splitlines()[0]  # None is not shown
    assert repr(rocci.gain_ci(y, s, thresholds=[0.5])).startswith("GainCI(at='threshold', n_pos=")
    assert SHARED_SCALARS[-1] == "confidence_level"


@dataclasses.dataclass(repr=False)
class _Toy(_FrameResult):
    thresholds: np.ndarray = column("threshold")
    value: np.ndarray = column("{name}_value")
    extra: np.ndarray | None = column(default=None)
    name: str = "x"
    confidence_level: float = 0.9


def test_column_templates_optional_columns_and_one_row():
    toy = _Toy(np.array([1.0, 0.5]), np.array([0.2, 0.4]))
    pd.testing.assert_frame_equal(toy.to_frame(), pd.DataFrame({"threshold": [1.0, 0.5], "x_value": [0.2, 0.4]}))
    with_extra = dataclasses.replace(toy, extra=np.array([3, 4]), name="y")
    assert list(with_extra.to_frame().columns) == ["threshold", "y_value", "extra"]
    one = _Toy(1.0, 0.2)
    pd.testing.assert_frame_equal(one.to_frame(), pd.DataFrame([{"threshold": 1.0, "x_value": 0.2}]))
    assert repr(toy).startswith("_Toy(confidence_level=0.9)")
    with pytest.raises(TypeError, match="scalars beside arrays"):
        _Toy(np.array([1.0, 0.5]), 0.3).to_frame()
