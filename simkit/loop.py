"""The game loops, written once for every game: a compiled one for built-in bots and a
Python one for user bots and checked play. Both drive a game only through its declared
protocol (``init_state``, ``legal_actions``, ``apply_action``, ``to_move``, ``is_over``,
``observe``) and record what its output table names.

The compiled loop is a plain ``njit`` function taking the game's functions as
arguments. numba compiles it into each game's own cached entry point (the few lines
of ``simkit/games/<game>/loop.py``), so a game's cache depends only on its own files.

Bots never see the game's chance stream: a built-in bot gets a copy of the bot stream
(``rng[BOT]``) of its own and per-seat memory kept for the whole game; in a game with
hidden information it is shown its seat's observation only.
"""

from __future__ import annotations

import numpy as np
from numba import literally, njit, types
from numba.extending import overload

from .jit import kernel
from .rng import BOT


def bot_dispatch(choose_by_code):
    """The function the compiled loop asks for an action,
    ``choose(used, code, flags, obs, legal, rng, b, mem, ib, fb)``: built-in bot ``code``'s
    function from ``choose_by_code`` (a game's ``CHOOSE``), called with the arguments after
    ``code``.

    ``used`` (a bit per bot code) must be a compile-time constant: compiled code then
    holds only the bots of the run, so a run compiles the rules and the bots it plays and
    nothing else (compiling every bot made the first run of a game wait up to minutes)."""

    def choose(used, code, flags, obs, legal, rng, b, mem, ib, fb):
        # Plain Python (the JIT disabled): every bot is at hand.
        return choose_by_code[code](flags, obs, legal, rng, b, mem, ib, fb)

    @overload(choose)
    def _compiled(used, code, flags, obs, legal, rng, b, mem, ib, fb):
        if not isinstance(used, types.IntegerLiteral):
            return None  # numba asks again with the constant's value
        codes = [c for c in range(len(choose_by_code)) if used.literal_value >> c & 1]
        if not codes:
            raise ValueError("a compiled loop needs at least one built-in bot")
        return _chain(codes, choose_by_code)

    return choose


def named_after(fn, *what):
    """``fn`` with ``what`` added to its qualified name, which names its compiled code.

    numba names compiled code by qualified name and a counter of the compiling process,
    so the closures of one definition (a loop per bot set, a bot chain per list of bots)
    compiled in different processes got the same symbol names for different code; a
    process that loaded two of them from the cache mixed them up (AAU's loop of random
    bots, then its loop of four bots: "'descr' is NULL" in ``make goldens``). Named after
    what they hold, closures with one name have the same code."""
    fn.__qualname__ += "_" + "_".join(str(w).replace(".", "_") for w in what)
    return fn


def compiled_loop(used):
    """The decorator of a game's loop for bot set ``used`` (its ``loop.py``):
    ``njit(cache=True)`` under a name of its own (:func:`named_after`)."""
    return lambda chunk: njit(cache=True)(named_after(chunk, "bots", used))


def _chain(codes, choose_by_code):
    """``if code == c0: bot c0 ... else: bot c_last`` over ``codes`` (no test for the last:
    the loop hands out only the codes it was compiled for), as one function: a chain of
    one function per bot had numba optimise and emit every bot's code once per link (an
    eighth of O.V.N.I.'s compile time with its four bots)."""
    call = "(flags, obs, legal, rng, b, mem, ib, fb)"
    lines = ["def dispatch(used, code, flags, obs, legal, rng, b, mem, ib, fb):"]
    for c in codes[:-1]:
        lines += [f"    if code == {c}:", f"        return bot_{c}{call}"]
    lines.append(f"    return bot_{codes[-1]}{call}")
    scope = {f"bot_{c}": choose_by_code[c] for c in codes}
    exec("\n".join(lines), scope)
    return named_after(scope["dispatch"], choose_by_code[codes[0]].__module__, *codes)


def listing_bots(infos) -> int:
    """A bit per bot code whose ``BotInfo`` asks for the list of legal actions in a
    perfect-information game (``legal=True``)."""
    return sum(1 << info.code for info in infos.values() if info.legal)


@njit
def bot_streams(rng):
    """The bots' random streams for a game: the game's bot stream alone (the chance
    stream and the seed stay out of the bots' reach)."""
    brng = np.zeros(3, np.uint64)
    brng[BOT] = rng[BOT]
    return brng


