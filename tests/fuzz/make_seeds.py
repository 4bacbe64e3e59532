#!/usr/bin/env python3
"""make_seeds.py - writes the seed corpora of tests/fuzz/ (committed files;
run again only when an input layout changes: python3 tests/fuzz/make_seeds.py).

Seeds give libFuzzer the shapes a mutation rarely stumbles on by itself:
well-formed orders for every unit of a player, the 1000-order boundary, each
parameter set, frames split byte by byte.  The orders targets share one
layout (described at the top of fuzz_orders.h); the frames layout is at the
top of fuzz_frames.c.
"""
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))

# ---- the orders targets' layout (fuzz_orders.h) -------------------------

RESOLVE = 4           # ctl bit: resolve the round after this message
STATUS_SHARE = 1 << 3  # ctl bits 3-4: a CPU share of (bits 5-7) / 4
STATUS_ODD = 2 << 3    # NaN, infinity, huge, -0
STATUS_FROZEN = 3 << 3
TWICE = 0x80           # set byte: play the input twice


def message(orders, fmt, count=None):
    """An orders message: u16 count, then each order packed by fmt."""
    n = len(orders) if count is None else count
    return struct.pack("<H", n) + b"".join(struct.pack(fmt, *o) for o in orders)


def chunk(player, payload, ctl=0):
    return bytes([player | ctl]) + struct.pack("<H", len(payload)) + payload


def match(set_, seed, rounds_of_orders, flags=0):
    """One input: per round, one message per player, the last resolving."""
    out = bytes([set_ | flags, seed])
    for msgs in rounds_of_orders:
        for p, payload in enumerate(msgs):
            out += chunk(p, payload, RESOLVE if p == len(msgs) - 1 else 0)
    return out


def limits(make, owned, fmt, set_):
    """The 1000-order boundary and malformed messages, for any game: make(id)
    gives an order for unit id, owned(p) the ids player p starts with."""
    seeds = {}
    over = [make(owned(0)[i % len(owned(0))]) for i in range(1001)]
    seeds["orders_1001"] = bytes([set_, 1]) + chunk(0, message(over, fmt)) + b"".join(
        chunk(p, message([make(i) for i in owned(p)], fmt), RESOLVE if p == 3 else 0)
        for p in range(1, 4))
    # Exactly 1000 orders is allowed, whatever ids they name.
    exact = [make(i % 300) for i in range(1000)]
    seeds["malformed"] = bytes([set_, 2]) + (
        chunk(0, b"\x01")                                               # shorter than its count
        + chunk(1, message([make(i) for i in owned(1)[:2]], fmt, count=3))  # count 3, 2 orders
        + chunk(2, message([], fmt) + b"\x00")                          # a byte too many
        + chunk(3, message(exact, fmt), RESOLVE))
    # 600 then 401 orders from one player in one round: 1001 in all.
    mine = owned(0)
    seeds["split_over_1000"] = bytes([set_, 3]) + (
        chunk(0, message([make(mine[i % len(mine)]) for i in range(600)], fmt))
        + chunk(0, message([make(mine[i % len(mine)]) for i in range(401)], fmt))
        + chunk(1, message([make(i) for i in owned(1)], fmt), RESOLVE))
    return seeds


def statuses(set_, seed, n, orders_of):
    """n rounds where the runner reports shares, odd shares and a freeze."""
    out = bytes([set_, seed])
    for r in range(n):
        for p in range(4):
            ctl = RESOLVE if p == 3 else 0
            if p == 1 and r == 3:
                ctl |= STATUS_FROZEN
            elif p == 2:
                ctl |= STATUS_ODD | (r % 4) << 5
            else:
                ctl |= STATUS_SHARE | (r % 8) << 5
            out += chunk(p, orders_of(p), ctl)
    return out


# ---- Dominator -------------------------------------------------------------

