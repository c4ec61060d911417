"""The core's compiled game loop bound to Under Falling Skies (cached per game)."""

import functools

import strategies.ufs as bots

from ...loop import bot_dispatch, compiled_loop, listing_bots, play_games
from . import engine as E

choose = bot_dispatch(bots.CHOOSE)


@functools.cache
def play_chunk(used):
    """The compiled loop for the built-in bots whose code's bit is set in ``used``,
    compiled (or loaded from the cache) on first use: a run compiles what it plays."""
    listing = listing_bots(bots.BOTS)  # the bots handed the legal actions in a perfect-information game

    # Pass functions as module attributes (E.x, bots.x): numba lowers a function imported
    # by name and passed as a value through its address, which cannot be cached.
    @compiled_loop(used)
    def chunk(seeds, b, codes, flags, game_fields, seat_fields, seat_base, seat_stride, max_steps):
        return play_games(seeds, b, codes, flags, game_fields, seat_fields, seat_base, seat_stride, max_steps,
                          E.init_state, E.legal_actions, E.apply_action, E.to_move, E.is_over, E.observe, choose, used,
                          E.PERFECT_INFORMATION, listing, E.MAX_ACTIONS, E.OBS_SIZE, bots.MEMORY, bots.SCRATCH)

    return chunk
