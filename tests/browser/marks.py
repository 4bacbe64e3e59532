#!/usr/bin/env python3
"""Debug marks and CPU per round in the replay viewer (headless Chromium,
driven through the DevTools protocol, tests/browser/cdp.py).

Plays a Dominator match where seat 1 draws a dot, a line and a text every
round, opens its page at round 10, and checks: nothing of the marks is
drawn until the player's box is ticked; ticked, the three marks are drawn
(the dot's pixel has its colour); unticked, they are gone; a player that
drew nothing has no box; the CPU plot under the board is drawn.  Writes a
screenshot with the marks on to build/screenshots/viewer-debug-marks.png.

usage: tests/browser/marks.py [--judge build/judge] [--out build/browser]
                              [--shots build/screenshots]
Ends with "N passed, N failed"; exit status 1 when any failed.
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser  # noqa: E402
from run import Suite  # noqa: E402

DRAWER = """#include "dominator.h"
PLAYER_NAME(Drawer);
void play(void)
{
	draw_dot(pos(5, 5), 0xff0000);
	draw_line(pos(0, 0), pos(0, 4), 0x00aa00);
	draw_text(pos(8, 3), 0x0000ff, "go");
}
"""


def play(judge, out):
    path = os.path.join(out, "AIDrawer.c")
    with open(path, "w") as f:
        f.write(DRAWER)
    page = os.path.join(out, "marks.html")
    subprocess.run([judge, "play", "dominator", "Demo", path, "Demo", "Demo", "-s", "5",
                    "--html", page], check=True, capture_output=True)
    return page


def toggle(b, seat):
    return b.eval("(() => { const box = document.querySelector("
                  "'.debug-toggle input[data-seat=\"%d\"]'); if (!box) return false;"
                  " box.click(); return true; })()" % seat)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--judge", default="build/judge")
    ap.add_argument("--out", default="build/browser")
    ap.add_argument("--shots", default="build/screenshots")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    os.makedirs(a.shots, exist_ok=True)
    t = Suite()
    page = play(a.judge, a.out)
    b = Browser(window="1400,950")
    try:
        ready = b.goto("file://%s#round=10" % os.path.abspath(page),
                       ready="document.getElementById('state').textContent.length > 0")
        t.check("the page is up", ready)
        t.check("no box for players that drew nothing",
                b.eval("[...document.querySelectorAll('.debug-toggle input')]"
                       ".map((e) => e.dataset.seat).join()") == "1")
        t.check("no marks before the box is ticked", b.eval("Viewer.drawnMarks().length") == 0)
        t.check("the box is there", toggle(b, 1))
        drawn = b.eval("Viewer.drawnMarks()") or []
        kinds = sorted(d["kind"] for d in drawn)
        t.check("ticked: the dot, the line and the text are drawn", kinds == ["dot", "line", "text"],
                str(drawn))
        dot = next((d for d in drawn if d["kind"] == "dot"), {})
        t.check("the dot's pixel has its colour", dot.get("got") == "#ff0000", str(dot))
        b.screenshot(os.path.join(a.shots, "viewer-debug-marks.png"))
        cpu = b.eval("(() => { const c = document.getElementById('cpu');"
                     " const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
                     " let ink = 0; for (let i = 3; i < d.length; i += 4) ink += d[i] > 0;"
                     " return { hidden: c.hidden, h: c.clientHeight, ink }; })()")
        t.check("the CPU plot is under the board", cpu and not cpu["hidden"] and cpu["h"] > 40
                and cpu["ink"] > 200, str(cpu))
        toggle(b, 1)
        t.check("unticked: the marks are gone", b.eval("Viewer.drawnMarks().length") == 0)
        t.check("no error in the page", not b.errors, str(b.errors))
    finally:
        b.close()
    print("browser tests (debug marks): %d passed, %d failed" % (t.passed, t.failed))
    return 1 if t.failed else 0


if __name__ == "__main__":
    sys.exit(main())
