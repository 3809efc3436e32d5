"""DeriveRS (Nandan et al. 2014, sec. 4): the representative set and its beta weights."""

from __future__ import annotations

import functools

import numpy as np

from svmcore import effective_n_threads, numba_threads, thread_map
from svmcore.docstrings import fill_doc
from svmcore.kernels import check_kernel_params, gram, kernel_diag, kernel_distances, resolve_gamma
from svmcore.solvers import TimeBudget
from svmcore.typing import ArrayLike, MatrixLike, RandomStateLike
from svmcore.validation import (
    check_float_array,
    check_generator,
    check_positive_int,
    check_real,
)

from . import _derive_ae
from ._docs import DOCS
from ._representative_set import RepresentativeSet, _assemble, _group_result, _unprocessed

__all__ = ["RepresentativeSet", "derive_rs", "fls1", "fls2", "sls"]

#: Accuracy of every simplex QP (Frank-Wolfe gap, an upper bound on the value's error).
_QP_TOL = 1e-10
#: Accuracy of the step-6 solves that give Gamma, relative to epsilon.
_FIT_RTOL = 1e-2
#: Relative tolerance for "on the surface" of the minimum enclosing ball (SphereSet).
_SPHERE_RTOL = 1e-8


def every_row(n_samples, sample_weight=None):
    """The trivial representative set: every row, weighted by its sample weight.

    What the SVM trains on when DeriveRS is not run or stopped by its probe.

    Returns
    -------
    indices : ndarray of shape (n_samples,)
    beta : ndarray of shape (n_samples,)
    """
    beta = np.ones(n_samples) if sample_weight is None else np.asarray(sample_weight)
    return np.arange(n_samples), beta


def fls1(indices, subset_size):
    """First level of segregation by position (FLS1): consecutive chunks of ``P``.

    Parameters
    ----------
    indices : ndarray of int
        Rows of one class, in data order.
    subset_size : int
        P.

    Returns
    -------
    subsets : list of ndarray
    """
    return [indices[start : start + subset_size] for start in range(0, indices.size, subset_size)]


def fls2(X, indices, subset_size, kernel_params):
    """First level of segregation FLS2: recursive split at the median kernel distance.

    Each set is split into the half nearest (in kernel space) to its first vector and the
    rest, by linear-time selection (``numpy.argpartition``, introselect); a set whose half
    exceeds ``P`` is split again (the paper's steps 1-5, depth first so subsets come out in
    the rearranged order).

    Returns
    -------
    subsets : list of ndarray
        A partition of ``indices``.
    """
    subsets = []
    stack = [indices]
    while stack:
        sub = stack.pop()
        if sub.size < 2:
            subsets.append(sub)
            continue
        d = kernel_distances(X, rows=sub, cols=sub[:1], **kernel_params)[:, 0]
        half = sub.size // 2
        order = np.argpartition(d, half)
        near, far = sub[order[:half]], sub[order[half:]]
        if sub.size / 2 <= subset_size:
            subsets += [near, far]
        else:
            stack += [far, near]
    return subsets


def sls(X, subset, group_size, sq_norms, kernel_params):
    """Second level of segregation (SLS) of one FLS subset into groups of at most ``V``.

    The first anchor is the vector farthest from the origin in input space (the paper's
    step 2.b; in an RBF space all points are equidistant from the origin); each group is
    the ``V`` vectors nearest to the anchor in kernel space, and the next anchor is the
    ``V+1``-th nearest.

    Returns
    -------
    groups : list of ndarray
        A partition of ``subset``.
    """
    groups = []
    rest = subset
    anchor = rest[np.argmax(sq_norms[rest])]
    while rest.size > group_size:
        d = kernel_distances(X, rows=rest, cols=[anchor], **kernel_params)[:, 0]
        order = np.argpartition(d, group_size)
        groups.append(rest[order[:group_size]])
        anchor = rest[order[group_size]]
        rest = rest[order[group_size:]]
    groups.append(rest)
    return groups


