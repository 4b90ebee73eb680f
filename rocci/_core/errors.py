"""The one exception of rocci, and the wording of values in its messages (a leaf: imports nothing of rocci)."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["InputError", "format_value", "length_mismatch"]


class InputError(ValueError):
    """Raised for input that rocci cannot use.

    The message names the problem and what to do about it; it is meant to be
    shown as-is to a person (the dashboard prints it in an error box).
    """


def format_value(value: Any) -> str:
    """A value as it is, for an error message: exact, never rounded.

    Floats print with Python's shortest round-trip ``repr`` (a ``w`` of
    1 + 2⁻⁵² prints as ``1.0000000000000002``, where ``:g`` gives ``1``),
    NumPy scalars as the matching Python value (``0.5``, not
    ``np.float64(0.5)``), anything else with ``repr``.

    Examples
    --------
    >>> format_value(1 + 2**-52)
    '1.0000000000000002'
    >>> import numpy as np
    >>> format_value(np.float64(0.95)), format_value("a")
    ('0.95', "'a'")
    """
    if isinstance(value, np.generic):
        value = value.item()
    return repr(value)


def length_mismatch(name: str, size: int, other: str, n: int, what: str) -> InputError:
    """The one wording of every length mismatch: ``"<name> has 3 values but <other> has 4: <what>."``.

    Examples
    --------
    >>> str(length_mismatch("y_score", 3, "y_true", 4, "give one score per label"))
    'y_score has 3 values but y_true has 4: give one score per label.'
    """
    return InputError(f"{name} has {size} values but {other} has {n}: {what}.")
