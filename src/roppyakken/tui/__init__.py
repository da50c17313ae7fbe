"""Roppyakken in the terminal (Textual): ``roppyakken play`` and ``roppyakken replay FILE --watch``.

This package is the only one that imports Textual; the core works without it.
"""
