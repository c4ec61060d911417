"""Strategic (and greedy, which is the same code with only immediate points).

* **Missions** (KEEP): a mission is kept when its estimated chance of completion makes
  +8 / -5 worth it (``keep_choice``); always one, a second one only if it pays.
* **Bidding** (PLACE): every area's card is valued by the seat's needs (``card_value``:
  majorities, group capabilities, missions). The seat's chance to win each area is
  estimated from the tokens it sees (``win_chance``), and a placement is worth the
  change of the round's expected value: the cards it may win (a second area adds little,
  three aliens in all) or, if it wins nothing, the energy card, minus the token spent
  (the 6 is used up for the game). The 6 only goes face down. A bot that expects more
  from its energy card than from the cards shown bids to lose on purpose (its expected
  value counts the energy card when every chance is low). A token that cancels a rival's
  visible token in an area the rival wants also scores (denial).
* **Energy** (ENERGY): bonus 1 (the most needed alien, and a force field when rivals can
  attack) or bonus 2 (a third group), whichever is worth more.
* **Phase 2**: each group is valued by its best actions now (``group_values``), the best
  group is activated; inside a group the best action is taken while it gains anything:
  Pilot moves by the change of the cities' values (airspace, abduction chances,
  missions) plus mappings, including two-step flights to a mapping; abductions by the
  human's value; launches; captures and destructions by the seat's gain plus half the
  rival's loss (all of it with two players).

``mode == GREEDY`` keeps only what would score if the game ended now (see evaluate.py),
keeps one mission, and bids its highest token on the card worth most immediately.
Options (bits of ``flags``) switch a choice off to measure it: NO_SWAP, NO_SHIELD,
NO_EXTRA, NO_NOMAJ, NO_SIX_TWICE (an ability never used), ONE_MISSION / TWO_MISSIONS
(the number of missions kept).
"""

from __future__ import annotations

import numpy as np

from simkit.games.ovni.board import (
    B_CARD,
    B_DIST,
    B_MIS,
    B_NB,
    B_NBMASK,
    B_NDEG,
    B_PAD,
    B_SC_UFO_PAD,
    B_START_REVERSED,
    EFF_ABDUCT_WITHOUT_MAJORITY,
    EFF_MAP_THRESHOLD,
    EFF_PREBUILT_UFO,
    EFF_SIX_USES,
    EFF_SWAP_HUMAN,
    EFF_UFO_POINTS,
    M_HUM,
    M_KIND,
    M_MAP_PAR,
    MAX_DEGREE,
    MIS_STRIDE,
    PARITY_ANY,
)
from simkit.games.ovni.engine import (
    A_ABDUCT,
    A_ACTIVATE,
    A_CAPTURE,
    A_DESTROY,
    A_DUMMY_ALIEN,
    A_END_GROUP,
    A_END_TURN,
    A_ENERGY_ALIEN,
    A_ENERGY_THREE,
    A_KEEP,
    A_LAUNCH,
    A_MOVE,
    A_PICK,
    A_PLACE,
    A_PLACE_DUMMY,
    A_SHIELD,
    A_START_PAIR,
    A_START_TRIPLE,
    ABDUCTORS,
    ACTIVATED,
    AREA_N,
    BUDGET,
    BUILDERS,
    CITY_HUMAN,
    DUMMY,
    ENERGY_DUMMY,
    GROUP,
    GROUP_BASE,
    MAP_COUNT,
    MILITARY,
    MOVES_MADE,
    N_CITIES,
    N_CLASSES,
    NAREAS,
    NPLANETS,
    O_HAND,
    O_MISSIONS,
    O_SEAT,
    P_CAPT,
    P_EXTRA_MIN,
    P_EXTRA_MOVES,
    P_FF,
    P_FF_MIL,
    P_FROZEN,
    P_MAP_PTS,
    P_MAP_THR,
    P_MAPPED,
    P_OWN,
    P_PAD,
    P_PARKED,
    P_SIX_USES,
    P_UFO,
    P_UFO_PTS,
    PAIR_A,
    PAIR_B,
    PAIRS_TAKEN,
    P_START_N,
    PH_DUMMY_START,
    PH_ENERGY,
    PH_GROUP,
    PH_KEEP,
    PH_PICK,
    PH_PLACE,
    PH_SHIELD,
    PH_START,
    PH_TURN,
    PHASE,
    PILOTS,
    PLAYERS,
    ROUND,
    SLOT_OWNER,
    SLOT_SHOWN,
    SLOTS,
    STOCK,
    TOKENS,
    capture_ok,
    has_eff,
    held,
    po,
)
from simkit.jit import inline_kernel, kernel

