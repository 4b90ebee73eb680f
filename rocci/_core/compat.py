"""What rocci 0.2 spelt differently (issue 30), still working in 0.3 with a DeprecationWarning.

* Module paths that moved: ``import rocci.counts`` (or ``from rocci.exact import binomial_pmf``) finds the
  module at its new place, ``rocci._core.counts``, warns once, and binds the old name to the same module
  object.  The public names of :mod:`rocci` did not move.
* Keywords and functions renamed for one vocabulary: :func:`renamed_keyword` takes a function's old
  keyword in place of the new one, :func:`warn_deprecated` is the one warning every old spelling gives (a
  DeprecationWarning that names the new spelling and the version that removes the old one).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings

from .errors import InputError

#: The version that removes what rocci 0.3 deprecates.
REMOVED_IN = "0.4"

#: old module path -> new module path
MOVED = {
    "rocci._validation": "rocci._core.inputs",
    "rocci.counts": "rocci._core.counts",
    "rocci._sorting": "rocci._core.sorting",
    "rocci.exact": "rocci._core.exact",
    "rocci.intervals": "rocci._core.intervals",
    "rocci._results": "rocci._core.results",
    "rocci.threshold": "rocci.roc.threshold",
    "rocci.vertical": "rocci.roc.vertical",
    "rocci.explore": "rocci.confusion.explorer",
    "rocci.multiclass": "rocci.folds.multiclass",
    "rocci.populations": "rocci.coverage.populations",
    "rocci.worlds": "rocci.coverage.worlds",
}


def warn_deprecated(message: str, *, stacklevel: int = 2) -> None:
    """Warn that an old spelling was used: ``message`` says what it is now.

    ``stacklevel`` counts from the caller of this function, as :func:`warnings.warn`'s does from its own
    caller (2: the code that called the deprecated function), so that the warning names the user's line.
    """
    warnings.warn(f"{message} The old spelling still works in rocci 0.3 and goes in {REMOVED_IN}.",
                  DeprecationWarning, stacklevel=stacklevel + 1)


def renamed_keyword(function: str, old: str, new: str, old_value, new_value):
    """The value to use for keyword ``new`` of ``function``, given the values passed as ``old`` (its rocci 0.2
    name) and as ``new``; ``None`` means not given.

    ``old`` alone warns (DeprecationWarning naming ``new``) and its value is used; both at once is an
    :class:`~rocci.InputError`.  Called by the public function itself (the warning names its caller's line).
    """
    if old_value is None:
        return new_value
    if new_value is not None:
        raise InputError(f"Give {new} only ({old} is its old name), not both.")
    warn_deprecated(f"{function}({old}=...) is {function}({new}=...) since rocci 0.3 (one vocabulary across "
                    "rocci).", stacklevel=3)
    return old_value


def renamed_attribute(owner: str, old: str, new: str) -> property:
    """A read-only property ``old`` that returns attribute ``new`` with a DeprecationWarning (``owner``: the
    class's name, for the message)."""

    def read(self):
        warn_deprecated(f"{owner}.{old} is {owner}.{new} since rocci 0.3 (one vocabulary across rocci).")
        return getattr(self, new)

    read.__doc__ = f"Deprecated: rocci 0.2's name of ``{new}``."
    read.renamed_to = new  # a frame-like result maps the old column name too (frames._FrameLike.__getitem__)
    return property(read)


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path=None, target=None):
        if fullname in MOVED:
            return importlib.util.spec_from_loader(fullname, self)
        return None

    def create_module(self, spec):
        new = MOVED[spec.name]
        warnings.warn(f"{spec.name} moved to {new} in rocci 0.3; import the public names from rocci "
                      f"(e.g. rocci.ScoreCounts) or use {new}.", DeprecationWarning, stacklevel=2)
        return importlib.import_module(new)

    def exec_module(self, module):
        pass


def install() -> None:
    """Put the alias finder on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, _Alias) for f in sys.meta_path):
        sys.meta_path.append(_Alias())
