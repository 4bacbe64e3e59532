#!/usr/bin/env python3
"""A contestant's loop through `judge serve`'s pages in a real browser
(headless Chromium over the DevTools protocol, tests/browser/cdp.py).

A store with the shipped players uploaded by their authors, a contestant's
token, `judge serve` and a `judge-worker` playing the ladder.  The
contestant, Frodo, writes a player that draws a debug mark every round
and plays as Dummy every other round (so it loses to Dummies).  Checks:
the upload page names the file and refuses it for a game whose header it
does not include; two versions are uploaded and qualify; My submissions
opens on the current one; a challenge of three Dummies is played; the
match's replay shows Frodo's debug marks once his box is ticked; "only the
matches lost" keeps exactly the lost rows; his source downloads as the
file he sent; the two versions side by side show the changed line; the
player page marks where each version started on a plot with labelled axes
and links the opponents; an unknown address is a page, not JSON.
Screenshots of the parts of the pages that show each step go to --shots
(loop-*.png; docs/contestants.md shows them).

usage: tests/browser/loop.py [--judge build/judge] [--shots build/screenshots]
Ends with "N passed, N failed"; exit status 1 when any failed.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser  # noqa: E402
from run import Suite  # noqa: E402
from serve import (frame_eval, page_clean, page_tests_args, run, set_token,  # noqa: E402
                   start_server, stop_all)

ENV = dict(os.environ, JUDGE_CONFIG="config/demo.json")


def ladder(judge, queue):
    """The shipped players, each uploaded by an author of its own, and Frodo's token."""
    for p in ("Demo", "Dummy", "Null"):
        run(judge, "submit", "games/dominator/players/AI%s.c" % p, "--game", "dominator",
            "--author", "author_" + p, "--queue", queue)
    run(judge + "-worker", "--queue", queue, "--exit-when-idle", "--ranked-matches", "0", env=ENV)
    return run(judge, "token", "add", "--author", "frodo", "--queue", queue).strip()


def frodo(work, version):
    """Frodo's file: Dummy's play every other round, a red dot every round."""
    with open("games/dominator/players/AIDummy.c") as f:
        src = re.sub(r"PLAYER_NAME\(\w+\)", "PLAYER_NAME(Frodo)", f.read())
    src = src.replace("void play(void)", "static void dummy_play(void)") + (
        "\nvoid play(void)\n{\n\tdraw_dot(pos(3, 3), 0xff0000);\n"
        "\tif (current_round() %% 2 == 0)\n\t\tdummy_play();\n}\n/* version %d */\n" % version)
    path = os.path.join(work, "AIFrodo.c")
    with open(path, "w") as f:
        f.write(src)
    return path, src


def message(b):
    return b.eval("document.getElementById('message').textContent")


def api(b, path):
    """GET path with the page's token, as the page's script asks."""
    return b.eval("fetch(%s, { headers: { Authorization: 'Bearer ' + localStorage.getItem('judge.token') } })"
                  ".then(r => r.json())" % json.dumps(path))


def upload(t, b, base, path, version, shots):
    """Through the upload page, followed to its outcome: the submission's id."""
    b.goto(base + "/upload")
    b.set_file("#file", path)
    b.wait("/AIFrodo.c includes \"dominator.h\"/.test(document.getElementById('message').textContent)", 10)
    if version == 1:
        b.eval("document.getElementById('game').value = 'ants'")
        b.eval("document.getElementById('send').click()")
        said = b.wait("(m => /but the game chosen is/.test(m.textContent) && m.textContent)"
                      "(document.getElementById('message'))", 10)
        t.check("upload: a file for another game's header is refused, naming file and games",
                said and "AIFrodo.c" in said and "Dominator" in said and "Ants" in said, said)
        b.screenshot(os.path.join(shots, "loop-upload.png"), "main")
        b.eval("document.getElementById('game').value = 'dominator'")
    b.eval("document.getElementById('send').click()")
    said = b.wait("(m => /qualified/.test(m.textContent) && m.textContent)(document.getElementById('message'))", 240)
    t.check("upload: version %d qualifies, and the message names the file" % version,
            said and said.startswith("AIFrodo.c") and "not qualified" not in said, message(b))
    return int(re.search(r"[Ss]ubmission (\d+)", said or message(b)).group(1))


