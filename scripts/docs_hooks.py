"""MkDocs hooks of the documentation site (mkdocs.yml, ``hooks:``); run by ``bash scripts/docs.sh``.

**Every example runs when the site is built.**  Each ```` ```python ```` block that starts a line of a page
(not indented) is executed, page by page, in one namespace per page (so a page's later blocks see its
earlier ones), with the repository's root as the working directory (``data/...`` paths work) and rocci
imported from this checkout.  The printed output and the value of a block's last expression are put under
the block (a table, for a value with a table view: a DataFrame, a rocci result; else as text), so what the
page shows is what the code gave at build time.  An
exception fails the build, naming the page and the block's line; so does a DeprecationWarning raised by
rocci (an example that uses an old spelling).

A block that cannot run at build time (it needs a Spark cluster, files on a server, or the reader's own
data) is fenced ```` ```py ```` instead: highlighted the same, never run.  ``site/examples-run.json`` lists,
per page, how many blocks ran and how many were left as fragments (``tests/test_docs.py`` reads it).

The changelog page is the repository's CHANGELOG.md (a record of what changed: its code, old spellings
included, is not run), its links to ``docs/x.md`` rewritten to the site's
``x.md``; a page's link to ``../CHANGELOG.md`` goes to that page.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sys
import time
import traceback
import warnings
from pathlib import Path

from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parent.parent

_FENCE = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)
_FRAGMENT = re.compile(r"^```py[ \t]*$", re.M)
_RUNS: dict[str, dict] = {}


def _run_block(code: str, ns: dict, label: str) -> tuple[str, str]:
    """Run ``code`` in ``ns``: what it printed, and its last expression's value as HTML when it has a table
    view (``_repr_html_``: a DataFrame, a rocci result), else as text after the printed lines."""
    import ast

    tree = ast.parse(code, filename=label)
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    out, html = io.StringIO(), ""
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.filterwarnings("error", category=DeprecationWarning, message=r".*rocci")
        exec(compile(tree, label, "exec"), ns)
        if last is not None:
            value = eval(compile(last, label, "eval"), ns)
            if hasattr(value, "_repr_html_") and not isinstance(value, type):
                html = value._repr_html_() or ""
            if value is not None and not html:
                print(repr(value))
    return out.getvalue().rstrip(), html


def on_config(config, **kwargs):
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    _RUNS.clear()
    return config


def on_page_markdown(markdown: str, page, config, files, **kwargs):
    src = page.file.src_uri
    if src == "changelog.md":  # the repository's CHANGELOG.md, its links to docs/x.md made the site's x.md
        return re.sub(r"\]\(docs/", "](", (ROOT / "CHANGELOG.md").read_text())  # history: its code is not run
    elif "/" not in src:  # a link from docs/x.md to the repository's CHANGELOG.md goes to the site's page
        markdown = markdown.replace("](../CHANGELOG.md)", "](changelog.md)")
    blocks = list(_FENCE.finditer(markdown))
    fragments = len(_FRAGMENT.findall(markdown))
    if not blocks:
        if fragments:
            _RUNS[src] = {"run": 0, "fragments": fragments, "seconds": 0.0}
        return markdown
    import numpy as np
    import pandas as pd

    ns: dict = {"__name__": f"docs:{src}"}
    pieces, pos, t0 = [], 0, time.perf_counter()
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        with pd.option_context("display.width", 100, "display.max_columns", 14, "display.precision", 4), \
                np.printoptions(precision=6, suppress=True, linewidth=100):
            for block in blocks:
                line = markdown.count("\n", 0, block.start()) + 1
                label = f"docs/{src}, the ```python block at line {line}"
                try:
                    text, html = _run_block(block.group(1), ns, label)
                except Exception as exc:  # the build fails: an example no longer runs
                    detail = "".join(traceback.format_exception(exc, limit=-3))
                    raise PluginError(f"{label} failed:\n{detail}") from None
                pieces.append(markdown[pos:block.end()])
                if text:
                    pieces.append("\n\n```text\n" + text + "\n```")
                if html:  # a raw HTML block: blank lines around it, none inside
                    html = "\n".join(line for line in html.splitlines() if line.strip())
                    pieces.append(f'\n\n<div class="example-output">\n{html}\n</div>\n')
                pos = block.end()
    finally:
        os.chdir(cwd)
    pieces.append(markdown[pos:])
    _RUNS[src] = {"run": len(blocks), "fragments": fragments, "seconds": round(time.perf_counter() - t0, 2)}
    return "".join(pieces)


def on_post_build(config, **kwargs):
    path = Path(config["site_dir"]) / "examples-run.json"
    path.write_text(json.dumps(dict(sorted(_RUNS.items())), indent=1) + "\n")
