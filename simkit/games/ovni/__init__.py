"""O.V.N.I. (Marcos Macri, art Diego Sanchez; MS Jogos): 2-4 alien civilisations bid
face down for alien recruits, then fly, abduct, build and fight over twelve cities.

Status: specification only; the engine is not built yet and the game is not registered.
Rules as they will be implemented: docs/rules/ovni.md. Data files: ``data/``; loader:
``data_model.py``; settings: ``params.py``.
"""
