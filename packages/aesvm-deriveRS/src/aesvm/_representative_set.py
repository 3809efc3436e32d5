"""DeriveRS's output: the representative set, assembled from its groups' results."""

from __future__ import annotations

import dataclasses

import numpy as np
import scipy.sparse as sp

__all__ = ["RepresentativeSet"]


@dataclasses.dataclass(frozen=True)
class RepresentativeSet:
    """Output of :func:`derive_rs`.

    Parameters
    ----------
    indices : ndarray of shape (M,)
        Rows of ``X`` forming the representative set :math:`X^*`, in the paper's
        order (class by class, group by group).
    labels : ndarray of shape (M,)
        ``y[indices]``.
    beta : ndarray of shape (M,)
        The weights (10), :math:`\\beta_t = \\sum_i s_i \\gamma_t^i` (``s_i = 1`` without
        sample weights), so the betas of a class sum to that class's (weighted) size.
    gamma : scipy.sparse.csr_matrix of shape (N, M) or None
        :math:`\\Gamma`, row ``i`` holding :math:`\\gamma^i` (on the simplex; a unit row
        for a representative). None without ``bookkeeping``, as the next two.
    residuals : ndarray of shape (N,) or None
        :math:`\\|\\tau_i\\|^2`, the CheckPoint value of each sample against its group's
        representatives (0 for representatives; <= ``tol`` for all).
    groups : ndarray of shape (N,) or None
        Group (:math:`X_{q_r}`) of each sample.
    n_groups : int
        Number of groups.
    n_repairs : int
        Samples made representative in step 6 because CheckPoint against the final
        :math:`X^*_{q_r}` exceeded ``tol`` (see Notes of :func:`derive_rs`).
    n_unprocessed : int, default=0
        Groups that DeriveAE did not process because ``budget`` expired: every sample
        of such a group is its own representative (a unit row of :math:`\\Gamma`, beta
        its sample weight), so the set is valid but not reduced there.

    See Also
    --------
    derive_rs : Computes it.
    """

    indices: np.ndarray
    labels: np.ndarray
    beta: np.ndarray
    gamma: sp.csr_matrix | None
    residuals: np.ndarray | None
    groups: np.ndarray | None
    n_groups: int
    n_repairs: int
    n_unprocessed: int = 0

    @property
    def n_representatives(self) -> int:
        """M, the size of the representative set."""
        return int(self.indices.size)


def _group_weights(g, sw):
    """The sample weights of group ``g`` (ones without weights: no N-sized array)."""
    return np.ones(g.size) if sw is None else sw[g]


def _group_result(g, gamma_out, resid, rep, sw, bookkeeping):
    """What is kept of one group's DeriveAE outputs (the batch buffers are reused).

    ``(rows, beta)``: its representatives' rows of X and their betas (10),
    :math:`\\beta = \\Gamma_g^T s_g`; with ``bookkeeping``, also its Gamma block as
    per-row counts, int32 columns and values (row-major, columns ascending) and its
    residuals. Nothing of size V x V outlives the batch.
    """
    size = g.size
    local = np.flatnonzero(rep[:size])
    block = gamma_out[:size][:, local]
    beta = _group_weights(g, sw) @ block
    if not bookkeeping:
        return g[local], beta
    counts = np.count_nonzero(block, axis=1)
    rows, cols = np.nonzero(block)
    return g[local], beta, (counts, cols.astype(np.int32), block[rows, cols]), resid[:size].copy()


def _unprocessed(g, sw, bookkeeping):
    """A group's result without DeriveAE: every sample its own representative (Gamma's
    block the identity), with its sample weight as beta."""
    beta = _group_weights(g, sw)
    if not bookkeeping:
        return g, beta
    ones = np.ones(g.size, dtype=np.intp)
    identity = (ones, np.arange(g.size, dtype=np.int32), np.ones(g.size))
    return g, beta, identity, np.zeros(g.size)


def _assemble(y, groups, results, n_repairs, bookkeeping=True, n_unprocessed=0):
    """The representative set from each group's result (:func:`_group_result`), in the
    paper's order (group by group); Gamma is written straight into CSR arrays."""
    indices = np.concatenate([r[0] for r in results])
    beta = np.concatenate([r[1] for r in results])
    gamma = residuals = group_of = None
    if bookkeeping:
        n = sum(g.size for g in groups)
        residuals = np.zeros(n)
        group_of = np.empty(n, dtype=np.intp)
        row_nnz = np.zeros(n, dtype=np.intp)
        for gi, (g, r) in enumerate(zip(groups, results, strict=True)):
            row_nnz[g] = r[2][0]
            residuals[g] = r[3]
            group_of[g] = gi
        nnz = int(row_nnz.sum())
        index_dtype = np.int32 if max(nnz, indices.size) < np.iinfo(np.int32).max else np.int64
        indptr = np.zeros(n + 1, dtype=index_dtype)
        np.cumsum(row_nnz, out=indptr[1:])
        del row_nnz
        cols = np.empty(nnz, dtype=index_dtype)
        vals = np.empty(nnz)
        offset = 0
        for g, r in zip(groups, results, strict=True):
            counts, local_cols, local_vals = r[2]
            # Entry k of the group (row-major) goes to its row's slot in the CSR arrays.
            firsts = np.cumsum(counts) - counts
            dest = np.repeat(indptr[g].astype(np.intp) - firsts, counts)
            dest += np.arange(local_cols.size)
            cols[dest] = local_cols + offset
            vals[dest] = local_vals
            offset += r[0].size
        gamma = sp.csr_matrix((vals, cols, indptr), shape=(n, indices.size))
    return RepresentativeSet(
        indices=indices,
        labels=y[indices],
        beta=beta,
        gamma=gamma,
        residuals=residuals,
        groups=group_of,
        n_groups=len(groups),
        n_repairs=n_repairs,
        n_unprocessed=n_unprocessed,
    )
