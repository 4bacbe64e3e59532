#!/usr/bin/env python3
"""make_seeds.py - writes the seed corpora of tests/fuzz/ (committed files;
run again only when an input layout changes: python3 tests/fuzz/make_seeds.py).

Seeds give libFuzzer the shapes a mutation rarely stumbles on by itself:
well-formed orders for every unit of a player, the 1000-order boundary, each
parameter set, frames split byte by byte.  The layouts are described at the
top of fuzz_dominator_orders.c and fuzz_frames.c.
"""
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))

# The parameter sets of fuzz_dominator_orders.c, by index, with the units
# each player has (ids are given player by player, so player p owns ids
# p * units .. p * units + units - 1).
DEFAULT, CROWDED, SHORT, FULL, WITCHES, FIXED = range(6)
UNITS = {DEFAULT: 32, CROWDED: 28, SHORT: 7, FULL: 256, WITCHES: 100, FIXED: 18}

RESOLVE = 4           # ctl bit: resolve the round after this message
STATUS_SHARE = 1 << 3  # ctl bits 3-4: a CPU share of (bits 5-7) / 4
STATUS_ODD = 2 << 3    # NaN, infinity, huge, -0
STATUS_FROZEN = 3 << 3


def orders(pairs, count=None):
    """An orders message: u16 count, then (u16 id, u8 direction) each."""
    n = len(pairs) if count is None else count
    return struct.pack("<H", n) + b"".join(struct.pack("<HB", i, d) for i, d in pairs)


def chunk(player, payload, ctl=0):
    return bytes([player | ctl]) + struct.pack("<H", len(payload)) + payload


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
    status = bytes([FIXED, 0])
    for r in range(10):
        for p in range(4):
            ctl = RESOLVE if p == 3 else 0
            if p == 1 and r == 3:
                ctl |= STATUS_FROZEN
            elif p == 2:
                ctl |= STATUS_ODD | (r % 4) << 5
            else:
                ctl |= STATUS_SHARE | (r % 8) << 5
            status += chunk(p, orders(all_units(rng, FIXED, p)), ctl)
    seeds["fixed_statuses"] = status
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


def write(folder, seeds):
    path = os.path.join(HERE, "corpus", folder)
    os.makedirs(path, exist_ok=True)
    for name, data in seeds.items():
        with open(os.path.join(path, name), "wb") as f:
            f.write(data)


write("dominator", dominator())
write("frames", frames())
