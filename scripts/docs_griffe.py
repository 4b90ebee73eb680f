"""A griffe extension for the API reference (mkdocs.yml): rocci's docstrings use Sphinx roles.

``:func:`roc_curve```, ``:class:`~rocci.ThresholdCI```, ``:meth:`VerticalCI.distribution``` and the like
are written for Sphinx; Markdown would show the role's name.  This turns each into inline code, and into a
link to its entry in the reference when the name (or its first part, for ``Class.method``) is one of
``rocci.__all__``, read from ``rocci/__init__.py`` without importing rocci.  Every other target (a private
helper, a module, numpy or pandas) stays code without a link, so no link can dangle.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from griffe import Extension

ROOT = Path(__file__).resolve().parent.parent


def _public() -> set[str]:
    tree = ast.parse((ROOT / "rocci" / "__init__.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__" for t in node.targets):
            return set(ast.literal_eval(node.value))
    raise RuntimeError("rocci/__init__.py has no __all__")


PUBLIC = _public()
_ROLE = re.compile(r":(?:py:)?(?:func|class|meth|attr|mod|data|obj|exc):`([^`]+)`")


def _replace(match: re.Match) -> str:
    text = match.group(1).strip()
    explicit = re.fullmatch(r"(.*?)\s*<(.+)>", text)
    if explicit:
        shown, target = explicit.group(1), explicit.group(2)
    else:
        target = text.lstrip("~")
        shown = target.rsplit(".", 1)[-1] if text.startswith("~") else target
    parts = target.removeprefix("rocci.").split(".")
    for name in (parts[-1], parts[0]):  # rocci.cost.cost_ci -> cost_ci; ThresholdCI.distribution -> ThresholdCI
        if name in PUBLIC:
            return f"[`{shown}`][rocci.{name}]"
    return f"`{shown}`"


def convert(text: str) -> str:
    return _ROLE.sub(_replace, text)


class SphinxRoles(Extension):
    """Rewrite the Sphinx roles of every docstring as Markdown code, linked where the target is public."""

    def on_instance(self, *, obj, **kwargs) -> None:
        if obj.docstring is not None:
            obj.docstring.value = convert(obj.docstring.value)
