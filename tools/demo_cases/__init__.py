"""Main-job cases, one module per package (``<import name>.py``).

Each module registers cases with ``@REGISTRY.register("<name>")``; a case takes the
default data (:func:`demo_cases._data.default_data`) and the size and returns a list of
:class:`_benchkit.Row` (method on a data set against its baseline: times, objective gap,
test accuracy). A module raises ``ImportError`` at import when its package does not yet
provide what it needs, and ``tools/demo.py`` skips it with a note.
"""

from _benchkit import Registry

REGISTRY = Registry()

#: Method packages the main job covers: import name -> distribution name.
METHOD_PACKAGES = {
    "aid_core": "aid-core",
    "aid_models": "aid-lad-svm-s3vm",
    "aesvm": "aesvm-deriveRS",
    "l2svm_mfn": "l2svm-mfn-tsvm-mfa",
    "lpsvr": "lpsvr-decomp",
}

#: Packages without estimators of their own, and where the main job exercises them.
COVERED_BY = {"aid_core": "the generic AID loop, run by the aid_models cases"}
