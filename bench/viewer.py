#!/usr/bin/env python3
"""The replay viewer's speed: a 1000-round match of each course game, and a
50 x 50 Blitz2018 match of six players (as long as it lasts: the page
resolves every turn again), opened in headless Chromium straight at its last
round.

The page measures, with performance.now(), the time from the start of
loading to the last round drawn (decoding the replay, building the
keyframes, drawing), then the time of 200 seeks to rounds all over the
match, and writes them into its <pre id="state">.  The page is opened twice,
and the second time counts: the first includes the browser's own start
(printed too).  Chromium is driven over
its DevTools protocol on a pipe and runs in real time: its
--virtual-time-budget, which the tests use to wait for the page, stops the
page's clock once the page waits for the replay to inflate.  Goal: under
1 s to the last round.

usage: bench/viewer.py [JUDGE]   (default build/judge)
"""
import fcntl
import json
import os
import subprocess
import sys
import tempfile
import time

# BENCH_QUICK=1 (make bench-smoke): short matches and a few seeks, to see
# it still runs; the figures then mean nothing.
QUICK = os.environ.get("BENCH_QUICK", "0") not in ("", "0")
ROUNDS = 60 if QUICK else 1000
SEEKS = 10 if QUICK else 200
SIDE = 20 if QUICK else 50
FOUR = ["Demo", "Demo", "Dummy", "Demo"]
# The games other than the course games (games/LIST): players, parameters
# set over the game's defaults.  A game of the list found neither here nor
# among the course games is named and left out.
OTHER_GAMES = {"blitz": (["Demo", "Dummy"] * 3, {"width": SIDE, "height": SIDE})}
OUT = "build/bench-viewer"


class DevTools:
    """Chromium with --remote-debugging-pipe: commands on fd 3, replies on
    fd 4, each a JSON text ended by a NUL."""

    def __init__(self, profile):
        to_chrome, self.tx = os.pipe()
        self.rx, from_chrome = os.pipe()

        def fds():
            # Out of the way first: either pipe end may already be 3 or 4.
            a = fcntl.fcntl(to_chrome, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(from_chrome, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--hide-scrollbars", "--window-size=1400,950", "--user-data-dir=" + profile,
             "--remote-debugging-pipe", "about:blank"],
            preexec_fn=fds, pass_fds=(3, 4),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome)
        os.close(from_chrome)
        self.next_id = 0
        self.buf = b""

    def call(self, method, session=None, **params):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params}
        if session:
            msg["sessionId"] = session
        os.write(self.tx, json.dumps(msg).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})

    def _read(self):
        while b"\0" not in self.buf:
            chunk = os.read(self.rx, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed its DevTools pipe")
            self.buf += chunk
        text, self.buf = self.buf.split(b"\0", 1)
        return json.loads(text)

    def close(self):
        try:
            self.call("Browser.close")
        except RuntimeError:
            pass
        self.proc.wait(timeout=30)


def wait_state(dt, session):
    deadline = time.time() + 60
    while time.time() < deadline:
        got = dt.call("Runtime.evaluate", session, returnByValue=True,
                      expression="(document.getElementById('state') || {}).textContent || ''")
        text = got.get("result", {}).get("value", "")
        if text:
            return json.loads(text)
        time.sleep(0.05)
    return {"errors": ["the page wrote no state within 60 s"]}


def page_states(url):
    """What the page at url wrote into <pre id="state">, in real time: when
    the browser has just started, then opened again (a blank page between)."""
    with tempfile.TemporaryDirectory(prefix="viewer-bench-") as profile:
        dt = DevTools(profile)
        try:
            target = dt.call("Target.createTarget", url="about:blank")["targetId"]
            session = dt.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
            states = []
            for _ in range(2):
                dt.call("Page.navigate", session, url="about:blank")
                dt.call("Page.navigate", session, url=url)
                states.append(wait_state(dt, session))
            return states
        finally:
            dt.close()


def list_games(*kind):
    """The names of games/LIST (scripts/games), of one kind if given."""
    return subprocess.run(["scripts/games", *kind], check=True, stdout=subprocess.PIPE,
                          text=True).stdout.split()


def games_measured():
    """game: (players, parameters), in the order of games/LIST."""
    course = set(list_games("course"))
    measured = {}
    for game in list_games():
        if game in course:
            measured[game] = (FOUR, {"rounds": ROUNDS})
        elif game in OTHER_GAMES:
            measured[game] = OTHER_GAMES[game]
        else:
            print("viewer %s: no players and parameters set in bench/viewer.py, left out" % game)
    return measured


def main():
    judge = sys.argv[1] if len(sys.argv) > 1 else "build/judge"
    os.makedirs(OUT, exist_ok=True)
    failed = over = False
    for game, (players, params) in games_measured().items():
        base = os.path.join(OUT, game)
        with open("config/games/%s.cnf" % game) as f, open(base + ".cnf", "w") as g:
            for line in f:
                key = line.split(" ")[0]
                g.write("%s %d\n" % (key, params[key]) if key in params else line)
        subprocess.run([judge, "play", game, *players, "-s", "1",
                        "-i", base + ".cnf", "-o", base + ".json", "--html", base + ".html"],
                       check=True, stdout=subprocess.DEVNULL)
        with open(base + ".json") as f:
            rounds = len(json.load(f)["rounds"])
        cold, s = page_states("file://%s#round=last&seeks=%d" % (os.path.abspath(base + ".html"), SEEKS))
        bad = [x for x in (cold, s) if x.get("errors") or x.get("round") != rounds]
        if bad:
            print("viewer %s: the page failed: %s" % (game, bad[0].get("errors") or bad[0]))
            failed = True
            continue
        kb = lambda path: os.path.getsize(path) // 1024
        p = s["phases"]
        print("viewer %-9s %d rounds, replay %4d KB, page %4d KB: load to last round drawn %4d ms"
              " (script starts %d, replay read %d, keyframes built %d; %d ms in a browser just"
              " started); a seek to any round (%d tried) %.1f ms at most, %.1f ms on average"
              % (game, rounds, kb(base + ".json"), kb(base + ".html"), s["drawnMs"],
                 p["script"], p["read"], p["built"], cold["drawnMs"], SEEKS,
                 s["seeking"]["slowestMs"], s["seeking"]["meanMs"]))
        over |= s["drawnMs"] >= 1000
    print("viewer: OVER the 1 s goal" if over else "viewer: every game under the 1 s goal")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
