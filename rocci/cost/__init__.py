"""Cost curves and their exact bootstrap intervals (Gadoury 2009, chapters 3 and 5).

Notation (math.md §5).  An instance is predicted positive at threshold ``t``
when ``score >= t``.  The operating point ``w`` (eq. 3.1) sums up the class
priors and the misclassification costs; the normalised expected cost of a
threshold is the straight *cost line*

    ``NEC_t(w) = w·(1 − TPR_t) + (1 − w)·FPR_t``,

from ``(0, FPR_t)`` to ``(1, 1 − TPR_t)``.  The cost curve is the lower
envelope of all cost lines; by duality it is made of the cost lines of the
vertices of the ROC upper convex hull.

Exact bootstrap (the infinite-resample limit, in closed form), with the
threshold held fixed across bootstrap samples:

* stratified: ``FN* ~ Bin(m+, n_FN/n+)`` and ``FP* ~ Bin(m−, n_FP/n−)``,
  independent, and ``C* = w·FN*/m+ + (1 − w)·FP*/m−``;
* full: ``m`` draws from the pooled data, ``(FN*, FP*, ·)`` multinomial, and
  ``C* = w·FN*/(m·π+) + (1 − w)·FP*/(m·π−)`` with ``π± = n±/n`` (the same
  scale as the stratified cost; with ``m = n`` the denominators are ``n±``).

Every law here lives on a two-dimensional lattice ``a·X + b·Y`` (``X``, ``Y``
integer counts or count differences); :class:`_Lattice` evaluates its CDF
exactly, row by row, from binomial CDFs or exact CDF tables.  The paired laws
(count differences) are sums of ±1 lattice steps, computed by an inverse FFT
of their characteristic function (:func:`_steps_law`); for the full
bootstrap, ``P(ΔC* < 0)`` comes from the transform directly
(:meth:`_Spectrum.below`), and wherever a Chernoff bound settles it within
1e-20 of 0 or 1 no law is built (:func:`_decided_below_zero`).  The ROC hull
behind every envelope is Andrew's monotone chain over the distinct-score ROC
points (:func:`_upper_hull`).

The package, in the order of the computation:

==================  =====================================================================
module              contents
==================  =====================================================================
``cost._common``    constants (``BOOTSTRAPS``, ``AGRESTI_ADD``…), argument checks, sizes
``cost.hull``       ROC upper convex hull; lower envelope of the cost lines (duality)
``cost.curve``      :func:`operating_point` (eq. 3.1), :func:`cost_curve`
``cost.lattice``    one model's exact cost law on the lattice ``a·X + b·Y``
``cost.fourier``    paired laws as sums of lattice steps, by inverse FFT
``cost.interval``   :func:`cost_ci` (moments, Agresti–Coull, Wald, percentile)
``cost.paired``     :func:`compare_cost` (A − B, ``p_a_cheaper``)
``cost.unpaired``   :func:`compare_cost_unpaired` (two independent test sets: the difference of two laws)
``cost.results``    :class:`CostCurve`, :class:`CostCI`, :class:`CostComparison`
``cost.decision``   :func:`net_benefit`, :func:`compare_net_benefit` (decision curves; laws in ``_decision_laws``, quantiles in ``_decision_quantiles``)
==================  =====================================================================
"""

from ._common import AGRESTI_ADD, AGRESTI_MIN_ADD, BOOTSTRAPS, COST_METHODS, DEFAULT_W, TIE_TOL
from .curve import cost_curve, operating_point
from .decision import NetBenefit, NetBenefitComparison, compare_net_benefit, net_benefit
from .interval import cost_ci
from .paired import compare_cost
from .results import CostCI, CostComparison, CostCurve
from .unpaired import AGRESTI_CAFFO_ADD, UnpairedCostComparison, compare_cost_unpaired

__all__ = [
    "net_benefit",
    "compare_net_benefit",
    "NetBenefit",
    "NetBenefitComparison",
    "operating_point",
    "cost_curve",
    "cost_ci",
    "compare_cost",
    "compare_cost_unpaired",
    "UnpairedCostComparison",
    "AGRESTI_CAFFO_ADD",
    "CostCurve",
    "CostCI",
    "CostComparison",
    "BOOTSTRAPS",
    "COST_METHODS",
    "AGRESTI_ADD",
    "AGRESTI_MIN_ADD",
    "DEFAULT_W",
    "TIE_TOL",
]
