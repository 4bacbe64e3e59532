#!/usr/bin/env python3
"""The replay viewer in a real browser (headless Chromium).

For every game: plays a match with `judge play ... -o FILE --html FILE`,
opens the page at a few rounds (the fragment #round=N makes the page write
what it shows into <pre id="state">, read back with --dump-dom) and checks
that the page loads without an error, the board is drawn, the state at
round N agrees with the replay (the units and cells round N changed, the
scores, the units' colours on the canvas, and the same state replayed from
the start without keyframes), and the score plot ends at the final scores.
A player frozen mid-match must show on the timeline with its round and
reason; names, labels and reasons full of markup (a replay edited, its page
written by build/viewer-page) must show as text and run nothing.
Writes one screenshot per game at round 1 and at the last round.

usage: tests/browser/run.py [--judge build/judge] [--out build/browser]
                            [--shots build/screenshots]
Ends with "N passed, N failed"; exit status 1 when any failed.
"""
import argparse
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Every game of games/LIST (scripts/games) is checked; a game whose rounds
# are not the generic checks' (AIC2018: units acting one by one) has its own.
GAMES = subprocess.run(["scripts/games"], check=True, stdout=subprocess.PIPE,
                       text=True).stdout.split()
HOSTILE = "</script><img src=x onerror=alert(1)>"
WINDOW = "1400,950"
START_IS_RIGHT = False
BLITZ = {}  # id(replay) -> its BlitzMap, for the rounds checked in order


class Suite:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print("FAIL %s%s" % (name, ": " + detail if detail else ""))
        return ok


def chromium(url, *args):
    """Runs headless Chromium on url with its own profile; its stdout."""
    with tempfile.TemporaryDirectory(prefix="viewer-test-") as profile:
        cmd = ["chromium", "--headless", "--no-sandbox", "--disable-gpu",
               "--hide-scrollbars", "--no-first-run", "--user-data-dir=" + profile,
               "--window-size=" + WINDOW, "--virtual-time-budget=15000", *args, url]
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        return run.stdout


def page_state(page, fragment):
    """What the page at page#fragment wrote into <pre id="state">."""
    dom = chromium("file://%s#%s" % (os.path.abspath(page), fragment), "--dump-dom")
    m = re.search(r'<pre id="state"[^>]*>(.*?)</pre>', dom, re.S)
    if not m or not m.group(1).strip():
        return {"errors": ["the page wrote no state"], "dom": dom[-2000:]}
    state = json.loads(html.unescape(m.group(1)))
    state["dom"] = dom
    return state


def play(judge, out, game, players, seed, extra=()):
    base = os.path.join(out, game if not extra else game + "-" + extra[0])
    cmd = [judge, "play", game, *players, "-s", str(seed), "-o", base + ".json",
           "--html", base + ".html", *extra[1:]]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit("judge play failed: %s\n%s" % (" ".join(cmd), run.stderr))
    with open(base + ".json") as f:
        return base + ".html", json.load(f)


# ---- what round N changed, per game -------------------------------------

def units_by_id(state):
    return {u[0]: u for u in state.get("units") or []}


def changed_dominator(frame, units, board):
    """(what, expected, shown) for each unit and cell the round names."""
    out = []
    for uid, row, col, health, owner in frame.get("units", []):
        u = units.get(uid)
        out.append(("unit %d" % uid, [owner, row, col, health], u and [u[2], u[3], u[4], u[5]]))
    h = frame.get("health", [])
    for i in range(0, len(h) - 1, 2):
        u = units.get(h[i])
        out.append(("health of unit %d" % h[i], h[i + 1], u and u[5]))
    for row, col, owner in frame.get("cells", []):
        out.append(("cell %d,%d" % (row, col), str(owner), board[row][col]))
    return out


def changed_ants(frame, units, board):
    out = []
    dead = set(frame.get("dead", []))
    for uid, row, col in frame.get("moved", []):
        u = units.get(uid)
        if uid not in dead:
            out.append(("ant %d" % uid, [row, col], u and [u[3], u[4]]))
    for uid, typ, player, row, col in frame.get("born", []):
        u = units.get(uid)
        out.append(("newborn %d" % uid, [typ, player, row, col], u and u[1:5]))
    for uid in dead:
        out.append(("dead ant %d" % uid, None, units.get(uid)))
    for row, col, bonus in frame.get("food", []):
        out.append(("food %d,%d" % (row, col), "." if bonus < 0 else str(bonus), board[row][col]))
    return out