def _check_derive_params(subset_size, group_size, tol, segregation):
    group_size = check_positive_int(group_size, "group_size", minimum=2)
    subset_size = check_positive_int(subset_size, "subset_size", minimum=2)
    if subset_size < group_size:
        raise ValueError(
            f"subset_size (P) must be >= group_size (V), got P={subset_size} < V={group_size}."
        )
    tol = check_real(tol, "tol", low=0.0)
    if segregation not in ("fls1", "fls2"):
        raise ValueError(f"segregation must be 'fls1' or 'fls2', got {segregation!r}.")
    return subset_size, group_size, tol


@fill_doc(DOCS)
def derive_rs(
    X: MatrixLike,
    y: ArrayLike,
    *,
    kernel: str = "rbf",
    gamma: str | float = "scale",
    degree: int = 3,
    coef0: float = 0.0,
    subset_size: int = 100_000,
    group_size: int = 1_000,
    tol: float = 1e-3,
    segregation: str = "fls2",
    sample_weight: ArrayLike | None = None,
    random_state: RandomStateLike = None,
    n_jobs: int | None = None,
    abort_fraction: float | None = None,
    budget: TimeBudget | None = None,
    bookkeeping: bool = True,
) -> RepresentativeSet | None:
    """Representative set of approximate extreme points (DeriveRS, sec. 4.4).

    Parameters
    ----------
    X : {ndarray, csr_matrix} of shape (n_samples, n_features)
        Training data (float32 kept for the kernel evaluations).
    y : array-like of shape (n_samples,)
        Class labels. Each class is segregated on its own; one class is allowed (AESVC's
        Dask path derives each row chunk alone, and a chunk may hold a single class).
    kernel : {"linear", "rbf", "poly"}, default="rbf"
        Kernel with scikit-learn's definitions (the paper's Gaussian kernel is ``rbf``
        with ``gamma = g``).
    gamma : float or {"scale", "auto"}, default="scale"
        Kernel coefficient; strings as in scikit-learn's ``SVC``.
    degree : int, default=3
        Degree of ``poly``.
    coef0 : float, default=0.0
        Independent term of ``poly``.
    subset_size : int, default=100_000
        P, the largest first-level subset (>= ``group_size``).
    group_size : int, default=1_000
        V, the largest group handed to DeriveAE (>= 2).
    tol : float, default=1e-3
        The paper's epsilon: a sample is represented when its squared kernel-space
        distance to the convex hull of the representatives is at most ``tol``.
    segregation : {"fls2", "fls1"}, default="fls2"
        First level of segregation: FLS2 (median splits in kernel space) or FLS1 (by
        position).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights; ``beta = Gamma^T s``.
    random_state : int, Generator or None, default=None
        ``None`` keeps the data order. Otherwise each class is randomly reordered
        before segregation (the paper's "Random+FLS" variants, sec. 5.2).
    n_jobs : int, default=None
        Numba threads for the kernel blocks and the parallel DeriveAE over groups.
    abort_fraction : float in (0, 1], default=None
        Not in the paper. When given and there are more groups than threads (and more
        than two), a first batch of ``max(2, threads)`` groups spread evenly over the
        group list is derived first; if more than this fraction of its samples are
        representatives, the data are not reducible at this ``tol`` and ``None`` is
        returned at once (the caller trains on all samples instead). Otherwise the probe
        groups' results are kept and the output is the same as without it.
    budget : svmcore.solvers.TimeBudget or None, default=None
        Not in the paper. Checked before each batch of groups (a batch in progress is
        not interrupted); once it has expired, the remaining groups are not processed
        and each of their samples is kept as its own representative with its sample
        weight (``n_unprocessed`` counts those groups). The result is still a valid
        representative set of every sample, only less reduced.
    bookkeeping : bool, default=True
        Whether to return ``gamma``, ``residuals`` and ``groups``. False leaves them
        None (same ``indices``, ``labels`` and ``beta``, bit for bit): :math:`\\Gamma`
        has an entry per sample and representative combining it (about 3 a sample on
        two moons, 12 bytes each), memory that training on the set does not need.

    Returns
    -------
    RepresentativeSet or None
        ``indices``, ``labels``, ``beta`` and the bookkeeping ``gamma``, ``residuals``,
        ``groups`` (None without ``bookkeeping``); ``None`` only when ``abort_fraction``
        stopped it.

    See Also
    --------
    AESVC : The classifier trained on the representative set.

    Notes
    -----
    Steps: split by class; FLS1 or FLS2 into subsets of at most P; SLS into groups of at
    most V; DeriveAE on each group: SphereSet (points on the minimum enclosing ball in
    kernel space, a hard-margin SVDD), SphereSort (others by decreasing distance from its
    centre), CheckPoint (:math:`\\min_{\\mu \\in \\Delta}\\|\\phi(x_i) - \\sum_t \\mu_t
    \\phi(x_t)\\|^2 \\le \\epsilon`) in steps 3, 4 and 6, :math:`\\Gamma` rows from step 6
    and :math:`\\beta` as its column sums (7).

    Deviation: step 4 can drop two members of :math:`\\Psi` that only reconstruct each
    other, after which step 6's CheckPoint against the final :math:`X^*_{q_r}` exceeds
    epsilon and (9), :math:`\\|\\tau_i\\|^2 \\le \\epsilon`, on which Theorems 1-2 rest,
    would fail. Such a sample is added to :math:`X^*_{q_r}` in step 6 (counted in
    ``n_repairs``), so (9) holds for every sample.

    Time :math:`O(N(\\log_2(N/P) + P/V) + \\sum_{q,r} V \\, S(A_{q_r}))` with FLS2, where
    :math:`S(A)` is the cost of one simplex QP on :math:`A` points; memory
    :math:`O(N + B V^2)` for ``B`` groups processed in parallel: no N x N matrix.

    %(references)s

    Examples
    --------
    >>> import numpy as np
    >>> from aesvm import derive_rs
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 2)); y = np.where(X[:, 0] > 0, 1, -1)
    >>> rs = derive_rs(X, y, gamma=0.5, subset_size=100, group_size=50, tol=1e-3)
    >>> rs.n_representatives < 200, float(rs.beta.sum())
    (True, 200.0)
    """
    X = check_float_array(X, "X", accept_sparse=True)
    n = X.shape[0]
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != n:
        raise ValueError(f"y must be 1-d with {n} entries (one per row of X), got {y.shape}.")
    classes = np.unique(y)
    subset_size, group_size, tol = _check_derive_params(subset_size, group_size, tol, segregation)
    if abort_fraction is not None:
        abort_fraction = check_real(
            abort_fraction, "abort_fraction", low=0.0, high=1.0, low_closed=False
        )
    gamma = resolve_gamma(gamma, X)
    kernel, gamma, degree, coef0 = check_kernel_params(kernel, gamma, degree, coef0)
    kp = {"kernel": kernel, "gamma": gamma, "degree": degree, "coef0": coef0}
    # Unit weights stay None: the betas take each group's ones (no N-sized array).
    sw = None
    if sample_weight is not None:
        # Imported here: derive_rs runs in tasks on Dask workers, and check_sample_weight
        # imports scikit-learn (and pandas with it), which unweighted fits never need.
        from svmcore.validation import check_sample_weight

        sw = check_sample_weight(sample_weight, X, dtype=np.float64)
    rng = None if random_state is None else check_generator(random_state)

    with numba_threads(n_jobs):
        groups = _segregate(X, y, classes, rng, segregation, subset_size, group_size, kp)
        return _derive_groups(
            X, y, sw, groups, kp, tol, n_jobs, abort_fraction, budget, bookkeeping
        )


