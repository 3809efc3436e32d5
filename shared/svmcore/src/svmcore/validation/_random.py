"""``random_state`` handling shared by every estimator of the monorepo."""

from __future__ import annotations

import numbers

import numpy as np

from ..typing import RandomStateLike

__all__ = ["check_generator", "check_seed"]

#: Seeds are drawn below this bound: the int32 range every consumer accepts (libsvm,
#: liblinear and Numba's generator take 32-bit seeds).
_SEED_BOUND = np.iinfo(np.int32).max


def check_seed(random_state: RandomStateLike) -> int | None:
    """An int seed (or None) from a scikit-learn ``random_state``.

    Estimators pass one seed on to every randomized step (clustering, solvers), so that a
    fit is reproducible from ``random_state`` and a ``RandomState`` instance is consumed
    once per fit, as in scikit-learn.

    Parameters
    ----------
    random_state : None, int, numpy.random.RandomState or numpy.random.Generator
        None keeps the consumers' own (unseeded) randomness; an int is the seed; a
        ``RandomState`` or ``Generator`` draws one seed.

    Returns
    -------
    seed : int or None
        The seed, in ``[0, 2**31 - 1)`` when drawn.

    Raises
    ------
    TypeError
        For any other type (including bool).
    """
    if random_state is None:
        return None
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        return int(random_state)
    if isinstance(random_state, np.random.RandomState):
        return int(random_state.randint(_SEED_BOUND))
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(_SEED_BOUND))
    raise TypeError(
        "random_state must be None, an int, a numpy RandomState or a numpy Generator; "
        f"got {random_state!r}."
    )


def check_generator(random_state: RandomStateLike) -> np.random.Generator:
    """A :class:`numpy.random.Generator` from a scikit-learn ``random_state``.

    Parameters
    ----------
    random_state : None, int, numpy.random.RandomState or numpy.random.Generator
        A ``Generator`` is returned as is; otherwise one is seeded with
        :func:`check_seed` (None: fresh entropy).

    Returns
    -------
    rng : numpy.random.Generator
        The generator.

    Raises
    ------
    TypeError
        For any other type (including bool).
    """
    if isinstance(random_state, np.random.Generator):
        return random_state
    return np.random.default_rng(check_seed(random_state))