from .evaluate import (
    AS_CNT,
    AS_SINGLE,
    AS_STRIDE,
    F_AS,
    F_AV,
    F_BOT,
    F_CV,
    F_E,
    F_HV,
    F_MCAP,
    F_MODE,
    F_MUFO,
    F_OALL,
    F_OEND,
    F_P,
    F_R,
    F_WDENY,
    GREEDY,
    area_stats,
    city_value,
    class_value,
    energy_value,
    map_gain,
    prepare_classes,
    majority_points,
    prepare,
    prepare_areas,
    prepare_cities,
    threat_to,
    win_chance,
)

NO_SWAP = 1
NO_SHIELD = 2
NO_EXTRA = 4
NO_NOMAJ = 8
NO_SIX_TWICE = 16
ONE_MISSION = 32
TWO_MISSIONS = 64

# Estimated chance of completing a kept mission, by player count (rows 2, 3, 4) and kind
# (airspace+abduction, abduction+possession, capture+possession, mapping+possession):
# the completion rates of this bot keeping two missions, 3,000 games per player count on
# the stand-in cards (see reports/ovni); a mapping mission that takes cities of any parity
# is easier (x1.45) than one of a given parity (x0.55). A mission is kept when the chance
# beats 5/13.
KIND_PRIOR = np.array([[0.36, 0.42, 0.63, 0.16],
                       [0.03, 0.23, 0.35, 0.33],
                       [0.01, 0.16, 0.32, 0.16]])


F_TOKCOST = F_BOT  # cost per point of a token
F_SIXCOST = F_BOT + 1
F_GAIN_IN = F_BOT + 2  # per city: value of one more of the seat's UFOs there (prepare_moves)
F_LOSS_OUT = F_GAIN_IN + N_CITIES  # per city: change from one less
F_MYCV = F_LOSS_OUT + N_CITIES  # the seat's class values (prepare_mine)
F_REST = F_MYCV + N_CLASSES  # per area: the chance of winning none of the other areas (place_choice)
F_CAND = F_REST + 4  # the score of each legal placement (place_choice), for the search bot
MAX_CAND = 24
# Turn order at the start (R1.11): nobody holds anything yet, so the starting aliens decide
# round 1's phase-1 order (Military, then Builders ..., R3.1: the opener's tie-breaks, the
# first face-down token) and a Pilot helps in phase 2. Staying ahead of every rival is
# worth START_LEAD, of some a share of it. Tuned head to head (8,000 games per player
# count): Military and Pilot terms against none 62% / 37% / 27% win share at 2 / 3 / 4
# players; a lead term for a start nobody can outrank 62% / 35% / 28% against without;
# START_MILITARY 1 against 3.5: 51% / 33% / 25%; the lead graded by the rivals left
# behind against all or nothing: 49% / 36% / 29%.
START_MILITARY = 1.0
START_PILOTS = 0.5
START_LEAD = 6.0  # staying ahead of every rival in round 1's phase-1 order
# seat memory: 0-19 the round's card values (prepare_place); the previous Pilot move
M_MOVE_STAMP, M_MOVE_BACK = 20, 21
MEMORY = 24  # ints of memory per seat: this round's card values (0-19), the move stamp and the move back


