"""Module paths of rocci 0.2 that moved in 0.3 (issue 30), still importable with a DeprecationWarning.

``import rocci.counts`` (or ``from rocci.exact import binomial_pmf``) finds the module at its new place,
``rocci._core.counts``, warns once, and binds the old name to the same module object.  The public names
of :mod:`rocci` did not move.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings

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
