"""The defaults suite's timing rule (``tools/defaults_cases/_timing.best_of``)."""

import importlib

import pytest
from _repo import ROOT


@pytest.fixture
def timing(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "tools"))
    return importlib.import_module("defaults_cases._timing")


def _scripted(seconds):
    """A ``run`` returning the given seconds in turn, each with its call number."""
    calls = iter(enumerate(seconds))

    def run():
        i, s = next(calls)
        return s, i

    return run


def test_a_long_run_is_timed_once(timing):
    assert timing.best_of(_scripted([timing.SHORT_FIT, 0.0])) == (timing.SHORT_FIT, 0)


def test_short_runs_repeat_until_the_budget_and_keep_the_best(timing):
    b = timing.SHORT_BUDGET
    assert b / 8 < timing.SHORT_FIT
    # binary fractions of the budget: the fourth run reaches it exactly, so four calls
    best, kept = timing.best_of(_scripted([b / 8, b / 4, b / 16, 9 * b / 16, 0.0]))
    assert (best, kept) == (b / 16, 2)


def test_short_runs_stop_at_max_repeat(timing):
    seconds = [1e-6] * timing.MAX_REPEAT + [0.0]
    best, kept = timing.best_of(_scripted(seconds))
    assert (best, kept) == (1e-6, 0)  # the first of equal times; the 0.0 after the cap unseen