# ---- set-up -------------------------------------------------------------------------------
@kernel
def mission_chance(x, b, me, m):
    """Estimated chance that ``me`` completes mission ``m`` (KIND_PRIOR, adjusted by its
    ability cards and by the humans it needs being about)."""
    r = B_MIS + m * MIS_STRIDE
    kind = b[r + M_KIND]
    p = KIND_PRIOR[x[PLAYERS] - 2, kind]
    if kind == 3:
        p *= 1.45 if b[r + M_MAP_PAR] == PARITY_ANY else 0.55
    if kind == 3 and has_eff(x, me, EFF_MAP_THRESHOLD):
        p += 0.2
    if kind == 3 and (has_eff(x, me, EFF_PREBUILT_UFO) or has_eff(x, me, EFF_UFO_POINTS)):
        p += 0.05
    if kind <= 1 and (has_eff(x, me, EFF_ABDUCT_WITHOUT_MAJORITY) or has_eff(x, me, EFF_SWAP_HUMAN)):
        p += 0.1
    return min(p, 0.95)


@kernel
def keep_choice(x, b, flags, greedy):
    me = x[O_SEAT]
    best = -1
    second = -1
    pb = -1.0
    ps = -1.0
    for i in range(3):
        p = mission_chance(x, b, me, x[O_MISSIONS + i])
        if p > pb:
            second = best
            ps = pb
            best = i
            pb = p
        elif p > ps:
            second = i
            ps = p
    two = (not greedy) and ps * 13.0 - 5.0 > 0.0
    if flags & ONE_MISSION:
        two = False
    if flags & TWO_MISSIONS:
        two = True
    if two:
        other = 3 - best - second
        return A_KEEP + 3 + other
    return A_KEEP + best


@inline_kernel
def _start_key(p, a, bb, m):
    """R3.1's phase-1 order key of a holding (Military, Builders, Abductors, Pilots)."""
    return ((m * 8 + bb) * 8 + a) * 8 + p


@kernel
def start_choice(x, b, fb, legal, flags):
    """The starting pair (or triple) worth most: the aliens' values, plus the turn order
    they bring: Military lead phase 1 (R3.1) and Pilots phase 2 (R8.1); and the share of
    rivals it stays ahead of in round 1's phase-1 order (an earlier seat with a better
    start, a later seat with the three-aliens card, later seats taking the better pairs
    still open are ahead)."""
    me = x[O_SEAT]
    players = x[PLAYERS]
    best = legal[0]
    bv = -1e9
    for i in range(legal.shape[0]):
        a = legal[i]
        c0 = 0
        c1 = 0
        c2 = 0
        c3 = 0
        if a >= A_START_TRIPLE:
            skip = a - A_START_TRIPLE
            c0 = 1 if skip != 0 else 0
            c1 = 1 if skip != 1 else 0
            c2 = 1 if skip != 2 else 0
            c3 = 1 if skip != 3 else 0
            v = 0.0
            for k in range(N_CLASSES):
                if k != skip:
                    v += class_value(x, b, fb, me, k, 0)
        else:
            j = a - A_START_PAIR
            v = class_value(x, b, fb, me, PAIR_A[j], 0) + class_value(x, b, fb, me, PAIR_B[j], 0)
            c0 = 1 if PAIR_A[j] == 0 else 0
            c1 = 1 if PAIR_A[j] == 1 or PAIR_B[j] == 1 else 0
            c2 = 1 if PAIR_A[j] == 2 or PAIR_B[j] == 2 else 0
            c3 = 1 if PAIR_B[j] == 3 else 0
        v += START_MILITARY * c3 + START_PILOTS * c0
        key = _start_key(c0, c1, c2, c3)
        # rivals that will be ahead in round 1's phase-1 order: earlier seats with a better
        # start, later seats with the three-aliens card, later seats taking a better pair
        ahead = 0
        later = 0
        for r in range(players):
            # seats before me in the choosing order (K1 start_order=reversed: the later seats)
            if (r > me) if b[B_START_REVERSED] else (r < me):
                if _start_key(held(x, r, 0), held(x, r, 1), held(x, r, 2), held(x, r, 3)) > key:
                    ahead += 1
            elif r != me:
                if x[po(r) + P_START_N] == 3:
                    ahead += 1
                else:
                    later += 1
        better = 0
        for jj in range(6):  # pairs still open to a later seat
            if (x[PAIRS_TAKEN] >> jj) & 1 or (a < A_START_TRIPLE and jj == a - A_START_PAIR):
                continue
            pa = PAIR_A[jj]
            pb = PAIR_B[jj]
            if _start_key(1 if pa == 0 else 0, 1 if pa == 1 or pb == 1 else 0,
                          1 if pa == 2 or pb == 2 else 0, 1 if pb == 3 else 0) > key:
                better += 1
        ahead += min(better, later)
        v += START_LEAD * (players - 1 - ahead) / (players - 1)
        if v > bv:
            bv = v
            best = a
    return best