# The parameter sets of fuzz_dominator_orders.c, by index, with the units
# each player has (ids are given player by player, so player p owns ids
# p * units .. p * units + units - 1).
DEFAULT, CROWDED, SHORT, FULL, WITCHES, FIXED = range(6)
UNITS = {DEFAULT: 32, CROWDED: 28, SHORT: 7, FULL: 256, WITCHES: 100, FIXED: 18}

def orders(pairs, count=None):
    """A Dominator orders message: (u16 id, u8 direction) each."""
    return message(pairs, "<HB", count)


def all_units(rng, set_, player):
    base = player * UNITS[set_]
    return [(base + i, rng.randrange(9)) for i in range(UNITS[set_])]


def rounds(rng, set_, n, seed=0, flags=0):
    """n rounds where every player orders each of its units."""
    out = bytes([set_ | flags, seed])
    for _ in range(n):
        for p in range(4):
            out += chunk(p, orders(all_units(rng, set_, p)), RESOLVE if p == 3 else 0)
    return out


def dominator():
    rng = random.Random(2024)
    seeds = {}
    seeds["empty_orders"] = bytes([DEFAULT, 0]) + b"".join(
        chunk(p, orders([]), RESOLVE if p == 3 else 0) for p in range(4))
    seeds["valid_orders"] = rounds(rng, DEFAULT, 5)
    over = [(i % 32, 8) for i in range(1001)]
    seeds["orders_1001"] = bytes([DEFAULT, 1]) + chunk(0, orders(over)) + b"".join(
        chunk(p, orders(all_units(rng, DEFAULT, p)), RESOLVE if p == 3 else 0)
        for p in range(1, 4))
    # Exactly 1000 orders is allowed, whatever ids they name.
    exact = [(i % 128, rng.randrange(9)) for i in range(1000)]
    seeds["malformed"] = bytes([DEFAULT, 2]) + (
        chunk(0, b"\x01")                                     # shorter than its count
        + chunk(1, orders([(32, 0), (33, 1)], count=3))       # count 3, 2 orders
        + chunk(2, orders([]) + b"\x00")                      # a byte too many
        + chunk(3, orders(exact), RESOLVE))
    # 600 then 401 orders from one player in one round: 1001 in all.
    seeds["split_over_1000"] = bytes([DEFAULT, 3]) + (
        chunk(0, orders([(i % 32, 2) for i in range(600)]))
        + chunk(0, orders([(i % 32, 4) for i in range(401)]))
        + chunk(1, orders(all_units(rng, DEFAULT, 1)), RESOLVE))
    seeds["crowded"] = rounds(rng, CROWDED, 20, seed=1)
    seeds["short_match"] = rounds(rng, SHORT, 4, seed=2)
    seeds["full_board_twice"] = rounds(rng, FULL, 1, flags=0x80)
    seeds["witches"] = rounds(rng, WITCHES, 4, seed=1)
    seeds["fixed_statuses"] = statuses(
        FIXED, 0, 10, lambda p: orders(all_units(rng, FIXED, p)))
    return seeds


# ---- Ants ------------------------------------------------------------------

# The parameter sets of fuzz_ants_orders.c, by index, with each colony's
# first ants (queen, soldiers, workers); ids are given colony by colony, so
# colony p starts with ids p * n .. p * n + n - 1, its queen first.
A_DEFAULT, A_CROWDED, A_SHORT, A_FULL, A_WIDE, A_TALL = range(6)
A_COLONY = {A_DEFAULT: (3, 11), A_CROWDED: (3, 6), A_SHORT: (3, 11),
            A_FULL: (100, 154), A_WIDE: (4, 10), A_TALL: (0, 14)}
A_FMT = "<HBBB"  # id, kind (move, take, leave, lay), direction, egg type
A_MOVE, A_TAKE, A_LEAVE, A_LAY = range(4)


def colony(set_, p):
    soldiers, workers = A_COLONY[set_]
    n = 1 + soldiers + workers
    return list(range(p * n, (p + 1) * n))


