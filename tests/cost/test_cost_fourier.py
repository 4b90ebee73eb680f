"""The Fourier route of the paired cost laws, and pickling of the cost results.

* ``rocci.cost.fourier._paired_law`` (sums of lattice steps by an inverse FFT) against
  the earlier direct route ``_paired_law_direct`` (binomial sums; a mixture
  over the number of positives drawn for the full bootstrap): whole laws,
  ``P(ΔC* < 0)`` and percentile bounds to 1e-12, on tiny data with ties, on
  random cell counts (including cells that are empty and pairs where every
  instance disagrees, whose laws have parity zeros) and at n = 2,000.
* Enumeration of every bootstrap sample when every instance disagrees
  (structural zeros of the law must stay 0).
* Results pickle without help, and their laws survive the round trip.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import rocci.cost._bounds
import rocci.cost.results
from rocci import InputError
from rocci.cost._common import _scales
from rocci.cost.fourier import _paired_law, _paired_law_direct, _paired_p_below
from rocci.cost import compare_cost, cost_ci, cost_curve
from tests.reference.brute_cost import enumerate_delta_cost, law_lt

TOL = 1e-12
POS_A, NEG_A = [0.9, 0.5, 0.5], [0.8, 0.5, 0.4, 0.4]
POS_B, NEG_B = [0.7, 0.7, 0.2], [0.3, 0.6, 0.6, 0.1]
Y = np.r_[np.ones(3, int), np.zeros(4, int)]
SA, SB = np.r_[POS_A, NEG_A], np.r_[POS_B, NEG_B]
W = np.array([0.0, 0.2, 1 / 3, 0.5, 0.71, 1.0])


def visible(law, a, b, floor=1e-15):
    """Support of a law, without the points lighter than ``floor`` (the direct
    route leaves round-off of ~1e-18 on some impossible points)."""
    v, p = law.support(a, b)
    keep = p > floor
    return v[keep], p[keep]


def same_law(cells_pos, cells_neg, n_pos, n_neg, bootstrap, m, w):
    new = _paired_law(cells_pos, cells_neg, n_pos, n_neg, bootstrap, m)
    old = _paired_law_direct(cells_pos, cells_neg, n_pos, n_neg, bootstrap, m)
    a, b = _scales(w, bootstrap, m, n_pos, n_neg)
    vn, pn = visible(new, a, b)
    vo, po = visible(old, a, b)
    assert vn.size == vo.size
    np.testing.assert_allclose(vn, vo, rtol=0, atol=TOL)
    np.testing.assert_allclose(pn, po, rtol=0, atol=TOL)
    grid = np.r_[vo, vo - 1e-9, 0.0]
    for strict in (False, True):
        np.testing.assert_allclose(new.cdf(grid, a, b, strict=strict), old.cdf(grid, a, b, strict=strict),
                                   rtol=0, atol=TOL)
    np.testing.assert_allclose(new.quantiles([0.025, 0.5, 0.975], a, b),
                               old.quantiles([0.025, 0.5, 0.975], a, b), rtol=0, atol=TOL)


@pytest.mark.parametrize("bootstrap, m", [("stratified", None), ("stratified", (2, 5)), ("full", None),
                                          ("full", 5), ("full", 12)])
@pytest.mark.parametrize("ta, tb", [(0.5, 0.6), (0.45, 0.2), (np.inf, 0.6), (0.5, 0.5)])
def test_new_route_equals_direct_route_on_tied_data(monkeypatch, bootstrap, m, ta, tb):
    """compare_cost with the Fourier route and with the direct route: same frames."""
    methods = ("wald", "agresti-coull", "percentile")
    new = [compare_cost(Y, SA, SB, w=W, thresholds_a=ta, thresholds_b=tb, bootstrap=bootstrap, m=m,
                        method=meth, confidence_level=0.9) for meth in methods]
    laws_new = [new[0].distribution(i) for i in range(W.size)]
    # compare_cost's bounds (rocci.cost._bounds) and distribution() (rocci.cost.results) both use the law.
    monkeypatch.setattr(rocci.cost._bounds, "_paired_law", _paired_law_direct)
    monkeypatch.setattr(rocci.cost.results, "_paired_law", _paired_law_direct)
    old = [compare_cost(Y, SA, SB, w=W, thresholds_a=ta, thresholds_b=tb, bootstrap=bootstrap, m=m,
                        method=meth, confidence_level=0.9) for meth in methods]
    for x, y in zip(new, old):
        fx, fy = x.to_frame(), y.to_frame()
        assert list(fx.columns) == list(fy.columns)
        np.testing.assert_allclose(fx.to_numpy(float), fy.to_numpy(float), rtol=0, atol=TOL)
    for i in range(W.size):
        (vn, pn), (vo, po) = laws_new[i], old[0].distribution(i)
        vn, pn, vo, po = vn[pn > 1e-15], pn[pn > 1e-15], vo[po > 1e-15], po[po > 1e-15]
        np.testing.assert_allclose(vn, vo, rtol=0, atol=TOL)
        np.testing.assert_allclose(pn, po, rtol=0, atol=TOL)


def test_new_route_equals_direct_route_on_random_cells():
    """Random cell counts: empty cells, no agreeing instance, all kinds of sizes."""
    rng = np.random.default_rng(2026)
    for _ in range(150):
        n_pos, n_neg = (int(v) for v in rng.integers(1, 8, 2))
        na_p = int(rng.integers(0, n_pos + 1))
        nb_p = int(rng.integers(0, n_pos - na_p + 1))
        na_n = int(rng.integers(0, n_neg + 1))
        nb_n = int(rng.integers(0, n_neg - na_n + 1))
        if rng.random() < 0.3:  # every instance disagrees: parity zeros
            nb_p, nb_n = n_pos - na_p, n_neg - na_n
        if rng.random() < 0.5:
            bootstrap, m = "stratified", tuple(int(v) for v in rng.integers(1, 9, 2))
        else:
            bootstrap, m = "full", int(rng.integers(1, 13))
        w = float(rng.choice(W))
        same_law((na_p, nb_p), (na_n, nb_n), n_pos, n_neg, bootstrap, m, w)


@pytest.mark.parametrize("bootstrap", ["stratified", "full"])
def test_new_route_equals_direct_route_at_n_2000(bootstrap):
    n_pos, n_neg = 1000, 1000
    m = (n_pos, n_neg) if bootstrap == "stratified" else n_pos + n_neg
    for cells_pos, cells_neg, w in (((50, 62), (40, 55), 0.4), ((0, 130), (7, 0), 0.8), ((300, 1), (2, 2), 0.05)):
        new = _paired_law(cells_pos, cells_neg, n_pos, n_neg, bootstrap, m)
        old = _paired_law_direct(cells_pos, cells_neg, n_pos, n_neg, bootstrap, m)
        a, b = _scales(w, bootstrap, m, n_pos, n_neg)
        vn, pn = new.support(a, b)
        assert pn.sum() == pytest.approx(1.0, abs=1e-13)
        vo, po = old.support(a, b)
        grid = np.r_[vo[::7], 0.0]
        np.testing.assert_allclose(new.cdf(grid, a, b), old.cdf(grid, a, b), rtol=0, atol=TOL)
        np.testing.assert_allclose(new.cdf(grid, a, b, strict=True), old.cdf(grid, a, b, strict=True),
                                   rtol=0, atol=TOL)
        np.testing.assert_allclose(new.quantiles([0.005, 0.5, 0.995], a, b),
                                   old.quantiles([0.005, 0.5, 0.995], a, b), rtol=0, atol=TOL)


@pytest.mark.parametrize("bootstrap, m", [("stratified", None), ("full", None), ("full", 4)])
def test_every_instance_disagrees_enumeration(bootstrap, m):
    """Model b = 1 − model a at 0.5: every draw moves ΔC*, so half the lattice
    (the wrong parity) has probability exactly 0."""
    pos_a, neg_a = [0.9, 0.6, 0.2], [0.8, 0.3, 0.3, 0.1]
    pos_b, neg_b = [1 - s for s in pos_a], [1 - s for s in neg_a]
    y = np.r_[np.ones(3, int), np.zeros(4, int)]
    res = compare_cost(y, np.r_[pos_a, neg_a], np.r_[pos_b, neg_b], w=[0.0, 0.3, 0.5, 1.0], thresholds_a=0.5,
                       thresholds_b=0.5, bootstrap=bootstrap, m=m, method="percentile", confidence_level=0.8)
    assert (res.n_a_pos + res.n_b_pos == 3).all() and (res.n_a_neg + res.n_b_neg == 4).all()
    for i, w in enumerate(res.w):
        law = enumerate_delta_cost(pos_a, pos_b, neg_a, neg_b, 0.5, 0.5, w, bootstrap=bootstrap, m=m)
        v = np.array([float(x) for x in law])
        p = np.array([float(x) for x in law.values()])
        start = np.flatnonzero(np.r_[True, np.diff(v) > TOL])
        ev, ep = v[start], np.add.reduceat(p, start)
        gv, gp = res.distribution(i)
        assert gv.size == ev.size  # no impossible point gets round-off mass
        np.testing.assert_allclose(gv, ev, rtol=0, atol=TOL)
        np.testing.assert_allclose(gp, ep, rtol=0, atol=TOL)
        assert res.p_a_cheaper[i] == pytest.approx(float(law_lt(law, 0)), abs=TOL)


def test_results_pickle_and_keep_their_laws():
    rng = np.random.default_rng(3)
    n = 300
    y = rng.random(n) < 0.4
    a = np.round(rng.normal(size=n) + y, 1)  # ties
    b = np.round(a + rng.normal(0, 0.8, n), 1)
    w = np.linspace(0, 1, 11)
    results = [cost_curve(y, a, w=w)]
    for bootstrap in ("stratified", "full"):
        results.append(cost_ci(y, a, w=w, bootstrap=bootstrap, method="percentile"))
        results.append(compare_cost(y, a, b, w=w, bootstrap=bootstrap, method="percentile"))
    for res in results:
        back = pickle.loads(pickle.dumps(res))
        assert type(back) is type(res)
        assert back.to_frame().equals(res.to_frame())
        if hasattr(res, "distribution"):
            for i in (0, 3, 7):
                (v0, p0), (v1, p1) = res.distribution(i), back.distribution(i)
                np.testing.assert_array_equal(v0, v1)
                np.testing.assert_array_equal(p0, p1)
                assert p1.sum() == pytest.approx(1.0, abs=1e-12)
        else:
            assert back.operating_range == res.operating_range
            assert back.hull_frame().equals(res.hull_frame())


def test_spectral_tail_equals_direct_route():
    """Full bootstrap P(a·X + b·Y < v) from the transform block (no table) equals the direct route."""
    rng = np.random.default_rng(7)
    cases = [((50, 62), (40, 55), 1000, 1000, 2000), ((0, 130), (7, 0), 1000, 1000, 1500)]
    for _ in range(60):
        n_pos, n_neg = (int(v) for v in rng.integers(1, 8, 2))
        na_p = int(rng.integers(0, n_pos + 1))
        nb_p = int(rng.integers(0, n_pos - na_p + 1))
        na_n = int(rng.integers(0, n_neg + 1))
        nb_n = n_neg - na_n if rng.random() < 0.3 else int(rng.integers(0, n_neg - na_n + 1))
        cases.append(((na_p, nb_p), (na_n, nb_n), n_pos, n_neg, int(rng.integers(1, 13))))
    for cells_pos, cells_neg, n_pos, n_neg, m in cases:
        spec = _paired_p_below(cells_pos, cells_neg, n_pos, n_neg, m)
        old = _paired_law_direct(cells_pos, cells_neg, n_pos, n_neg, "full", m)
        for w in (0.0, 0.3, 0.5, 1.0):
            a, b = _scales(w, "full", m, n_pos, n_neg)
            for v in (0.0, 0.01, -0.02, a, -b):
                for strict in (True, False):
                    assert spec.below(v, a, b, strict=strict) == pytest.approx(
                        float(old.cdf(v, a, b, strict=strict)[0]), abs=TOL)


def test_full_bootstrap_table_too_large_is_refused():
    rng = np.random.default_rng(1)
    n = 800_000
    y = rng.random(n) < 0.5
    a = rng.normal(size=n) + y
    b = rng.normal(size=n) + y
    with pytest.raises(InputError, match="stratified"):
        compare_cost(y, a, b, w=[0.5], bootstrap="full", method="percentile")
    # Without percentiles no table is needed: P(ΔC* < 0) comes from the transform.
    res = compare_cost(y, a, b, w=[0.5], bootstrap="full")
    assert 0.0 <= res.p_a_cheaper[0] <= 1.0


@pytest.mark.parametrize("bootstrap", ["stratified", "full"])
def test_chernoff_decided_probabilities_equal_the_exact_law(bootstrap):
    """Where a Chernoff bound settles ``P(ΔC* < 0)`` within 1e-20 of 0 or 1, compare_cost
    builds no law: the value equals the exact law's (evaluated here) to round-off."""
    from rocci.cost.fourier import _decided_below_zero

    rng = np.random.default_rng(11)
    n = 20_000
    y = rng.random(n) < 0.4
    z = rng.multivariate_normal([0, 0], [[1, 0.6], [0.6, 1]], n)
    w = np.linspace(0, 1, 101)
    res = compare_cost(y, z[:, 0] + y, z[:, 1] + 1.3 * y, w=w, bootstrap=bootstrap)
    n_pos, n_neg = res.n_pos, res.n_neg
    m = (n_pos, n_neg) if bootstrap == "stratified" else n
    decided = 0
    for i in range(w.size):
        cells = (res.n_a_pos[i], res.n_b_pos[i]), (res.n_a_neg[i], res.n_b_neg[i])
        a, b = _scales(w[i], bootstrap, m, n_pos, n_neg)
        if bootstrap == "full":
            exact = _paired_p_below(*cells, n_pos, n_neg, m).below(0.0, a, b, strict=True)
            groups = [(m, np.array([[a, -a, b, -b]]), np.array([[*cells[0][::-1], *cells[1]]]) / n)]
        else:
            exact = float(_paired_law(*cells, n_pos, n_neg, bootstrap, m).cdf(0.0, a, b, strict=True)[0])
            groups = [(m[0], np.array([[a, -a]]), np.array([cells[0][::-1]]) / n_pos),
                      (m[1], np.array([[b, -b]]), np.array([cells[1]]) / n_neg)]
        if not np.isnan(_decided_below_zero(groups)[0]):
            decided += 1
            assert res.p_a_cheaper[i] in (0.0, 1.0)
        assert res.p_a_cheaper[i] == pytest.approx(min(max(exact, 0.0), 1.0), abs=1e-15)
    assert 20 <= decided < w.size


