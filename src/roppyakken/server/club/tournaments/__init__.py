"""Tournaments: arenas, Swiss events and round robins.

``model.py`` holds what a tournament is made of as plain data and the pure rules
of every format (pairings, points, tie-breaks): no database, no clock, no I/O, so
they are tested over thousands of seeded random tournaments.  The director that
applies them to a running tournament lives beside it.
"""