@kernel
def dummy_alien_choice(x, b, fb, legal):
    """An alien for the dummy: the class whose stock is largest (the end comes no sooner),
    of those worth least to the rival seats."""
    me = x[O_SEAT]
    best = legal[0]
    bv = -1e9
    for i in range(legal.shape[0]):
        k = legal[i] - A_DUMMY_ALIEN
        v = float(x[STOCK + k])
        for r in range(x[PLAYERS]):
            if r != me:
                v -= 0.1 * fb[F_CV + 4 * r + k]
        if v > bv:
            bv = v
            best = legal[i]
    return best


# ---- phase 1 -------------------------------------------------------------------------------
@kernel
def place_choice(x, b, fb, legal, flags, greedy):
    """The placement worth most (see the module docstring)."""
    me = x[O_SEAT]
    nareas = x[NAREAS]
    if legal[0] >= A_PLACE_DUMMY:
        # a dummy token: into the area the rivals want most and the seat least
        best = legal[0]
        bv = -1e9
        for i in range(legal.shape[0]):
            a = legal[i] - A_PLACE_DUMMY
            v = -fb[F_AV + 4 * me + a]
            for r in range(x[PLAYERS]):
                if r != me:
                    v += fb[F_AV + 4 * r + a]
            if v > bv:
                bv = v
                best = legal[i]
        return best
    if greedy:
        # the card worth most now, with the highest token in hand
        best = legal[0]
        bv = -1e9
        for i in range(legal.shape[0]):
            a = (legal[i] - A_PLACE) // TOKENS
            v = (legal[i] - A_PLACE) % TOKENS + 2
            val = fb[F_AV + 4 * me + a] * 10.0 + v
            if val > bv:
                bv = val
                best = legal[i]
        return best
    ev = 0.0
    s = 0.0
    none = 1.0
    for a in range(nareas):
        if x[AREA_N + a] < SLOTS:
            area_stats(x, b, fb, a)
            p = win_chance(x, b, fb, me, a, 0)
        else:
            p = _settled_chance(x, b, fb, me, a)
        fb[F_P + a] = p
        ev += p * fb[F_AV + 4 * me + a]
        s += p
        none *= 1.0 - p
    base = _round_value(ev, s, none, fb[F_E])
    for a in range(nareas):  # the chance of winning no area but a
        rest = 1.0
        for c in range(nareas):
            if c != a:
                rest *= 1.0 - fb[F_P + c]
        fb[F_REST + a] = rest
    six_ok = not (flags & NO_SIX_TWICE and x[po(me) + P_SIX_USES] >= 1)
    best = legal[0]
    bv = -1e9
    for i in range(legal.shape[0]):
        a = (legal[i] - A_PLACE) // TOKENS
        v = (legal[i] - A_PLACE) % TOKENS + 2
        cost = fb[F_TOKCOST] * v
        if v == 6:
            if x[AREA_N + a] % 2 == 1 or not six_ok:
                cost += 1000.0  # the 6 goes face down only
            cost += fb[F_SIXCOST]
        p = win_chance(x, b, fb, me, a, v)
        p0 = fb[F_P + a]
        va = fb[F_AV + 4 * me + a]
        val = _round_value(ev + (p - p0) * va, s + p - p0, fb[F_REST + a] * (1.0 - p), fb[F_E]) - base - cost
        # denial: a value known once in the area cancels with this token
        o = F_AS + a * AS_STRIDE
        if fb[o + AS_CNT + v] == 1.0:
            owner = int(fb[o + AS_SINGLE + v])
            if owner != me:
                val += 0.3 * fb[F_WDENY] * fb[F_AV + 4 * owner + a]
        if i < MAX_CAND:
            fb[F_CAND + i] = val
        if val > bv:
            bv = val
            best = legal[i]
    return best


