"""Command line: ``python -m rocci.coverage EXPERIMENT [options]``.

Runs a named experiment ("fig4.2" … "fig5.12"; ``--list`` shows them) and
writes ``coverage_<name>.csv`` (the tidy table) and ``coverage_<name>.html``
(the plotly figure) to ``--out`` (default: the current folder).  ``--png``
also writes a PNG when the optional ``kaleido`` package is installed.

Examples
--------
``python -m rocci.coverage fig4.3``
``python -m rocci.coverage fig4.6 --replicates 500 --seed 1 -p n=200``
``python -m rocci.coverage fig5.3 -p thetas=1 -p rhos=0.3,0.9 --small``
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .._core.inputs import InputError
from .experiments import list_experiments, run_experiment


def _value(text: str):
    parts = [p.strip() for p in text.split(",") if p.strip()]
    def one(p):
        try:
            return float(p) if any(c in p for c in ".eE") else int(p)
        except ValueError:
            return p
    vals = [one(p) for p in parts]
    return vals if len(vals) != 1 or "," in text else vals[0]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rocci.coverage",
                                     description="Coverage experiments of Gadoury (2009), exact or simulated.")
    parser.add_argument("experiment", nargs="?", help="experiment name, e.g. fig4.3 (see --list)")
    parser.add_argument("--list", action="store_true", help="list the experiments and exit")
    parser.add_argument("--small", action="store_true", help="start from the quick reduced-size parameters")
    parser.add_argument("--replicates", type=int, help="simulated test sets per configuration")
    parser.add_argument("--seed", type=int, help="random seed of the simulations")
    parser.add_argument("--level", type=float, help="confidence level (target coverage)")
    parser.add_argument("-p", "--param", action="append", default=[], metavar="KEY=VALUE",
                        help="override a parameter; lists are comma-separated (e.g. thetas=1,3)")
    parser.add_argument("--out", default=".", help="output folder (default: current folder)")
    parser.add_argument("--png", action="store_true", help="also write a PNG (needs the kaleido package)")
    parser.add_argument("--quiet", action="store_true", help="no progress messages")
    args = parser.parse_args(argv)

    if args.list or not args.experiment:
        table = list_experiments()
        for row in table.itertuples():
            print(f"{row.name:8s} {row.kind:10s} {row.title}\n         {row.description}")
        if not args.experiment:
            return 0 if args.list else 2
        return 0

    params = {}
    for item in args.param:
        if "=" not in item:
            parser.error(f"--param needs KEY=VALUE; got {item!r}")
        key, value = item.split("=", 1)
        params[key.strip()] = _value(value)
    for key in ("replicates", "seed", "level"):
        if getattr(args, key) is not None:
            params[key] = getattr(args, key)

    last = [-1.0]

    def progress(fraction, message):
        if args.quiet or fraction - last[0] < 0.05 and fraction < 1.0:
            return
        last[0] = fraction
        print(f"\r[{fraction:6.1%}] {message[:100]:100s}", end="", file=sys.stderr, flush=True)

    try:
        study = run_experiment(args.experiment, small=args.small, progress=progress, **params)
    except InputError as exc:
        print(f"\nerror: {exc}", file=sys.stderr)
        return 2
    if not args.quiet:
        print(file=sys.stderr)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    stem = out / f"coverage_{study.experiment.name}"
    study.to_frame().to_csv(f"{stem}.csv", index=False, float_format="%.10g")
    from ..plots.coverage import coverage_figure

    fig = coverage_figure(study)
    fig.write_html(f"{stem}.html", include_plotlyjs=True)
    written = [f"{stem}.csv", f"{stem}.html"]
    if args.png:
        import importlib.util

        if importlib.util.find_spec("kaleido") is None:
            print("note: --png skipped (the optional kaleido package is not installed)", file=sys.stderr)
        else:
            fig.write_image(f"{stem}.png", width=1000, height=max(420, int(fig.layout.height or 600)))
            written.append(f"{stem}.png")
    print("\n".join(written))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
