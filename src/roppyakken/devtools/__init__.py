"""Tools for maintainers, run by hand when their sources change (not used by the game).

``python -m roppyakken.devtools.i18n`` rebuilds the translation catalogs and the
browser's generated catalog; ``python -m roppyakken.devtools.cardart`` redraws the
card faces.  They may need the ``i18n`` extra (Babel); the game never imports them.
"""
