"""simkit: Monte Carlo balance analysis for tabletop games."""

from ._cache import configure_numba_cache

__version__ = "0.1.0"

configure_numba_cache()


def load(*paths, mix: bool = False):
    """Finished runs as one Polars frame (see :func:`simkit.loading.load`)."""
    from .loading import load as _load

    return _load(*paths, mix=mix)
