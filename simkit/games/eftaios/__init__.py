"""Escape From the Aliens In Outer Space (black edition): specification stage.

Rules: docs/rules/eftaios.md. Settings: params.py. Data files and their loader: data/,
data_model.py. The engine is not built yet, so the game is not in the registry.
"""
