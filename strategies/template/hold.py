"""Hold at a fixed turn total: the classic Pig heuristic."""

from simkit.games.template.engine import A_HOLD, A_ROLL, O_SCORES, O_SEAT, O_TARGET, O_TURN_TOTAL
from simkit.jit import kernel


@kernel
def choose(obs, legal, at):
    total = obs[O_TURN_TOTAL]
    if total >= at or obs[O_SCORES + obs[O_SEAT]] + total >= obs[O_TARGET]:
        return A_HOLD
    return A_ROLL
