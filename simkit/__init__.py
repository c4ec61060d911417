"""simkit: Monte Carlo balance analysis for tabletop games."""

from ._cache import configure_numba_cache

__version__ = "0.1.0"

configure_numba_cache()
