"""The papers' seeded synthetic generators, svmlight/libsvm I/O and bundled real data."""

from ._bundled import BUNDLED_DATASETS, load_bundled
from ._io import dump_svmlight, load_svmlight
from ._synthetic import (
    make_blob_mixture,
    make_g241c,
    make_lad_set_a,
    make_noisy_sinc,
    make_sparse_text,
)

__all__ = [
    "BUNDLED_DATASETS",
    "dump_svmlight",
    "load_bundled",
    "load_svmlight",
    "make_blob_mixture",
    "make_g241c",
    "make_lad_set_a",
    "make_noisy_sinc",
    "make_sparse_text",
]