def _segregate(X, y, classes, rng, segregation, subset_size, group_size, kp):
    """The groups: each class through FLS1/FLS2, then SLS (``sq_norms`` dies here)."""
    sq_norms = kernel_diag(X, kernel="linear")
    groups = []
    for cls in classes:
        members = np.flatnonzero(y == cls)
        if rng is not None:
            members = rng.permutation(members)
        if segregation == "fls1":
            subsets = fls1(members, subset_size)
        else:
            subsets = fls2(X, members, subset_size, kp)
        for subset in subsets:
            groups += sls(X, subset, group_size, sq_norms, kp)
    return groups


def _derive_group(G, sizes, settings, gamma_out, resid, rep, b):
    """DeriveAE on group ``b`` of a batch: reads ``G[b]``, writes slice ``b`` of the outputs."""
    return _derive_ae.derive_ae(G[b], sizes[b], *settings, gamma_out[b], resid[b], rep[b])


def _probe_order(n_groups, batch):
    """Group order: ``batch`` groups spread evenly over the list first, then the others.

    The groups come class by class and FLS subset by subset, so a probe taken from the
    front would see one region of one class (the first SLS group even starts at the
    vector farthest from the origin); evenly spaced groups cover every class and subset.
    """
    if n_groups <= batch:
        return np.arange(n_groups)
    probes = np.unique(np.linspace(0, n_groups - 1, batch).round().astype(np.intp))
    return np.concatenate([probes, np.setdiff1d(np.arange(n_groups), probes)])