@inline_kernel
def _round_value(ev, s, none, energy):
    """Expected value of the round's awards: the cards' chances times values, discounted
    when the chances add up past one (several wins give three aliens in all: a second
    win adds a quarter), plus the energy card if nothing is won."""
    if s > 1.0:
        ev *= (1.0 + 0.25 * (s - 1.0)) / s
    return ev + none * energy


@kernel
def _settled_chance(x, b, fb, me, a):
    """A full area: the winner is decided (though the seat may not see every value)."""
    area_stats(x, b, fb, a)
    return win_chance(x, b, fb, me, a, 0)


@kernel
def best_class(x, b, fb, me, first, n, legal, pool_check):
    best = legal[0]
    bv = -1e9
    for i in range(legal.shape[0]):
        k = legal[i] - first
        v = class_value(x, b, fb, me, k, 0) if x[STOCK + k] > 0 else -1.0
        if v > bv:
            bv = v
            best = legal[i]
    return best, bv


@kernel
def energy_choice(x, b, fb, legal, greedy):
    me = x[O_SEAT]
    if x[ENERGY_DUMMY]:
        prepare_classes(x, b, fb)
        return dummy_alien_choice(x, b, fb, legal)
    a1 = A_ENERGY_ALIEN
    best = a1
    bv = -1e9
    for k in range(N_CLASSES):
        v = class_value(x, b, fb, me, k, 0) if x[STOCK + k] > 0 else 0.0
        if v > bv:
            bv = v
            best = a1 + k
    if greedy:
        return best
    e1 = bv + 2.0 * threat_to(x, me)
    e2 = _third_group(x, b, fb, me)
    return best if e1 >= e2 else A_ENERGY_THREE


@kernel
def _third_group(x, b, fb, me):
    """Value of a third activation: the third best group this round, roughly."""
    n = 0
    o = po(me)
    if held(x, me, PILOTS) >= 2:
        n += 1
    if held(x, me, ABDUCTORS) >= 2:
        n += 1
    if x[o + P_PAD] > 0:
        n += 1
    if held(x, me, MILITARY) >= 3:
        n += 1
    return 1.5 + 1.5 * max(0, n - 2) + 0.5 * n


# ---- phase 2 -------------------------------------------------------------------------------
@kernel
def prepare_moves(x, b, fb, me):
    """Per city, what one more UFO of the seat there is worth (F_GAIN_IN: airspace,
    abduction chance, mapping) and what one less costs (F_LOSS_OUT); and the mapping
    targets, cities mapped with one more UFO (returned as a bit mask)."""
    o = po(me)
    targets = 0
    greedy = fb[F_MODE] == GREEDY
    for c in range(N_CITIES):
        m = x[o + P_UFO + c]
        here = city_value(x, b, fb, me, c, m)
        mg = map_gain(x, b, fb, me, c, m)
        g_in = map_gain(x, b, fb, me, c, m + 1) - mg
        fb[F_GAIN_IN + c] = city_value(x, b, fb, me, c, m + 1) - here + g_in
        if m > 0:
            fb[F_LOSS_OUT + c] = city_value(x, b, fb, me, c, m - 1) - here + map_gain(x, b, fb, me, c, m - 1) - mg
        else:
            fb[F_LOSS_OUT + c] = 0.0
        if not greedy and g_in > 0.5 * x[o + P_MAP_PTS] and not (x[o + P_MAPPED] >> c) & 1:
            if map_gain(x, b, fb, me, c, m + 1) >= float(x[o + P_MAP_PTS]):
                targets |= 1 << c
    return targets


@kernel
def best_move(x, b, fb, me, budget, targets, back):
    """The best Pilot move (value, action), from the seat's unfrozen UFOs (after
    prepare_moves). With two moves left, a flight f -> t -> u to a mapping target u is
    worth what it changes at f and u (t is only crossed), three quarters of it as the
    first step's value, unless arriving at t would map it (the UFO would freeze there).
    ``back`` (a MOVE id, or -1) is the reverse of the previous move: never taken."""
    o = po(me)
    bv = 0.0
    ba = -1
    if budget < 2:
        targets = 0
    for f in range(N_CITIES):
        if x[o + P_UFO + f] <= x[o + P_FROZEN + f]:
            continue
        out = fb[F_LOSS_OUT + f]
        for k in range(b[B_NDEG + f]):
            t = b[B_NB + f * MAX_DEGREE + k]
            a = A_MOVE + f * N_CITIES + t
            if a == back:
                continue
            v = fb[F_GAIN_IN + t] + out
            reach = targets & b[B_NBMASK + t] & ~(1 << f) & ~(1 << t)
            if reach and not (targets >> t) & 1:
                best = 0.0
                for u in range(N_CITIES):
                    if (reach >> u) & 1 and fb[F_GAIN_IN + u] > best:
                        best = fb[F_GAIN_IN + u]
                v2 = 0.75 * (best + out)
                if v2 > v:
                    v = v2
            if v > bv:
                bv = v
                ba = a
    return bv, ba


