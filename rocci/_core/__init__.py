"""The engine's core, shared by every topic: errors and input checks (``inputs``), counts of scores by
class (``counts``), the index sort (``sorting``), exact laws (``exact``), interval formulas
(``intervals``), the result base and one model's results (``results``), and the paired order-statistic
kernel of two models' thresholds (``paired_order``).  Private to the package: import public names from
:mod:`rocci`.  Only ``_core`` may be imported across subpackages by private name (docs/architecture.md).
"""
