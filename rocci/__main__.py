"""``python -m rocci``: the command line (:func:`rocci.cli.main`), the same as the ``rocci`` console script."""

from rocci.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