@njit
def play_games(seeds, b, codes, flags, game_fields, seat_fields, seat_base, seat_stride, max_steps,
               init_state, legal_actions, apply_action, to_move, is_over, observe, choose, used,
               perfect, listing, max_actions, obs_size, mem_size, scratch_size):
    """Plays one game per seed; ``codes``/``flags`` give the built-in bot of each game
    and seat. Returns the raw recorded fields: ``game_raw[g, j]`` is state field
    ``game_fields[j]`` at the end of game ``g``, ``seat_raw[g, p, j]`` field
    ``seat_fields[j]`` of seat ``p``'s record (base ``seat_base``, ``seat_stride`` apart),
    and -1, or the first game not over after ``max_steps`` steps (the game's step limit:
    a bot or rule that never ends a game stops the batch there instead of hanging it).

    ``perfect``: the game has no hidden information, so a bot reads the state itself
    instead of a copy (bots must then leave it unchanged) and is given the list of legal
    actions only if its code's bit is set in ``listing`` (its ``BotInfo(legal=True)``,
    :func:`listing_bots`): the others compute what they need from the state, since listing
    them at every decision would cost, in games per CPU-second (benchmarks/ab_speed.py,
    2026-11-28), UFS greedy 23%, AAU greedy 12% and strategic 3%, Ufo.O tactical 37%.
    Otherwise a bot sees its seat's observation and the legal actions.

    A bot's memory (``mem_size`` ints per seat, zero at the start of each game) is
    handed over as one buffer holding the deciding seat's memory, swapped when the
    seat changes: passing a row view per decision costs a fast game 3% (views are
    reference-counted).

    ``choose``/``used``: a :func:`bot_dispatch` and the bots compiled in (a constant)."""
    literally(used)
    n = seeds.shape[0]
    seats = codes.shape[1]
    game_raw = np.zeros((n, game_fields.shape[0]), np.int32)
    seat_raw = np.zeros((n, seats, seat_fields.shape[0]), np.int32)
    ib = np.empty(scratch_size, np.int32)
    fb = np.empty(scratch_size, np.float64)
    obs = np.zeros(max(obs_size, 1), np.int32)
    stored = np.zeros((seats, max(mem_size, 1)), np.int32)
    mem = np.zeros(mem_size, np.int32)
    legal = np.empty(max_actions, np.int32)
    no_legal = legal[:0]
    for g in range(n):
        s, rng = init_state(seeds[g], b)
        brng = bot_streams(rng)
        stored[:, :] = 0
        mem[:] = 0
        holder = 0  # the seat whose memory is in mem
        steps = 0
        while not is_over(s):
            if steps == max_steps:
                return game_raw, seat_raw, g
            steps += 1
            p = to_move(s)
            if mem_size > 0 and p != holder:
                for i in range(mem_size):
                    stored[holder, i] = mem[i]
                    mem[i] = stored[p, i]
                holder = p
            if perfect and not (listing >> codes[g, p]) & 1:
                a = choose(used, codes[g, p], flags[g, p], s, no_legal, brng, b, mem, ib, fb)
            elif perfect:
                k = legal_actions(s, b, legal)
                a = choose(used, codes[g, p], flags[g, p], s, legal[:k], brng, b, mem, ib, fb)
            else:
                k = legal_actions(s, b, legal)
                observe(s, b, p, obs)
                a = choose(used, codes[g, p], flags[g, p], obs, legal[:k], brng, b, mem, ib, fb)
            apply_action(s, rng, b, a)
        record(s, g, game_fields, seat_fields, seat_base, seat_stride, game_raw, seat_raw)
    return game_raw, seat_raw, -1


@kernel
def observe_state(s, b, seat, out):
    """``observe`` of a game without hidden information: the whole state."""
    for i in range(s.shape[0]):
        out[i] = s[i]


@njit
def record(s, g, game_fields, seat_fields, seat_base, seat_stride, game_raw, seat_raw):
    # OutputTable.gather, compiled (compiled code cannot call it)
    for j in range(game_fields.shape[0]):
        game_raw[g, j] = s[game_fields[j]]
    for p in range(seat_raw.shape[1]):
        for j in range(seat_fields.shape[0]):
            seat_raw[g, p, j] = s[seat_base + p * seat_stride + seat_fields[j]]
