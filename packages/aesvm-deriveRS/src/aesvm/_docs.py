"""Docstring fragments AESVC and derive_rs share (see :func:`svmcore.docstrings.fill_doc`)."""

from __future__ import annotations

__all__: list[str] = []

DOCS: dict[str, str] = {
    "references": """\
        References
        ----------
        .. [1] M. Nandan, P. P. Khargonekar and S. S. Talathi, "Fast SVM Training Using
           Approximate Extreme Points", JMLR 15, 2014.""",
}
