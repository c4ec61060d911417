"""Compilation decorators for game code.

``kernel`` compiles a function that never allocates arrays (it works on the state,
board and scratch arrays it is given). Such functions are compiled without Numba's
reference counting: with it, every branch that reads an argument array pays atomic
increments and decrements, which made the bots several times slower. A function
that allocates (``np.zeros`` ...) must use plain ``njit``.
"""

from llvmlite import ir
from numba import njit, types
from numba.core.registry import CPUDispatcher
from numba.extending import intrinsic, overload


def _widened(t):
    """The type a game function is compiled for when called with an argument of type
    ``t``: a constant's own type (``Literal[int](0)``) and a narrower signed integer
    (int32) become the plain int64."""
    t = types.unliteral(t)
    return types.int64 if isinstance(t, types.Integer) and t.signed and t.bitwidth < 64 else t


class _OneVersion(CPUDispatcher):
    """A compiled function that numba types once per call shape, not once per constant.

    numba compiles a function called from compiled code again for every distinct
    constant argument (``log_event(s, b, aud, KIND, ...)`` was compiled 42 times in
    EFTAIOS) and every mix of int32 and int64; those copies were a fifth to a half of
    each game's compile time. Calls are typed with :func:`_widened` arguments instead
    (same outcomes; an inlined helper still folds the constant, a kernel called with one
    may lose a little speed: Ufo.O's aggressive bot 7%, no other bot measurably)."""

    def get_call_template(self, args, kws):
        return super().get_call_template(tuple(_widened(a) for a in args), {k: _widened(v) for k, v in kws.items()})


def _compiler(**options):
    plain = njit(**options)

    def compile_(func):
        disp = plain(func)
        if type(disp) is CPUDispatcher:  # (not a plain function: NUMBA_DISABLE_JIT)
            disp.__class__ = _OneVersion
        return disp

    return compile_


# error_model="numpy": a division by zero gives inf (or 0) instead of raising, so
# divisions compile without a zero test and its exception path; the rules never
# divide by zero.
kernel = _compiler(_nrt=False, error_model="numpy")

# Small helpers called in inner loops: inlined at compile time, since a call that
# passes arrays costs more than the helper's own work.
inline_kernel = _compiler(_nrt=False, inline="always", error_model="numpy")


def entry(func):
    """A cached copy of a compiled function, for calls from Python.

    Compiled code calls the plain function so that it can be inlined; a cached
    function must not be called from compiled code (its cached machine code cannot
    be inlined). Only simkit's own files are cached: numba would keep a cached copy of
    other code (a test's, a notebook's) after the game code it calls has changed."""
    import inspect

    from ._cache import component_of

    f = getattr(func, "py_func", func)
    try:
        own = component_of(inspect.getfile(f)) is not None
    except TypeError:  # built without a file
        own = False
    return njit(cache=own)(f)


@intrinsic
def _ctpop(typingctx, x):
    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(fn, [args[0]])

    return types.int64(types.int64), codegen


def popcount(x):
    """Number of set bits of ``x`` as a 64-bit integer (one instruction when compiled)."""
    return bin(int(x) & 0xFFFF_FFFF_FFFF_FFFF).count("1")


@overload(popcount, inline="always")
def _popcount_compiled(x):
    return lambda x: _ctpop(x)