def ant_orders(rng, set_, p, newborn=0):
    """An order for each of colony p's first ants, fitting its type, and
    moves for some ids handed out later (newborns, maybe of another
    colony)."""
    soldiers, _ = A_COLONY[set_]
    out = []
    for k, i in enumerate(colony(set_, p)):
        if k == 0:
            kind = A_LAY if rng.random() < 0.6 else A_MOVE
            out.append((i, kind, rng.randrange(4), rng.choice((1, 2))))
        elif k <= soldiers:
            out.append((i, A_MOVE, rng.randrange(4), 0))
        else:
            out.append((i, rng.choice((A_MOVE, A_MOVE, A_TAKE, A_LEAVE)), rng.randrange(4), 0))
    first = 4 * len(colony(set_, 0))
    out += [(first + rng.randrange(newborn), A_MOVE, rng.randrange(4), 0)
            for _ in range(newborn // 2)]
    return message(out, A_FMT)


def ants():
    rng = random.Random(2025)

    def play(set_, n, seed=0, flags=0, newborn=0):
        return match(set_, seed, [[ant_orders(rng, set_, p, newborn) for p in range(4)]
                                  for _ in range(n)], flags)

    seeds = {"empty_orders": match(A_DEFAULT, 0, [[message([], A_FMT)] * 4])}
    seeds["valid_orders"] = play(A_DEFAULT, 5)
    seeds.update(limits(lambda i: (i, A_MOVE, rng.randrange(4), 0),
                        lambda p: colony(A_DEFAULT, p), A_FMT, A_DEFAULT))
    seeds["crowded"] = play(A_CROWDED, 12, seed=1, newborn=20)
    seeds["short_match"] = play(A_SHORT, 4, seed=2)
    seeds["full_board_twice"] = play(A_FULL, 1, flags=TWICE)
    seeds["wide"] = play(A_WIDE, 12, seed=3, newborn=8)
    seeds["tall_statuses"] = statuses(A_TALL, 0, 10, lambda p: ant_orders(rng, A_TALL, p, 10))
    return seeds


# ---- Star War --------------------------------------------------------------

# The parameter sets of fuzz_starwar_orders.c, by index, with the ships each
# player has (player p owns ids p * ships .. p * ships + ships - 1).
S_DEFAULT, S_CROWDED, S_SHORT, S_FULL, S_MISSILES, S_MAP, S_ROUND = range(7)
S_SHIPS = {S_DEFAULT: 2, S_CROWDED: 8, S_SHORT: 2, S_FULL: 64, S_MISSILES: 4, S_MAP: 4,
           S_ROUND: 6}
S_FMT = "<HB"  # id, action: (dr + 1) * 3 + dc for a move, 9 to shoot
S_SHOOT = 9


def fleet(set_, p):
    n = S_SHIPS[set_]
    return list(range(p * n, (p + 1) * n))


def ship_orders(rng, set_, p, shoot=0.3):
    """One action for each ship of player p: a shot, or a move (mostly
    forward, as valid moves are)."""
    out = []
    for i in fleet(set_, p):
        if rng.random() < shoot:
            out.append((i, S_SHOOT))
        else:
            out.append((i, (rng.randrange(3)) * 3 + rng.choice((0, 1, 1, 2))))
    return message(out, S_FMT)


def starwar():
    rng = random.Random(2026)

    def play(set_, n, seed=0, flags=0, shoot=0.3):
        return match(set_, seed, [[ship_orders(rng, set_, p, shoot) for p in range(4)]
                                  for _ in range(n)], flags)

    seeds = {"empty_orders": match(S_DEFAULT, 0, [[message([], S_FMT)] * 4])}
    seeds["valid_orders"] = play(S_DEFAULT, 10)
    seeds.update(limits(lambda i: (i, rng.randrange(10)),
                        lambda p: fleet(S_DEFAULT, p), S_FMT, S_DEFAULT))
    seeds["crowded"] = play(S_CROWDED, 20, seed=1)
    seeds["short_match"] = play(S_SHORT, 4, seed=2)
    seeds["full_board_twice"] = play(S_FULL, 1, flags=TWICE)
    seeds["missiles"] = play(S_MISSILES, 10, seed=1, shoot=0.8)
    seeds["map"] = play(S_MAP, 15, seed=3)
    seeds["round_statuses"] = statuses(S_ROUND, 0, 10, lambda p: ship_orders(rng, S_ROUND, p))
    return seeds


def frames():
    def frame(payload):
        return struct.pack("<I", len(payload)) + payload

    def head(max_in, burst):
        return struct.pack("<HB", max_in, burst - 1)

    msg = orders([(0, 1), (1, 8)])
    return {
        "hello_orders": head(3005, 256) + frame(b"Bot") + frame(msg) + frame(b""),
        "byte_by_byte": head(64, 1) + frame(b"hello") + frame(b"") + frame(bytes(64)),
        "oversize": head(64, 7) + frame(b"ok") + struct.pack("<I", 65) + bytes(65),
        "huge_header": head(3005, 3) + b"\xff\xff\xff\xff" + bytes(10),
        "truncated": head(100, 5) + struct.pack("<I", 10) + b"12345",
        "exact_max": head(100, 33) + frame(bytes(range(100))) + frame(bytes(101)),
    }


# The parameter sets of fuzz_blitz_orders.c, by index, with their sites
# (2 players: the generated maps keep the asked size or lose a column).
B_DEFAULT, B_SMALL, B_SHORT, B_LARGEST, B_FIXED = range(5)
B_SITES = {B_DEFAULT: 900, B_SMALL: 64, B_SHORT: 120, B_LARGEST: 4096, B_FIXED: 12}
B_FMT = "<HB"


def blitz():
    rng = random.Random(2018)

    def every_site(set_):
        return orders_any([(s, rng.randrange(5)) for s in range(B_SITES[set_])])

    def orders_any(pairs):
        return message(pairs, B_FMT)

    def play(set_, n, seed=0, flags=0):
        return match(set_, seed, [[every_site(set_), every_site(set_)] for _ in range(n)], flags)

    over = orders_any([(0, 0)] * 901)
    seeds = {
        "default": play(B_DEFAULT, 6),
        "small_contact": play(B_SMALL, 25, seed=1),
        "short_match": play(B_SHORT, 4, seed=2),
        "largest_twice": play(B_LARGEST, 1, flags=TWICE),
        "fixed_early_end": play(B_FIXED, 8),
        "orders_901": bytes([B_DEFAULT, 0]) + chunk(0, over) + chunk(1, every_site(B_DEFAULT), RESOLVE),
        "split_over_limit": bytes([B_SMALL, 0]) + chunk(0, orders_any([(1, 1)] * 40))
        + chunk(0, orders_any([(2, 2)] * 25)) + chunk(1, b"", RESOLVE),
        "malformed": bytes([B_FIXED, 0]) + chunk(0, b"\x01") + chunk(1, orders_any([(1, 1)]) + b"\x00", RESOLVE),
        "statuses": bytes([B_SMALL, 3]) + chunk(0, every_site(B_SMALL), STATUS_SHARE | (2 << 5))
        + chunk(1, every_site(B_SMALL), STATUS_FROZEN | RESOLVE)
        + chunk(0, every_site(B_SMALL), STATUS_ODD | RESOLVE),
    }
    return seeds


def write(folder, seeds):
    path = os.path.join(HERE, "corpus", folder)
    os.makedirs(path, exist_ok=True)
    for name, data in seeds.items():
        with open(os.path.join(path, name), "wb") as f:
            f.write(data)


write("dominator", dominator())
write("ants", ants())
write("starwar", starwar())
write("frames", frames())
write("blitz", blitz())