@inline_kernel
def launch_value(x, b, fb, me, c):
    """After prepare_moves."""
    o = po(me)
    v = float(x[o + P_UFO_PTS] - b[B_SC_UFO_PAD]) + fb[F_GAIN_IN + c]
    if fb[F_MODE] != GREEDY:
        v += fb[F_MUFO]
    return v


@inline_kernel
def abduct_value(x, b, fb, me, c, d, flags):
    if d != c and flags & NO_SWAP:
        return -1.0
    if flags & NO_NOMAJ and fb[F_OALL + c] >= x[po(me) + P_UFO + c]:
        return -1.0
    kind = x[CITY_HUMAN + d]
    return fb[F_HV + kind] + (0.0 if d == c else -0.05)


@kernel
def prepare_mine(x, b, fb, me):
    for k in range(N_CLASSES):
        fb[F_MYCV + k] = class_value(x, b, fb, me, k, 0)


@inline_kernel
def capture_value(x, b, fb, me, t, k):
    """After prepare_mine (F_MYCV)."""
    v = fb[F_MYCV + k]
    if fb[F_MODE] == GREEDY:
        v += _loss_now(x, b, t, k)
        return v
    v += fb[F_MCAP + k]
    if t < x[PLAYERS]:
        v += fb[F_WDENY] * class_value(x, b, fb, t, k, -1)
    return v


@inline_kernel
def _loss_now(x, b, t, k):
    if t >= x[PLAYERS]:
        return 0.0
    h = held(x, t, k)
    return 0.5 * (majority_points(x, b, t, k, h) - majority_points(x, b, t, k, h - 1))


@inline_kernel
def destroy_value(x, b, fb, me, t, c):
    o = po(me)
    mine = x[o + P_UFO + c]
    ot = po(t)
    theirs = x[ot + P_UFO + c]
    # the most other planets (not me, not t) have there, and t after the loss
    other = 0
    for r in range(x[NPLANETS]):
        if r != me and r != t:
            u = x[po(r) + P_UFO + c]
            if u > other:
                other = u
    before = 1.0 if mine > max(other, theirs) else 0.0
    after = 1.0 if mine > max(other, theirs - 1) else 0.0
    v = 4.0 * (after - before)
    if t < x[PLAYERS]:
        loss = float(x[ot + P_UFO_PTS])
        if theirs > max(other, mine) and not theirs - 1 > max(other, mine):
            loss += 4.0
        v += fb[F_WDENY] * loss
    else:
        v += 0.3  # the dummy's UFO: only what it blocks
    return v


