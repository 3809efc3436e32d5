"""comparison_metrics (sec. 5.3) against the definitions written out as loops."""

import numpy as np
import pytest

from aesvm import comparison_metrics


def test_metrics_match_definitions():
    rng = np.random.default_rng(0)
    R, S = 4, 3
    cl, cf = rng.uniform(0.7, 1, (R, S)), rng.uniform(0.7, 1, (R, S))
    tl, tf = rng.uniform(1, 5, (R, S)), rng.uniform(0.1, 1, (R, S))
    nl, nf = rng.integers(50, 100, (R, S)), rng.integers(10, 50, (R, S))
    t_rep = 2.5
    m = comparison_metrics(cl, cf, tl, tf, nl, nf, representative_time=t_rep)
    rmse = (sum((cl[r, s] - cf[r, s]) ** 2 for r in range(R) for s in range(S)) / (R * S)) ** 0.5
    ets = sum(tl[r, s] / tf[r, s] for r in range(R) for s in range(S)) / (R * S)
    ots = sum(tl.flat) / (sum(tf.flat) + t_rep)
    ecs = sum(nl[r, s] / nf[r, s] for r in range(R) for s in range(S)) / (R * S)
    ocs = sum(nl.flat) / sum(nf.flat)
    assert m == pytest.approx({"RMSE": rmse, "ETS": ets, "OTS": ots, "ECS": ecs, "OCS": ocs})


def test_metrics_bad_input():
    ok = [1.0, 1.0]
    with pytest.raises(ValueError, match="accuracy must have shape"):
        comparison_metrics(ok, [1.0], ok, ok, ok, ok)
    with pytest.raises(ValueError, match="positive"):
        comparison_metrics(ok, ok, ok, [0.0, 1.0], ok, ok)
    with pytest.raises(ValueError, match="representative_time"):
        comparison_metrics(ok, ok, ok, ok, ok, ok, representative_time=-1.0)
    with pytest.raises(ValueError, match="NaN"):
        comparison_metrics([np.nan, 1.0], ok, ok, ok, ok, ok)
