"""The semi-supervised label conventions: scikit-learn's -1, SVMlin's 0, and the ambiguous
{-1, 0, 1} that must be stated (svmcore.validation)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from svmcore.validation import from_svmlin_labels, split_semi_supervised, unlabeled_mask


@pytest.mark.parametrize("dtype", [np.int64, np.int8, np.float64, np.float32, object])
def test_ambiguous_labels_raise_unless_the_convention_is_stated(dtype):
    y = np.array([1, -1, 0, 0, 1], dtype=dtype)
    with pytest.raises(ValueError) as info:
        unlabeled_mask(y)
    message = str(info.value)
    for words in ("scikit-learn", "SVMlin", "unlabeled_value=-1", "unlabeled_value=0"):
        assert words in message
    assert "from_svmlin_labels" in message
    with pytest.raises(ValueError, match="two conventions"):
        split_semi_supervised(y)
    np.testing.assert_array_equal(unlabeled_mask(y, -1), [0, 1, 0, 0, 0])
    np.testing.assert_array_equal(unlabeled_mask(y, 0), [0, 0, 1, 1, 0])


@pytest.mark.parametrize(
    "y", [[0, 1, 1], [1, 2, -1], [-1, 1, 1], ["a", "b", "c"], [0, 1, 0], [-1.0, 0.5, 1.0]]
)
def test_other_label_sets_are_not_ambiguous(y):
    np.testing.assert_array_equal(unlabeled_mask(y), np.asarray(y) == -1)


def test_unlabeled_mask_shape():
    with pytest.raises(ValueError, match="1-dimensional"):
        unlabeled_mask(np.zeros((2, 2)))


def test_svmlin_convention_gives_classes_minus_one_and_one():
    classes, ys, unl = split_semi_supervised([1.0, -1.0, 0.0, 1.0], unlabeled_value=0)
    assert classes.tolist() == [-1, 1]
    assert ys.tolist() == [1, -1, 0, 1]
    assert unl.tolist() == [False, False, True, False]
    with pytest.raises(ValueError, match="unlabeled marker 0"):
        split_semi_supervised([1, 0, 0], unlabeled_value=0)


def test_from_svmlin_labels_maps_and_refuses_other_values():
    out = from_svmlin_labels(np.array([1.0, -1.0, 0.0]))
    assert out.dtype == np.int64 and out.tolist() == [1, 0, -1]
    assert from_svmlin_labels([]).tolist() == []
    with pytest.raises(ValueError, match=r"only SVMlin's labels .* found \[2\]"):
        from_svmlin_labels([1, 2, 0])
    with pytest.raises(ValueError, match="found \\[0.5\\]"):
        from_svmlin_labels([1.0, 0.5])
    with pytest.raises(ValueError, match="must hold numbers"):
        from_svmlin_labels(["1", "0"])
    with pytest.raises(ValueError, match="1-dimensional"):
        from_svmlin_labels([[1, 0]])


@given(st.lists(st.sampled_from([-1, 0, 1]), min_size=1, max_size=40), st.booleans())
@settings(max_examples=100, deadline=None)
def test_svmlin_labels_read_the_same_either_way(labels, as_float):
    """unlabeled_value=0 on SVMlin's y == unlabeled_value=-1 on the converted y."""
    y = np.array(labels, dtype=np.float64 if as_float else np.int64)
    y_sk = from_svmlin_labels(y)
    np.testing.assert_array_equal(y_sk == -1, y == 0)
    np.testing.assert_array_equal(y_sk[y != 0] == 1, y[y != 0] == 1)
    if not {-1, 1} <= set(labels):
        with pytest.raises(ValueError, match="both classes"):
            split_semi_supervised(y, unlabeled_value=0, require_unlabeled=False)
        return
    classes, ys, unl = split_semi_supervised(y, unlabeled_value=0, require_unlabeled=False)
    classes_sk, ys_sk, unl_sk = split_semi_supervised(
        y_sk, unlabeled_value=-1, require_unlabeled=False
    )
    assert classes.tolist() == [-1, 1] and classes_sk.tolist() == [0, 1]
    np.testing.assert_array_equal(ys, ys_sk)
    np.testing.assert_array_equal(unl, unl_sk)
    if set(labels) == {-1, 0, 1}:  # the ambiguous set: refused when not stated
        with pytest.raises(ValueError, match="two conventions"):
            split_semi_supervised(y)
        with pytest.raises(ValueError, match="two conventions"):
            split_semi_supervised(y_sk)