@kernel
def group_values(x, b, fb, me, legal, flags, out_best):
    """Value of activating each group now (its best actions); returns the best action."""
    o = po(me)
    targets = prepare_moves(x, b, fb, me)
    best = A_END_TURN
    bv = 0.3
    for i in range(legal.shape[0]):
        a = legal[i]
        if a == A_END_TURN:
            continue
        k = a - A_ACTIVATE
        v = 0.0
        if k == PILOTS:
            budget = held(x, me, PILOTS)
            if budget > 0 and not (flags & NO_EXTRA):
                budget += x[o + P_EXTRA_MOVES] if _extra(x, me) else 0
            if budget > 0:
                mv, _ = best_move(x, b, fb, me, budget, targets, -1)
                v = mv * (1.0 + 0.3 * min(budget - 1, 3))
        elif k == ABDUCTORS:
            n = held(x, me, ABDUCTORS) // 2
            if n > 0:
                v1 = 0.0
                v2 = 0.0
                for c in range(N_CITIES):
                    kind = x[CITY_HUMAN + c]
                    if kind < 0:
                        continue
                    mine = x[o + P_UFO + c]
                    ok = mine > fb[F_OALL + c] or (has_eff(x, me, EFF_ABDUCT_WITHOUT_MAJORITY) and mine > 0
                                                   and not flags & NO_NOMAJ)
                    if ok:
                        hv = fb[F_HV + kind]
                        if hv > v1:
                            v2 = v1
                            v1 = hv
                        elif hv > v2:
                            v2 = hv
                v = v1 + (v2 if n >= 2 else 0.0)
        elif k == BUILDERS:
            pad = x[o + P_PAD]
            if pad > 0:
                lv = -1e9
                for c in range(N_CITIES):
                    w = launch_value(x, b, fb, me, c)
                    if w > lv:
                        lv = w
                v = lv * min(2, pad)
        else:
            n = (held(x, me, MILITARY) - x[o + P_PARKED]) // 3
            if n > 0:
                prepare_mine(x, b, fb, me)
                av = 0.0
                for t in range(x[NPLANETS]):
                    if t == me or x[po(t) + P_FF] != 0:
                        continue
                    for kk in range(N_CLASSES):
                        if capture_ok(x, b, t, kk):
                            w = capture_value(x, b, fb, me, t, kk)
                            if w > av:
                                av = w
                    for c in range(N_CITIES):
                        if x[o + P_UFO + c] > 0 and x[po(t) + P_UFO + c] > 0:
                            w = destroy_value(x, b, fb, me, t, c)
                            if w > av:
                                av = w
                v = av * (1.0 + 0.6 * min(n - 1, 2))
        if v > bv:
            bv = v
            best = a
    return best


@kernel
def _extra(x, me):
    o = po(me)
    return x[o + P_EXTRA_MOVES] > 0 and held(x, me, PILOTS) >= x[o + P_EXTRA_MIN]


