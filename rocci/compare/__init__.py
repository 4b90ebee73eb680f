"""Two models scored on the same instances: exact bootstrap comparisons and classical tests.

Threshold averaging, paired design (Gadoury 2009, §4.3.2, Algorithm 4.2)
-----------------------------------------------------------------------
At a pair of thresholds ``(t_a, t_b)`` held fixed across bootstrap samples,
each positive falls in one of three paired cells (math.md, Conventions):
**a** = model a says positive and model b negative (``s_a >= t_a``,
``s_b < t_b``), **b** = the reverse, **c** = they agree.  In a stratified
bootstrap sample of ``m+`` positives the cell counts are trinomial,

``(A, B, C) ~ Multinomial(m+; p_a, p_b, p_c)``,  ``p_x = n_x / n+``,

and ``m+·ΔTPR* = TP*_a − TP*_b = A − B``; likewise for the negatives and
``ΔFPR*``, independently.  Everything here follows from the exact law of
``D = A − B``.  Write ``S = A + B ~ Bin(m, γ)`` with ``γ = p_a + p_b`` and
``A | S ~ Bin(S, π)`` with ``π = p_a/γ``; then

``P(D = d) = Σ_{s ≡ d (mod 2)} b(s; m, γ) · b((s + d)/2; s, π)``.

The binomial pmfs and CDFs come from boost (through SciPy), which is accurate
for ``m`` up to 10⁶ and beyond, and the sum only runs over the window of
``s`` where ``b(s; m, γ)`` is not negligible (O(sqrt(m)) wide).

Errors in the thesis that this module does *not* reproduce (math.md §2):

* eq. 4.7 prints ``Var = (γ̃ + δ̃²)/m+``; the bootstrap variance is
  ``(γ̃ − δ̃²)/m+``;
* Algorithm 4.2 line 4 prints ``v ← (1 − u)·n_b/n+``; it must be
  ``v = n_b/((1 − u)·n+)`` (the conditional probability of cell b given not
  cell a);
* the recursion of Algorithm 4.2 starts from ``(1 − u)^m`` and ``(1 − v)^m``,
  which underflow for ``m`` of a few hundred: with ``p_a = .5``,
  ``p_b = .4``, ``m = 1000`` it returns ``P(ΔTPR >= 0) = 0.487`` where the
  truth is ``0.99961``; its line 12 also divides by zero when ``p_c = 0``
  (``v = 1``).

The package:

=======================  ==============================================================
module                   contents
=======================  ==============================================================
``compare._common``      constants, argument checks, threshold pairs
``compare.laws``         the law of ``D = A − B`` (:func:`difference_pmf`), sign
                         probabilities, the paired score interval (eq. 4.8)
``compare.thresholds``   :func:`compare_thresholds`, :func:`dominance_map`
``compare.vertical``     :func:`compare_vertical`: ΔTPR at fixed FPR levels (§4.4.2)
``compare.auc``          :func:`compare_auc` (DeLong)
``compare.mcnemar``      :func:`mcnemar`
``compare.many``         :func:`compare_many`: k >= 2 models, DeLong's covariance matrix,
                         the test that all AUCs are equal, every pair (Holm, simultaneous
                         intervals), P(best AUC), ΔTPR at one FPR level
``compare.unpaired``     two models on different test sets: :func:`compare_auc_unpaired`
                         (DeLong, unpaired), :func:`compare_vertical_unpaired` and
                         :func:`compare_thresholds_unpaired` (the convolution of two
                         independent exact laws)
=======================  ==============================================================
"""

from ._common import COMPARE_AUC_METHODS, GAMMAS, PAIRED_REGIONS, SATURATION, WINDOW_EPS
from .auc import AucComparison, compare_auc
from .laws import difference_pmf, difference_sign_probabilities, paired_score_interval
from .many import ADJUSTMENTS, ManyComparison, compare_many
from .mcnemar import McNemarResult, mcnemar
from .unpaired import (
    UnpairedAucComparison,
    UnpairedThresholdComparison,
    UnpairedVerticalComparison,
    compare_auc_unpaired,
    compare_thresholds_unpaired,
    compare_vertical_unpaired,
)
from .thresholds import DominanceMap, ThresholdComparison, compare_thresholds, dominance_map
from .vertical import VerticalComparison, compare_vertical

__all__ = [
    "compare_thresholds",
    "dominance_map",
    "compare_vertical",
    "compare_auc",
    "compare_many",
    "compare_auc_unpaired",
    "compare_vertical_unpaired",
    "compare_thresholds_unpaired",
    "mcnemar",
    "difference_pmf",
    "difference_sign_probabilities",
    "paired_score_interval",
    "ThresholdComparison",
    "DominanceMap",
    "VerticalComparison",
    "AucComparison",
    "ManyComparison",
    "UnpairedAucComparison",
    "UnpairedVerticalComparison",
    "UnpairedThresholdComparison",
    "McNemarResult",
    "ADJUSTMENTS",
    "COMPARE_AUC_METHODS",
    "GAMMAS",
    "PAIRED_REGIONS",
    "SATURATION",
    "WINDOW_EPS",
]
