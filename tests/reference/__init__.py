"""Independent reference implementations (oracles) and reference data for the tests.

Nothing in this package imports :mod:`rocci`.
"""