@kernel
def group_action(x, b, fb, me, legal, flags, mem):
    """The best action of the active group, or END_GROUP when nothing gains."""
    g = x[GROUP]
    if g == PILOTS:
        if flags & NO_EXTRA and x[MOVES_MADE] >= x[GROUP_BASE]:
            return A_END_GROUP
        targets = prepare_moves(x, b, fb, me)
        # the seat's memory holds its previous move of this activation (M_MOVE_*)
        back = -1
        if mem[M_MOVE_STAMP] == x[ROUND] * 64 + x[MOVES_MADE]:
            back = mem[M_MOVE_BACK]
        bv, ba = best_move(x, b, fb, me, x[BUDGET], targets, back)
        if ba >= 0 and bv > 0.05:
            f = (ba - A_MOVE) // N_CITIES
            t = (ba - A_MOVE) % N_CITIES
            mem[M_MOVE_STAMP] = x[ROUND] * 64 + x[MOVES_MADE] + 1
            mem[M_MOVE_BACK] = A_MOVE + t * N_CITIES + f
            return ba
        return A_END_GROUP
    if g == BUILDERS:
        prepare_moves(x, b, fb, me)
    elif g == MILITARY:
        prepare_mine(x, b, fb, me)
    best = A_END_GROUP
    bv = 0.05
    for i in range(legal.shape[0]):
        a = legal[i]
        if a == A_END_GROUP:
            continue
        if a < A_LAUNCH:
            c = (a - A_ABDUCT) // N_CITIES
            d = (a - A_ABDUCT) % N_CITIES
            v = abduct_value(x, b, fb, me, c, d, flags)
        elif a < A_CAPTURE:
            v = launch_value(x, b, fb, me, a - A_LAUNCH)
            if fb[F_MODE] != GREEDY:
                v += 0.5  # a UFO on the pad is better on the board
        elif a < A_DESTROY:
            v = capture_value(x, b, fb, me, (a - A_CAPTURE) // N_CLASSES, (a - A_CAPTURE) % N_CLASSES)
        else:
            v = destroy_value(x, b, fb, me, (a - A_DESTROY) // N_CITIES, (a - A_DESTROY) % N_CITIES)
        if v > bv:
            bv = v
            best = a
    return best


@kernel
def shield_choice(x, b, fb, flags):
    me = x[O_SEAT]
    if flags & NO_SHIELD:
        return A_SHIELD
    threat = threat_to(x, me)
    if threat == 0:
        return A_SHIELD
    h = held(x, me, MILITARY)
    lost = h // 3 - (h - x[po(me) + P_FF_MIL]) // 3
    return A_SHIELD + 1 if 2.5 * threat > 3.0 * lost else A_SHIELD


# ---- dispatch ------------------------------------------------------------------------------
@kernel
def prepare_place(x, b, mem, fb, mode):
    """The tables a placement needs (F_AV, F_E, F_TOKCOST, F_SIXCOST): the cards' values
    do not change while tokens are placed, so they are computed once a round and kept in
    the seat's memory (thousandths)."""
    me = x[O_SEAT]
    stamp = x[ROUND] * 2 + 1
    if mem[0] == stamp:
        for i in range(16):
            fb[F_AV + i] = mem[1 + i] * 0.001
        fb[F_E] = mem[17] * 0.001
        fb[F_TOKCOST] = mem[18] * 0.001
        fb[F_SIXCOST] = mem[19] * 0.001
    else:
        prepare(x, b, fb, mode)
        prepare_areas(x, b, fb)
        fb[F_E] = energy_value(x, b, fb, me)
        avg = 0.0
        for a in range(x[NAREAS]):
            avg += fb[F_AV + 4 * me + a]
        avg /= x[NAREAS]
        fb[F_TOKCOST] = 0.04 * avg + 0.1
        r = fb[F_R]
        six_left = 1.0 if has_eff(x, me, EFF_SIX_USES) and x[po(me) + P_SIX_USES] == 0 else 0.0
        fb[F_SIXCOST] = (0.6 * min(r - 1.0, 4.0)) * (1.0 - 0.5 * six_left) if r > 1.0 else 0.0
        mem[0] = stamp
        for i in range(16):  # (a planet or area not in play: its scratch was never written)
            in_play = i // 4 < x[NPLANETS] and i % 4 < x[NAREAS]
            mem[1 + i] = int(round(fb[F_AV + i] * 1000.0)) if in_play else 0
        mem[17] = int(round(fb[F_E] * 1000.0))
        mem[18] = int(round(fb[F_TOKCOST] * 1000.0))
        mem[19] = int(round(fb[F_SIXCOST] * 1000.0))
        # use the rounded values, so that a remembered decision equals a fresh one
        for i in range(16):
            fb[F_AV + i] = mem[1 + i] * 0.001
        fb[F_E] = mem[17] * 0.001
        fb[F_TOKCOST] = mem[18] * 0.001
        fb[F_SIXCOST] = mem[19] * 0.001
    fb[F_MODE] = mode
    fb[F_WDENY] = 1.0 if x[PLAYERS] == 2 else 0.5


@kernel
def choose(x, legal, rng, b, mem, ib, fb, flags, mode):
    me = x[O_SEAT]
    ph = x[PHASE]
    greedy = mode == GREEDY
    if ph == PH_KEEP:
        return keep_choice(x, b, flags, greedy)
    if ph == PH_PLACE:
        prepare_place(x, b, mem, fb, mode)
        return place_choice(x, b, fb, legal, flags, greedy)
    prepare(x, b, fb, mode)
    if ph == PH_GROUP or ph == PH_TURN:
        prepare_cities(x, b, fb, me)
        if ph == PH_GROUP:
            return group_action(x, b, fb, me, legal, flags, mem)
        return group_values(x, b, fb, me, legal, flags, 0)
    if ph == PH_PICK:
        a, _ = best_class(x, b, fb, me, A_PICK, N_CLASSES, legal, True)
        return a
    if ph == PH_ENERGY:
        return energy_choice(x, b, fb, legal, greedy)
    if ph == PH_SHIELD:
        return shield_choice(x, b, fb, flags)
    if ph == PH_START:
        return start_choice(x, b, fb, legal, flags)
    if ph == PH_DUMMY_START:
        prepare_classes(x, b, fb)
        return dummy_alien_choice(x, b, fb, legal)
    return legal[0]
