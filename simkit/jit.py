"""Compilation decorators for game code.

``kernel`` compiles a function that never allocates arrays (it works on the state,
board and scratch arrays it is given). Such functions are compiled without Numba's
reference counting: with it, every branch that reads an argument array pays atomic
increments and decrements, which made the bots several times slower. A function
that allocates (``np.zeros`` ...) must use plain ``njit``.
"""

from numba import njit

kernel = njit(_nrt=False)

# Small helpers called in inner loops: inlined at compile time, since a call that
# passes arrays costs more than the helper's own work.
inline_kernel = njit(_nrt=False, inline="always")