def changed_starwar(frame, units, board):
    out = []
    s = frame.get("ships", [])
    for i in range(0, len(s) - 4, 5):
        uid, alive, row, col, missiles = s[i:i + 5]
        u = units.get(uid)
        want = [alive, row, col, missiles] if alive else [0]
        out.append(("ship %d" % uid, want, u and (u[2:6] if alive else [u[2]])))
    c = frame.get("cells", [])
    for i in range(0, len(c) - 2, 3):
        row, col, kind = c[i:i + 3]
        out.append(("cell %d,%d" % (row, col), ".XPMS*"[kind], board[row][col]))
    return out


CHANGED = {"dominator": changed_dominator, "ants": changed_ants, "starwar": changed_starwar}


def round_scores(replay, n):
    """The scores after round n; Blitz's rounds give each player's land."""
    if not n:
        return [0] * len(replay["players"])
    frame = replay["rounds"][n - 1]
    for key in ("score", "land", "p"):  # AIC2018's rounds give each team's VP
        if key in frame:
            return frame[key]
    return None


# ---- Blitz: the rules again, to know each round's map ----------------------

class BlitzMap:
    """Blitz2018's map after each round, resolved from the replay's moves as
    games/blitz/engine/rules.c does (written apart from the viewer's)."""

    def __init__(self, replay):
        st = replay["start"]
        p = st["params"]
        self.w, self.h, self.players, self.fog = p["width"], p["height"], p["players"], p["fog"]
        self.n = self.w * self.h
        hexes = lambda t: [int(t[2 * i:2 * i + 2], 16) for i in range(self.n)]
        self.prod, self.strength = hexes(st["production"]), hexes(st["strength"])
        self.owner = [int(c) for c in st["owner"]]
        self.frozen = {}
        for seat, rnd, *_ in replay["result"].get("frozen", []):
            self.frozen.setdefault(max(1, rnd + 1), []).append(seat)
        self.rounds, self.done = replay["rounds"], 0

    def near(self, i, d):
        x, y = i % self.w, i // self.w
        dx, dy = ((0, 0), (0, -1), (1, 0), (0, 1), (-1, 0))[d]
        return (y + dy) % self.h * self.w + (x + dx) % self.w

    def moves(self, text):
        dirs, site, k = [0] * self.n, 0, 0
        for c in text:
            if c.isdigit():
                k = k * 10 + int(c)
            else:
                site += k
                dirs[site], site, k = "nesw".index(c) + 1, site + 1, 0
        return dirs

    def turn(self, frame):
        self.done += 1
        for seat in self.frozen.get(self.done, []):
            self.owner = [0 if o == seat + 1 else o for o in self.owner]
        dirs = self.moves(frame["moves"])
        piece = [dict() for _ in range(self.players)]
        for i in range(self.n):
            if self.owner[i]:
                mine = piece[self.owner[i] - 1]
                to, add = (i, self.strength[i] + self.prod[i]) if not dirs[i] else (self.near(i, dirs[i]), self.strength[i])
                mine[to] = min(255, mine.get(to, 0) + add)
                mine.setdefault(i, 0)
                self.owner[i], self.strength[i] = 0, 0
        total = [sum(pc.get(i, 0) for pc in piece) for i in range(self.n)]
        count = [sum(i in pc for pc in piece) for i in range(self.n)]
        left, map_hurt = [], [0] * self.n
        for pc in piece:
            out = {}
            for i, v in pc.items():
                around = [self.near(i, d) for d in range(5)]
                damage = sum(total[j] - pc.get(j, 0) for j in around)
                enemies = sum(count[j] - (j in pc) for j in around)
                if self.strength[i]:
                    damage, enemies = damage + self.strength[i], enemies + 1
                    map_hurt[i] += v
                if not enemies or damage < v:
                    out[i] = v - damage if enemies else v
            left.append(out)
        self.strength = [max(0, s - h) for s, h in zip(self.strength, map_hurt)]
        for p, out in enumerate(left):
            for i, v in out.items():
                self.owner[i], self.strength[i] = p + 1, v

    def at(self, n):
        """The map after round n (rounds are only ever asked in order)."""
        while self.done < n:
            self.turn(self.rounds[self.done])
        return self

    def board(self, seen=None):
        return ["".join("?" if seen is not None and i not in seen else str(self.owner[i])
                        for i in range(r * self.w, (r + 1) * self.w)) for r in range(self.h)]

    def seen_by(self, k):
        """Player k's sites and every site within the fog radius of one."""
        r, seen = self.fog, set()
        gap = lambda a, b, m: min(abs(a - b), m - abs(a - b))
        mine = [i for i in range(self.n) if self.owner[i] == k + 1]
        for j in range(self.n):
            if any(gap(i % self.w, j % self.w, self.w) ** 2 + gap(i // self.w, j // self.w, self.h) ** 2
                   <= r * r for i in mine):
                seen.add(j)
        return seen


def check_blitz_round(t, name, st, replay, n, sim):
    """The owners the page shows are the engine's: the sites each player
    holds are the round's recorded land, and every owner is the rules'."""
    want = sim.at(n).board()
    held = [sum(line.count(str(p + 1)) for line in want) for p in range(sim.players)]
    t.check(name + ": sites held = the recorded land", st["counts"] == (round_scores(replay, n) if n else held),
            "%s, land %s" % (st["counts"], round_scores(replay, n)))
    wrong = [(r, c) for r in range(sim.h) for c in range(sim.w) if st["board"][r][c] != want[r][c]]
    t.check(name + ": every site's owner as the rules give it", not wrong, str(wrong[:5]))
    strengths = {u[0]: u[2] for u in st["units"]}
    bad = [i for i in strengths if strengths[i] != sim.strength[i]]
    t.check(name + ": every piece's strength as the rules give it", not bad, str(bad[:5]))


def check_blitz_fog(t, page, replay, sim, n, k):
    """Player k's view at round n: what the engine's fog shows, no more."""
    name = "blitz round %d, player %d's view" % (n, k)
    full = page_state(page, "round=%d" % n)
    st = page_state(page, "round=%d&fog=%d" % (n, k))
    if not t.check(name + ": no error", not st.get("errors"), str(st.get("errors"))):
        return
    t.check(name + ": the view is player %d's" % k, st.get("fog") == k, str(st.get("fog")))
    menu = re.search(r'<select id="fog">(.*?)</select>', st["dom"], re.S)
    views = re.findall(r'<option value="(-?\d+)"', menu.group(1)) if menu else []
    t.check(name + ": the Show menu offers the full board and each player's view",
            views == [str(v) for v in range(-1, len(replay["players"]))], str(views))
    seen = sim.at(n).seen_by(k)
    want = sim.board(seen)
    t.check(name + ": nothing beyond the fog radius (%d sites in sight of %d)" % (len(seen), sim.n),
            st["board"] == want and 0 < len(seen) < sim.n,
            "first differing row %s" % next((r for r in range(sim.h) if st["board"][r] != want[r]), None))
    t.check(name + ": drawn otherwise than the full board", st["canvas"]["sum"] != full["canvas"]["sum"])
    bad = [p for p in st["pixels"] if p["got"] != p["expect"]]
    t.check(name + ": fogged and seen sites drawn as such", any(p["what"].startswith("fogged") for p in st["pixels"])
            and not bad, str(bad[:3]))


def check_blitz(t, judge, out, page, replay):
    """Fog views, and a 6-player match (frozen player included) replayed
    without a disagreement between the viewer and the engine."""
    sim = BlitzMap(replay)
    last = len(replay["rounds"])
    for turn, n in enumerate((1, 40, last - 1)):
        alive = [p for p, held in enumerate(round_scores(replay, n)) if held]
        check_blitz_fog(t, page, replay, sim, n, alive[turn % len(alive)])
    os.makedirs(os.path.join(out, "blitz"), exist_ok=True)
    wide = os.path.join(out, "blitz", "wide.cnf")
    with open(wide, "w") as f:
        f.write("width 40\nheight 24\n")
    six_page, six = play(judge, out, "blitz", ["Demo", "Demo", "Dummy", "Null", "Demo", spinner_blitz(out)], 7,
                         ("six", "-i", wide))
    p = six["start"]["params"]
    t.check("blitz, 6 players: a map wider than high", p["width"] > p["height"], str(p))
    st = page_state(six_page, "round=last")
    t.check("blitz, 6 players: no error at the last round", not st.get("errors"), str(st.get("errors")))
    t.check("blitz, 6 players: the spinner frozen and marked", len(st.get("marks") or []) == 1, str(st.get("marks")))
    check_blitz_round(t, "blitz, 6 players, last round", st, six, len(six["rounds"]), BlitzMap(six))
    t.check("blitz, 6 players: the plot ends at the final land", st.get("plotLast") == six["result"]["scores"])


# ---- the checks -----------------------------------------------------------

def start_is_right(replay):
    """Replays that record each round's orders start before round 1; the
    older ones started after the last round."""
    return START_IS_RIGHT or all("orders" in r for r in replay["rounds"])


def check_drawn(t, name, st, replay, n, scores_label, owner):
    """What every game's page owes at round n: no error, that round shown
    with the replay's scores, the same state by a keyframe seek as from the
    start, a board drawn and units in their owner's colour.  False (after
    the one failed check) when the page reported an error."""
    if not t.check(name + ": no error", not st.get("errors"), str(st.get("errors"))):
        return False
    t.check(name + ": shows round %d" % n, st["round"] == n, str(st["round"]))
    want = round_scores(replay, n)
    t.check(name + ": " + scores_label, st["scores"] == want, "%s, replay %s" % (st["scores"], want))
    t.check(name + ": keyframe seek = replay from the start", st["digest"] == st["fromStart"])
    t.check(name + ": board drawn", st["canvas"]["colours"] > 5, str(st["canvas"]))
    bad = [p for p in st["pixels"] if p["got"] != p["expect"]]
    t.check(name + ": units drawn in their %s's colour" % owner, st["pixels"] and not bad, str(bad))
    return True


def check_round(t, game, page, replay, n):
    name = "%s round %d" % (game, n)
    st = page_state(page, "round=%d&check" % n)
    if not check_drawn(t, name, st, replay, n, "scores", "player"):
        return st
    rounds = replay["rounds"]
    if game == "blitz":
        check_blitz_round(t, name, st, replay, n, BLITZ[id(replay)])
    elif n and start_is_right(replay):
        diffs = CHANGED[game](rounds[n - 1], units_by_id(st), st["board"])
        wrong = [d for d in diffs if d[1] != d[2]]
        t.check(name + ": what the round changed (%d items)" % len(diffs), not wrong, str(wrong[:3]))
    # Dominator scores each colour's cells, Ants each colony's ants, after
    # every round.
    if n and game in ("dominator", "ants") and start_is_right(replay):
        delta = [a - b for a, b in zip(rounds[n - 1]["score"], rounds[n - 2]["score"] if n > 1 else [0] * 4)]
        t.check(name + ": counts agree with the score", st["counts"] == delta,
                "%s, score grew by %s" % (st["counts"], delta))
    return st


def check_game(t, game, page, replay, shots):
    last = len(replay["rounds"])
    st = check_round(t, game, page, replay, 0)
    names = [p["name"] for p in replay["players"]]
    t.check(game + ": player names", st.get("names") == names, str(st.get("names")))
    for n in sorted({1, 2, 49, 50, 51, 137 % last, last}):
        st = check_round(t, game, page, replay, n)
    for keys, want in (("End", last), ("Home", 0), ("ArrowRight,ArrowRight", 12),
                       ("Shift+ArrowRight", 20), ("Shift+ArrowLeft,ArrowLeft", 0)):
        shown = page_state(page, "round=10&keys=" + keys).get("round")
        t.check("%s keys %s from round 10" % (game, keys), shown == want, "round %s" % shown)
    final = replay["result"]["scores"]
    t.check(game + ": the score plot ends at the final scores", st.get("plotLast") == final,
            "%s, result %s" % (st.get("plotLast"), final))
    for label, frag in (("round1", "round=1"), ("last", "round=last")):
        png = os.path.join(shots, "%s-%s.png" % (game, label))
        if os.path.exists(png):
            os.unlink(png)
        chromium("file://%s#%s" % (os.path.abspath(page), frag), "--screenshot=" + png)
        t.check("%s screenshot at %s" % (game, label), os.path.getsize(png) > 10000 if os.path.exists(png) else False)


def spinner_blitz(out):
    """A Blitz player that spins in its 21st turn (frozen in round 20)."""
    path = os.path.join(out, "blitz", "AISpinner.c")
    with open(path, "w") as f:
        f.write('#include "blitz.h"\nPLAYER_NAME(Spinner);\nvoid play(void)\n{\n'
                "\tif (current_turn() == 20)\n\t\tfor (volatile int i = 0;; i++)\n\t\t\t;\n}\n")
    return path


def check_aic2018(t, judge, out, shots):
    """AIC2018 (two teams, units acting one by one): each checked round is
    drawn without error, with its VP, the same whether reached by a jump or
    from the start, units in their team's colour."""
    page, replay = play(judge, out, "aic2018", ["Demo", "Dummy"], 5)
    last = len(replay["rounds"])
    names = [p["name"] for p in replay["players"]]
    for n in sorted({0, 1, 2, 50, last // 2, last}):
        name = "aic2018 round %d" % n
        st = page_state(page, "round=%d&check" % n)
        if not check_drawn(t, name, st, replay, n, "victory points", "team"):
            continue
        if n == 0:
            t.check("aic2018: team names", st.get("names") == names, str(st.get("names")))
        if n == last:
            final = replay["result"]["scores"]
            t.check("aic2018: the VP plot ends at the final VP", st.get("plotLast") == final,
                    "%s, result %s" % (st.get("plotLast"), final))
    png = os.path.join(shots, "aic2018-last.png")
    chromium("file://%s#round=last" % os.path.abspath(page), "--screenshot=" + png)
    t.check("aic2018 screenshot at the last round", os.path.exists(png) and os.path.getsize(png) > 10000)


def spinner(out):
    """A Dominator player that spins in round 20, so it is frozen there."""
    path = os.path.join(out, "AISpinner.c")
    with open(path, "w") as f:
        f.write('#include "dominator.h"\nPLAYER_NAME(Spinner);\n'
                "void play(void)\n{\n\tif (current_round() == 20)\n"
                "\t\tfor (volatile int i = 0;; i++)\n\t\t\t;\n}\n")
    return path


def check_frozen(t, judge, out):
    """`judge play --html` of a match where one player froze."""
    page, replay = play(judge, out, "dominator", ["Demo", "Demo", "Demo", spinner(out)], 3,
                        ("frozen", "--cpu", "300"))
    frozen = replay["result"]["frozen"]
    t.check("frozen: the spinner froze in round 20", frozen and frozen[0][:2] == [3, 20], str(frozen))
    st = page_state(page, "round=25")
    t.check("frozen: no error", not st.get("errors"), str(st.get("errors")))
    marks = st.get("marks") or []
    t.check("frozen: the timeline marks the round", len(marks) == 1 and "round 20" in marks[0], str(marks))
    t.check("frozen: the panel gives the round and the judge's reason",
            any("round 20" in f and "CPU" in f for f in st.get("frozen") or []), str(st.get("frozen")))
    return replay


def check_hostile(t, page_tool, out, replay):
    """Names, labels and reasons full of markup stay text.  The replay is
    cut to 30 rounds, small enough to be carried as plain JSON."""
    replay["rounds"] = replay["rounds"][:30]
    replay["result"]["scores"] = replay["rounds"][-1]["score"]
    for p in replay["players"]:
        p["name"], p["label"] = HOSTILE, HOSTILE + " label"
    replay["result"]["frozen"][0][3:] = [HOSTILE + " reason"]
    src, page = os.path.join(out, "hostile.json"), os.path.join(out, "hostile.html")
    with open(src, "w") as f:
        json.dump(replay, f)
    subprocess.run([page_tool, src, page], check=True)
    with open(page, encoding="utf-8") as f:
        text = f.read()
    t.check("hostile: a small replay is carried as plain JSON", 'data-encoding' not in text)
    t.check("hostile: the page never holds the markup", "<img" not in text and
            text.count("</script>") == text.count("<script"))
    st = page_state(page, "round=25")
    t.check("hostile: no error, no alert", not st.get("errors"), str(st.get("errors")))
    t.check("hostile: no image element", st.get("images") == 0, str(st.get("images")))
    t.check("hostile: names shown as text", st.get("names") == [HOSTILE] * 4, str(st.get("names")))
    t.check("hostile: labels shown as text", st.get("labels") == [HOSTILE + " label"] * 4, str(st.get("labels")))
    t.check("hostile: the reason shown as text", any(HOSTILE + " reason" in f for f in st.get("frozen") or []),
            str(st.get("frozen")))


def check_errors_show(t, page_tool, out, replay):
    """The "no error" checks mean something: an error does reach the state."""
    replay = dict(replay, game="nosuchgame")
    src, page = os.path.join(out, "unknown.json"), os.path.join(out, "unknown.html")
    with open(src, "w") as f:
        json.dump(replay, f)
    subprocess.run([page_tool, src, page], check=True)
    errors = page_state(page, "round=1").get("errors") or []
    t.check("an error is reported (a game the viewer does not know)",
            any("cannot draw the game" in e for e in errors), str(errors))


def check_big_seed(t, judge, out):
    """A 64-bit seed past 2**53 shows digit for digit (JSON numbers in
    JavaScript keep 53 bits): the seed shown must replay the same match."""
    seed = 2**62 + 12345
    page, _ = play(judge, out, "dominator", ["Null"] * 4, seed, ("bigseed",))
    dom = page_state(page, "round=0").get("dom", "")
    m = re.search(r'id="subtitle"[^>]*>seed (\d+)', dom)
    t.check("the viewer shows a 64-bit seed exactly", m and m.group(1) == str(seed),
            m.group(1) if m else dom[-500:])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--judge", default="build/judge")
    ap.add_argument("--out", default="build/browser")
    ap.add_argument("--shots", default="build/screenshots")
    ap.add_argument("--page", default="build/viewer-page")
    ap.add_argument("--start-is-right", action="store_true",
                    help="check what needs the replay's start to be the state before round 1"
                         " even when the replay records no orders")
    a = ap.parse_args()
    global START_IS_RIGHT
    START_IS_RIGHT = a.start_is_right
    if not shutil.which("chromium"):
        sys.exit("browser tests: chromium is not installed (run scripts/deps.sh as root)")
    os.makedirs(a.out, exist_ok=True)
    os.makedirs(a.shots, exist_ok=True)
    t = Suite()
    encodings = set()
    own_checks = {"aic2018": check_aic2018}
    for game in GAMES:
        if game in own_checks:
            own_checks[game](t, a.judge, a.out, a.shots)
            continue
        page, replay = play(a.judge, a.out, game, ["Demo", "Demo", "Dummy", "Demo"], 5)
        with open(page, encoding="utf-8") as f:
            encodings.add("gzip" if 'data-encoding="gzip-base64"' in f.read() else "plain")
        if game == "blitz":
            BLITZ[id(replay)] = BlitzMap(replay)
        check_game(t, game, page, replay, a.shots)
        if game == "blitz":
            check_blitz(t, a.judge, a.out, page, replay)
    t.check("a large replay is carried gzip-compressed", "gzip" in encodings, str(encodings))
    check_big_seed(t, a.judge, a.out)
    replay = check_frozen(t, a.judge, a.out)
    check_hostile(t, a.page, a.out, replay)
    check_errors_show(t, a.page, a.out, replay)
    if not start_is_right(replay):
        print("browser tests: the replays record no orders, so their start may be the state after"
              " the last round: the checks of what each round changed were left out")
    print("browser tests: %d passed, %d failed" % (t.passed, t.failed))
    return 1 if t.failed else 0


if __name__ == "__main__":
    sys.exit(main())