def _derive_groups(
    X, y, sw, groups, kp, tol, n_jobs, abort_fraction=None, budget=None, bookkeeping=True
):
    """DeriveAE on every group, a batch of groups at a time in parallel; assemble the set.

    With ``abort_fraction``, the first batch is a probe (see :func:`_probe_order`) and
    ``None`` is returned when its fraction of representatives exceeds ``abort_fraction``.
    With ``budget``, no batch starts after it has expired; the groups left keep every
    sample (:func:`_unprocessed`). ``sw`` None means unit weights.
    """
    threads = effective_n_threads(n_jobs)
    batch = 2 * threads
    if abort_fraction is None:
        order = np.arange(len(groups))
        bounds = list(range(0, len(groups), batch))
    else:
        # One group per thread in the probe (at least two, spread over the classes): on
        # data that cannot be reduced it is all DeriveRS costs before the fallback (two
        # groups per thread were 8 % of SVC's fit on 30k x 6).
        probe = max(2, threads)
        order = _probe_order(len(groups), probe)
        bounds = [0, *range(probe, len(groups), batch)]
    results = [None] * len(groups)
    n_repairs = 0
    # One set of batch buffers for the whole run: a batch of V x V blocks is DeriveRS's
    # working memory, and fresh ones per batch were mapped and faulted in again each time.
    # Only the leading size x size block of each slice is read (derive_ae also clears its
    # own part of gamma_out), so they are never zero-filled; whatever a smaller group
    # leaves in the rest of a slice is never read.
    width = max(g.size for g in groups)
    G = np.empty((min(batch, len(groups)), width, width))
    gamma_out = np.empty_like(G)
    resid = np.empty((G.shape[0], width))
    rep = np.empty((G.shape[0], width), dtype=np.bool_)
    for start, stop in zip(bounds, [*bounds[1:], len(groups)], strict=True):
        ids = order[start:stop]
        if budget is not None and budget.expired():
            for gi in order[start:]:
                results[gi] = _unprocessed(groups[gi], sw, bookkeeping)
            return _assemble(y, groups, results, n_repairs, bookkeeping, len(order) - start)
        chunk = [groups[i] for i in ids]
        batch_width = max(g.size for g in chunk)
        diag_max = 1.0
        for b, g in enumerate(chunk):
            block = gram(X, rows=g, cols=g, **kp)
            G[b, : g.size, : g.size] = block
            diag_max = max(diag_max, float(np.abs(np.diagonal(block)).max()))
            del block  # one V x V temporary at a time
        sizes = np.array([g.size for g in chunk], dtype=np.int64)
        sphere_tol = _SPHERE_RTOL * diag_max
        max_iter = 1000 + 200 * batch_width

        settings = (tol, _QP_TOL, max(_QP_TOL, _FIT_RTOL * tol), max_iter, sphere_tol)
        # Groups in parallel on threads (derive_ae is nogil), group b owning slice [b].
        one = functools.partial(_derive_group, G, sizes, settings, gamma_out, resid, rep)
        n_repairs += sum(thread_map(one, len(chunk), n_jobs))
        for b, gi in enumerate(ids):
            results[gi] = _group_result(chunk[b], gamma_out[b], resid[b], rep[b], sw, bookkeeping)
        if start == 0 and abort_fraction is not None and len(groups) > probe:
            probed = sum(results[gi][0].size for gi in ids)
            if probed > abort_fraction * sum(g.size for g in chunk):
                return None
    return _assemble(y, groups, results, n_repairs, bookkeeping)