def rated(b, base, submission, timeout=300):
    """Waits until the ladder has rated submission at least once."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        p = api(b, "/api/players/Frodo?game=dominator")
        if any(h["submission"] == submission for h in (p or {}).get("history", [])):
            return True
        time.sleep(2)
    return False


def check_versions(t, b, base, work, shots):
    b.goto(base + "/")
    path, _ = frodo(work, 1)
    v1 = upload(t, b, base, path, 1, shots)
    t.check("ladder: version 1 plays ranked matches", rated(b, base, v1))
    path, src = frodo(work, 2)
    v2 = upload(t, b, base, path, 2, shots)
    t.check("ladder: version 2 plays ranked matches", rated(b, base, v2))
    page_clean(t, b, "upload")
    b.goto(base + "/submissions")
    title = b.wait("(h => h && h.textContent)(document.querySelector('#detail h2'))", 20)
    t.check("my submissions: opens on the current version", title and ("Submission %d:" % v2) in title, title)
    return v1, v2, src


def check_challenge(t, b, base, v2, shots):
    b.goto(base + "/submissions/%d" % v2)
    b.wait("!!document.getElementById('challenge-send')", 20)
    b.eval("document.getElementById('challenge-seats').value = 'Frodo, Dummy, Dummy, Dummy'")
    b.eval("document.getElementById('challenge-seeds').value = 2")
    b.eval("document.getElementById('challenge-send').click()")
    rows = "[...document.querySelectorAll('#my-matches tbody tr')].filter(r => /challenge/.test(r.textContent))"
    played = b.wait("%s.length >= 2" % rows, 240)
    t.check("challenge: two matches against Dummy are played and listed", played, message(b))
    names = b.eval("%s.map(r => r.querySelector('.opponents').textContent).join('; ')" % rows)
    t.check("challenge: its rows name the opponents", names and names.count("Dummy") >= 6, names)
    b.screenshot(os.path.join(shots, "loop-challenge.png"), "#challenge-box")
    return b.eval("Number(%s[0].querySelector('a').textContent.slice(1))" % rows)


def check_losses(t, b, shots):
    results = "[...document.querySelectorAll('#my-matches tbody .result')].map(e => e.textContent)"
    before = b.eval(results)
    t.check("losses: every match says won or lost", before and set(before) <= {"won", "lost"}, before)
    b.eval("document.getElementById('my-matches-losses').click()")
    after = b.eval(results)
    t.check("losses: the box keeps exactly the lost matches",
            after == [r for r in before if r == "lost"] and len(after) >= 1, (before, after))
    b.screenshot(os.path.join(shots, "loop-losses.png"), "#detail .matches .row, #my-matches thead,"
                 " #my-matches tbody tr:nth-child(-n+3)", 0.8)
    b.eval("document.getElementById('my-matches-losses').click()")


def downloaded(folder, name, timeout=20):
    path, deadline = os.path.join(folder, name), time.time() + timeout
    while time.time() < deadline and not os.path.exists(path):
        time.sleep(0.2)
    if not os.path.exists(path):
        return None
    time.sleep(0.5)  # written whole
    with open(path) as f:
        return f.read()


def check_source(t, b, src, v1, work, shots):
    link = b.wait("(a => a && a.download)(document.getElementById('download-source'))", 20)
    t.check("source: the download is named as the file was", link == "AIFrodo.c", link)
    folder = os.path.join(work, "downloads")
    os.makedirs(folder)
    b.call("Browser.setDownloadBehavior", behavior="allow", downloadPath=folder)
    b.eval("document.getElementById('download-source').click()")
    got = downloaded(folder, "AIFrodo.c")
    t.check("source: the file downloaded is the file sent", got == src, (got or "")[-80:])
    b.eval("(s => { s.value = '%d'; s.dispatchEvent(new Event('change')); })(document.getElementById('diff-with'))" % v1)
    said = b.wait("(p => p && p.textContent)(document.getElementById('diff-summary'))", 20)
    t.check("compare: the two versions differ in one line", said and said.startswith("2 lines differ"), said)
    old = b.eval("[...document.querySelectorAll('#diff .del')].map(e => e.textContent).join()")
    new = b.eval("[...document.querySelectorAll('#diff .add')].map(e => e.textContent).join()")
    t.check("compare: the old line left, the new right",
            "version 1" in (old or "") and "version 2" in (new or ""), (old, new))
    b.screenshot(os.path.join(shots, "loop-diff.png"), "#source-box")


def check_marks(t, b, base, match, shots):
    b.goto(base + "/matches/%d" % match)
    b.wait("document.getElementById('viewer') && document.getElementById('viewer').srcdoc.length > 1000", 20)
    seat = b.eval("[...document.querySelectorAll('#seats tbody tr')].findIndex(r => /Frodo/.test(r.textContent))")
    t.check("marks: Frodo's seat has a box", frame_eval(
        b, "!!document.querySelector('.debug-toggle input[data-seat=\"%d\"]')" % seat))
    t.check("marks: none drawn before the box is ticked", frame_eval(b, "Viewer.drawnMarks().length === 0"))
    drawn = frame_eval(b, "(() => { document.querySelector('.debug-toggle input[data-seat=\"%d\"]').click();"
                       " return Viewer.drawnMarks().filter(d => d.kind === 'dot').length; })()" % seat)
    t.check("marks: ticked, Frodo's dot is drawn", drawn and drawn >= 1, drawn)
    b.screenshot(os.path.join(shots, "loop-marks.png"), "#viewer", 0.6)
    page_clean(t, b, "match")


def check_player(t, b, base, shots):
    b.goto(base + "/players/Frodo?game=dominator")
    starts = b.eval("[...document.querySelectorAll('#plot .version-start text')].map(e => e.textContent)")
    t.check("player: the plot marks where each version started",
            starts and len(starts) == 2 and starts[0].startswith("v1") and starts[1].startswith("v2"), starts)
    labels = b.eval("[...document.querySelectorAll('#plot .axis-label')].map(e => e.textContent).join('; ')")
    t.check("player: the axes are labelled", labels and "rating" in labels and "rated games" in labels, labels)
    t.check("player: the opponents are links",
            b.eval("document.querySelectorAll('#matches .opponents a').length") > 0)
    t.check("player: mu and sigma are explained",
            "sigma how unsure" in b.eval("document.querySelector('.legend').textContent"))
    b.screenshot(os.path.join(shots, "loop-player.png"), "#plot, .legend")
    page_clean(t, b, "player")


def check_missing(t, b, base):
    b.goto(base + "/no/such/page")
    t.check("404: a page that says so, with the address",
            b.eval("document.querySelector('h1').textContent") == "No such page" and
            b.eval("document.getElementById('missing-path').textContent") == "/no/such/page")
    b.errors.clear()  # the 404 itself


def main():
    a = page_tests_args("loop")
    work = tempfile.mkdtemp(prefix="loop-browser-")
    queue = os.path.join(work, "jobs.sqlite")
    token = ladder(a.judge, queue)
    server, base = start_server(a.judge, queue)
    worker = subprocess.Popen([a.judge + "-worker", "--queue", queue], env=ENV,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t = Suite()
    b = Browser(window="1300,1000")
    try:
        b.goto(base + "/")
        set_token(b, token)
        v1, v2, src = check_versions(t, b, base, work, a.shots)
        match = check_challenge(t, b, base, v2, a.shots)
        check_losses(t, b, a.shots)
        check_source(t, b, src, v1, work, a.shots)
        check_marks(t, b, base, match, a.shots)
        check_player(t, b, base, a.shots)
        check_missing(t, b, base)
    finally:
        stop_all(b, work, worker, server)
    print("loop browser tests: %d passed, %d failed" % (t.passed, t.failed))
    return 1 if t.failed else 0


if __name__ == "__main__":
    sys.exit(main())