def test_batched_stratified_tail_equals_each_pairs_law():
    """The stratified P(ΔC* < 0) of every threshold pair in one batch equals each pair's law."""
    from rocci.cost.fourier import _stratified_p_below_zero

    rng = np.random.default_rng(5)
    for _ in range(30):
        n_pos, n_neg = (int(v) for v in rng.integers(1, 40, 2))
        m = (int(rng.integers(1, 50)), int(rng.integers(1, 50))) if rng.random() < 0.3 else (n_pos, n_neg)
        cells = []
        for _ in range(int(rng.integers(1, 6))):
            na_p = int(rng.integers(0, n_pos + 1))
            nb_p = n_pos - na_p if rng.random() < 0.2 else int(rng.integers(0, n_pos - na_p + 1))
            na_n = int(rng.integers(0, n_neg + 1))
            nb_n = n_neg - na_n if rng.random() < 0.2 else int(rng.integers(0, n_neg - na_n + 1))
            cells.append((na_p, nb_p, na_n, nb_n))
        cells = np.array(cells)
        w = rng.choice(W, size=8)
        pair = rng.integers(0, len(cells), size=w.size)
        a, b = _scales(w, "stratified", m, n_pos, n_neg)
        got = _stratified_p_below_zero(cells, n_pos, n_neg, m, pair, a, b)
        for q in range(w.size):
            key = cells[pair[q]]
            law = _paired_law(key[:2], key[2:], n_pos, n_neg, "stratified", m)
            assert got[q] == pytest.approx(float(law.cdf(0.0, a[q], b[q], strict=True)[0]), abs=TOL)
