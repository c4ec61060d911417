"""Ufo.O (Fabio De Mori, 2009): two-player hex combat, lasers against ion cannon.

Specification stage: the rules are in docs/rules/ufo-o.md; this package so far holds the
settings (params.py), the board data (data/), its loader (data_model.py) and the hex
geometry (geometry.py). The engine is not built yet, so the game is not in the registry.
"""
