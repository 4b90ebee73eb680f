"""The import rules of docs/architecture.md ("What may import what"), checked on the source with ``ast``.

Every ``import`` and ``from ... import`` counts, wherever it is (module level, inside a function, under
``try``), since a lazy import is still a dependency.  A failure names the file, the line and the import.
The last test checks that every ``module:name`` the page cites exists, so the page stays true.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"

#: The map, data → counts → exact laws → intervals → results → plots, as ranks: a rocci module may import
#: its own rank and the ranks below, never a higher one.  Keys are modules or packages (longest prefix wins);
#: "rocci" alone is the package's ``__init__`` (the public facade).
RANKS = {
    "rocci._core": 0,  # the package's docstring only
    "rocci._core.errors": 0,  # InputError: a leaf
    "rocci._core.compat": 0,  # rocci 0.2's spellings (module paths, keywords, names), deprecated
    "rocci._core.frames": 0,  # _FrameResult, the base of every result (pandas only: data's ScanResult uses it)
    "rocci._core.inputs": 0,
    "rocci._core.sorting": 0,  # argsort_scores: a numpy-only sort any layer may use
    "rocci._core.counts": 0,  # the engine's input (ScoreCounts, PairedCounts): validation accepts it, data produces it
    "rocci.data": 1,
    "rocci._core.exact": 3,
    "rocci._core.paired_order": 3,  # the joint law of two models' thresholds (compare, precision)
    "rocci._core.intervals": 4,
    # results, one model: the result dataclasses and the functions that fill them
    "rocci._core.results": 5,
    "rocci.roc": 5,
    # results, two models and costs (each package holds its own laws and intervals)
    "rocci.compare": 6,
    "rocci.cost": 6,
    # results built on the results above, the coverage lab, and the facade
    "rocci.confusion": 7,
    "rocci.folds": 7,
    "rocci.precision": 7,
    "rocci.bands": 7,
    "rocci.coverage": 7,
    "rocci": 7,
    # figures from results
    "rocci.plots": 8,
    # the command line (issue 33): reads data, calls the statistics, prints them or writes the HTML report
    "rocci.cli": 9,
    "rocci.__main__": 9,  # python -m rocci: calls rocci.cli.main
}
RANK_NAMES = {
    0: "validation and counts",
    1: "data",
    2: "(unused)",
    3: "exact laws",
    4: "intervals",
    5: "results (one model)",
    6: "results (two models, costs)",
    7: "results built on results / coverage lab / facade",
    8: "plots",
    9: "command line",
}

#: The only rocci modules outside rocci.plots that import rocci.plots, and why (docs/architecture.md).
PLOTS_IMPORTERS = {
    "rocci.coverage.worlds": "compact_indices thins each resampled ROC curve to the points the Learn page draws",
    "rocci.coverage.__main__": "the command line writes the study's figure next to its CSV",
    "rocci.cli.report": "rocci report draws the figures of its HTML report (plotly imported only there)",
}

#: Third-party packages that belong to the dashboard and the figures only.
STREAMLIT = "streamlit"
PLOTLY = "plotly"


@dataclass(frozen=True)
class Import:
    source: str  # dotted module holding the import
    target: str  # dotted module imported (a local module where one matches)
    path: str  # file, relative to the repository
    line: int
    text: str  # the statement as written

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.source} imports {self.target} ({self.text!r})"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def _files() -> tuple[Path, ...]:
    files = [ROOT / "app.py"]
    for top in ("rocci", "ui", "app_pages"):
        files += sorted((ROOT / top).rglob("*.py"))
    return tuple(f for f in files if "__pycache__" not in f.parts)


@cache
def _local_modules() -> frozenset[str]:
    return frozenset(_module_name(f) for f in _files())


def _top(name: str) -> str:
    return name.split(".")[0]


def _under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


@cache
def _imports() -> tuple[Import, ...]:
    local = _local_modules()
    out = []
    for path in _files():
        source = _module_name(path)
        package = source if path.name == "__init__.py" else source.rpartition(".")[0]
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        rel = str(path.relative_to(ROOT))
        for node in ast.walk(ast.parse(text, filename=rel)):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    module = ".".join(base + ([node.module] if node.module else []))
                else:
                    module = node.module or ""
                # `from pkg import sub` imports the module pkg.sub where there is one
                targets = [f"{module}.{a.name}" if f"{module}.{a.name}" in local else module for a in node.names]
            else:
                continue
            statement = lines[node.lineno - 1].strip()
            out += [Import(source, t, rel, node.lineno, statement) for t in dict.fromkeys(targets)]
    return tuple(out)


def _rank(module: str) -> int | None:
    best = None
    for key in RANKS:
        if (_under(module, key) and key != "rocci") or module == key:
            if best is None or len(key) > len(best):
                best = key
    return None if best is None else RANKS[best]


def _failures(found: list[Import], rule: str) -> str:
    return f"{rule}\n" + "\n".join(f"  {imp}" for imp in found)


def test_every_rocci_module_is_on_the_map():
    missing = sorted(m for m in _local_modules() if _top(m) == "rocci" and _rank(m) is None)
    assert not missing, (
        "rocci modules outside the map; add them to RANKS in tests/test_architecture.py and to the map in "
        f"docs/architecture.md: {missing}")


def test_rocci_never_imports_the_dashboard():
    bad = [i for i in _imports() if _top(i.source) == "rocci"
           and _top(i.target) in (STREAMLIT, "ui", "app_pages", "app")]
    assert not bad, _failures(bad, "rocci must not import streamlit, ui, app_pages or app:")


def test_only_rocci_plots_imports_plotly_inside_rocci():
    bad = [i for i in _imports() if _top(i.source) == "rocci" and not _under(i.source, "rocci.plots")
           and _top(i.target) == PLOTLY]
    assert not bad, _failures(bad, "inside rocci, only rocci.plots imports plotly:")


def test_plots_compute_nothing():
    bad = [i for i in _imports() if _under(i.source, "rocci.plots") and _top(i.target) == "rocci"
           and not _under(i.target, "rocci.plots")]
    assert not bad, _failures(bad, "rocci.plots takes results as arguments; it imports nothing else from rocci:")


def test_plots_are_imported_by_the_listed_modules_only():
    bad = [i for i in _imports() if _top(i.source) == "rocci" and not _under(i.source, "rocci.plots")
           and _under(i.target, "rocci.plots") and i.source not in PLOTS_IMPORTERS]
    assert not bad, _failures(
        bad, f"only {sorted(PLOTS_IMPORTERS)} may import rocci.plots inside rocci (PLOTS_IMPORTERS):")


def test_listed_plots_importers_still_need_it():
    using = {i.source for i in _imports() if _under(i.target, "rocci.plots")}
    stale = sorted(set(PLOTS_IMPORTERS) - using)
    assert not stale, (f"{stale} no longer import rocci.plots: remove them from PLOTS_IMPORTERS and from "
                       "the exceptions in docs/architecture.md")


def test_no_layer_imports_a_later_layer():
    bad = []
    for imp in _imports():
        if _top(imp.source) != "rocci" or _top(imp.target) != "rocci" or imp.target not in _local_modules():
            continue
        if imp.source in PLOTS_IMPORTERS and _under(imp.target, "rocci.plots"):
            continue
        src, dst = _rank(imp.source), _rank(imp.target)
        if src is not None and dst is not None and dst > src:
            bad.append(f"  {imp}\n    [{RANK_NAMES[src]}] must not import the later [{RANK_NAMES[dst]}]")
    assert not bad, "a rocci module imports a later layer of the map:\n" + "\n".join(bad)


def test_ui_never_imports_pages():
    bad = [i for i in _imports() if _top(i.source) == "ui" and _top(i.target) in ("app_pages", "app")]
    assert not bad, _failures(bad, "ui must not import app_pages or app:")


def test_pages_never_import_each_other_or_the_router():
    bad = [i for i in _imports() if _top(i.source) == "app_pages" and _top(i.target) in ("app_pages", "app")]
    assert not bad, _failures(bad, "a page (app_pages/) imports only ui and rocci, never another page or app.py:")


def test_router_imports_ui_only():
    bad = [i for i in _imports() if i.source == "app" and _top(i.target) in ("rocci", "app_pages")]
    assert not bad, _failures(bad, "app.py routes to the pages by path (st.Page); it imports ui, not rocci:")


def test_streamlit_stays_in_the_dashboard():
    bad = [i for i in _imports() if _top(i.target) == STREAMLIT and _top(i.source) not in ("ui", "app_pages", "app")]
    assert not bad, _failures(bad, "only ui, app_pages and app.py import streamlit:")


def test_import_rocci_loads_neither_streamlit_nor_plotly():
    code = ("import sys, rocci; "
            "print(' '.join(sorted({m.split('.')[0] for m in sys.modules} & {'streamlit', 'plotly', 'ui'})))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "", f"`import rocci` loads {out.stdout.strip()}: the facade must not need them"


# --- the page's references -------------------------------------------------------------------------------

_REF = re.compile(r"`((?:rocci|ui|app_pages)(?:\.\w+)*):([A-Za-z_][\w.]*)`")


def _defined(tree: ast.AST, dotted: str) -> bool:
    body = tree.body
    for part in dotted.split("."):
        names = {}
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names[node.name] = node
            elif isinstance(node, ast.Assign):
                names.update({t.id: node for t in node.targets if isinstance(t, ast.Name)})
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names[node.target.id] = node
            elif isinstance(node, ast.ImportFrom):
                names.update({(a.asname or a.name): node for a in node.names})
        if part not in names:
            return False
        body = getattr(names[part], "body", [])
    return True


def _source(module: str) -> Path | None:
    base = ROOT.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def test_architecture_page_cites_real_names():
    if not DOC.is_file():
        pytest.skip("docs/architecture.md is missing")
    refs = sorted(set(_REF.findall(DOC.read_text(encoding="utf-8"))))
    assert refs, "docs/architecture.md cites no `module:name`"
    bad = []
    for module, name in refs:
        path = _source(module)
        if path is None:
            bad.append(f"`{module}:{name}`: no module {module}")
        elif not _defined(ast.parse(path.read_text(encoding="utf-8")), name):
            bad.append(f"`{module}:{name}`: {path.relative_to(ROOT)} defines no {name}")
    assert not bad, "docs/architecture.md cites names that do not exist:\n  " + "\n  ".join(bad)


# --- the package's shape (issue 30) ----------------------------------------------------------------------

#: Modules allowed at the top of rocci/ besides __init__.py, __main__.py and the subpackages (at most three).
TOP_MODULES: frozenset[str] = frozenset()
MAX_MODULE_LINES = 900
MAX_FUNCTION_LINES = 120  # the body after the docstring


def test_top_level_holds_the_facade_and_subpackages():
    extra = sorted(p.name for p in (ROOT / "rocci").glob("*.py") if p.name not in ("__init__.py", "__main__.py"))
    assert set(extra) <= {f"{m}.py" for m in TOP_MODULES} and len(TOP_MODULES) <= 3, (
        f"rocci/ holds {extra}: put new modules in a subpackage (docs/architecture.md, 'where new work goes')")


def test_no_module_is_too_long():
    long = [f"{p.relative_to(ROOT)}: {n} lines" for p in _files()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES]
    assert not long, f"modules over {MAX_MODULE_LINES} lines; split them by named steps:\n  " + "\n  ".join(long)


def _body_lines(node) -> int:
    body = node.body
    first = body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        if len(body) == 1:
            return 0
        first = body[1]
    return node.end_lineno - first.lineno + 1


def test_no_function_is_too_long():
    long = []
    for path in _files():
        if _top(_module_name(path)) == "app_pages" or path.name == "app.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _body_lines(node) > MAX_FUNCTION_LINES:
                long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}: {_body_lines(node)} lines")
    assert not long, (f"functions over {MAX_FUNCTION_LINES} lines after the docstring; split them by named "
                      "steps:\n  " + "\n  ".join(long))


def _subpackage(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_no_private_name_crosses_subpackages():
    """``from rocci.<a>.x import _y`` (or a private module ``rocci.<a>._x``) from another subpackage ``rocci.<b>``
    is refused, except from ``rocci._core``: what two subpackages share lives in ``_core``."""
    bad = []
    for path in _files():
        source = _module_name(path)
        if _top(source) != "rocci":
            continue
        package = source if path.name == "__init__.py" else source.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if _top(module) != "rocci" or _under(module, "rocci._core"):
                continue
            if _subpackage(module) in ("", _subpackage(source)):
                continue  # the facade, or inside one subpackage
            private_module = any(part.startswith("_") for part in module.split(".")[2:])
            names = [a.name for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
            if private_module or names:
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno}: {source} imports "
                           f"{module}:{','.join(names) or '*'}")
    assert not bad, ("private names imported across subpackages (move what is shared into rocci._core or make "
                     "it public):\n  " + "\n  ".join(bad))


def _cycles() -> list[list[str]]:
    """Strongly connected components of more than one file in the import graph (lazy imports included)."""
    local = _local_modules()
    graph: dict[str, set[str]] = {m: set() for m in local}
    for imp in _imports():
        if imp.target in local and imp.target != imp.source:
            graph[imp.source].add(imp.target)
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10_000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle_between_files():
    cycles = _cycles()
    assert not cycles, "files that import each other (directly or around a loop):\n  " + "\n  ".join(
        " <-> ".join(c) for c in cycles)


def test_moved_module_paths_still_import_with_a_warning():
    """rocci 0.2's module paths (issue 30 moved them) import the same module objects, each with a
    DeprecationWarning naming the new path (in a fresh interpreter, so that none is imported yet)."""
    from rocci._core.compat import MOVED

    code = ("import warnings, importlib, rocci\n"
            "from rocci._core.compat import MOVED\n"
            "for old, new in sorted(MOVED.items()):\n"
            "    with warnings.catch_warnings(record=True) as w:\n"
            "        warnings.simplefilter('always')\n"
            "        module = importlib.import_module(old)\n"
            "    ok = module is importlib.import_module(new)\n"
            "    warned = any(issubclass(x.category, DeprecationWarning) and new in str(x.message) for x in w)\n"
            "    print(old, ok, warned)\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    rows = [line.split() for line in out.stdout.splitlines()]
    assert [r[0] for r in rows] == sorted(MOVED)
    assert all(r[1:] == ["True", "True"] for r in rows), out.stdout
