#!/usr/bin/env python3
"""`judge serve`'s tournament pages in a real browser (headless Chromium over
the DevTools protocol, tests/browser/cdp.py), on tournaments the real worker
plays.

A store with seven Dominator students in two groups and four AIC2018 teams
(variants of the shipped players, qualified by the worker), then
`judge tournament` as an organiser runs it: an elimination of the seven down
to four, and a double elimination bracket of the four teams.  The bracket is
played to its end; the elimination is stopped after its first round (the
worker told to stop), so its page is live.  Checks, against
`judge tournament show --json` (the CLI's reading of the store): the list of
tournaments, linked from the top bar and the index; the elimination page draws every round with the right student
out, marks safe seats, shows every student in its group's standings, and,
once a worker plays on, redraws itself with the later rounds without a
reload; the bracket page names the champion and draws every series, each
played one linked to its match; no console error, no exception, no failed
load anywhere.  Screenshots of both pages go to --shots.

usage: tests/browser/tournament.py [--judge build/judge] [--shots build/screenshots]
Ends with "N passed, N failed"; exit status 1 when any failed.
"""
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser  # noqa: E402
from run import Suite  # noqa: E402
from serve import page_clean, page_tests_args, run, start_server  # noqa: E402

ENV = dict(os.environ, JUDGE_CONFIG="config/demo.json")
STUDENTS = ["frodo", "sam", "merry", "pippin", "bilbo", "rosie", "lobelia"]
TEAMS = ["ravens", "wolves", "owls", "foxes"]


def check(t, name, ok, detail=""):
    return t.check(name, bool(ok), detail if isinstance(detail, str) else json.dumps(detail))


def player(work, game, shipped, name):
    """A shipped player renamed (its file differs, so it is its own player)."""
    with open("games/%s/players/AI%s.c" % (game, shipped)) as f:
        src = re.sub(r"PLAYER_NAME\(\w+\)", "PLAYER_NAME(%s)" % name, f.read())
    path = os.path.join(work, "AI%s.c" % name)
    with open(path, "w") as f:
        f.write(src + "\n/* %s */\n" % name)
    return path


def organise(judge, work, queue):
    """Players qualified; the two tournaments made, their entrants picked."""
    for i, who in enumerate(STUDENTS):
        run(judge, "submit", player(work, "dominator", "Demo" if i % 3 else "Dummy", "P" + who.title()),
            "--game", "dominator", "--author", who, "--queue", queue)
    for i, who in enumerate(TEAMS):
        run(judge, "submit", player(work, "aic2018", "Demo" if i % 2 else "Dummy", "T" + who.title()),
            "--game", "aic2018", "--author", who, "--queue", queue)
    run(judge + "-worker", "--queue", queue, "--exit-when-idle", "--ranked-matches", "0", env=ENV)
    specs = {"elim": {"phases": [{"kind": "elimination", "remain": 4}]},
             "finals": {"phases": [{"kind": "bracket", "best_of": 1, "double": True}]}}
    for name, spec in specs.items():
        path = os.path.join(work, name + ".json")
        with open(path, "w") as f:
            json.dump(spec, f)
        run(judge, "tournament", "create", name, "--game", "dominator" if name == "elim" else "aic2018",
            "--spec", path, "--seed", "7", "--queue", queue)
    roster = os.path.join(work, "roster.csv")
    with open(roster, "w") as f:
        f.write("".join("%s,%s\n" % (who, "A" if i % 2 else "B") for i, who in enumerate(STUDENTS)))
    run(judge, "tournament", "add", "elim", "--roster", roster, "--queue", queue)
    for who in TEAMS:
        run(judge, "tournament", "add", "finals", who, "--queue", queue)
    db = sqlite3.connect(queue)
    for name, who, game in [("elim", s, "dominator") for s in STUDENTS] + [("finals", t, "aic2018") for t in TEAMS]:
        sub = db.execute("SELECT id FROM submissions WHERE author = ? AND game = ? AND state = 'qualified'",
                         (who, game)).fetchone()
        if not sub:
            sys.exit("tournament browser tests: %s's player did not qualify" % who)
        run(judge, "tournament", "pick", name, who, str(sub[0]), "--queue", queue)
    db.close()


def show(judge, queue, name):
    return json.loads(run(judge, "tournament", "show", name, "--json", "--queue", queue))


def rounds_decided(queue):
    db = sqlite3.connect(queue)
    n = db.execute("SELECT COUNT(*) FROM entrants e JOIN tournaments t ON t.id = e.tournament_id"
                   " WHERE t.name = 'elim' AND e.out_round >= 0").fetchone()[0]
    db.close()
    return n


def played_matches(queue):
    db = sqlite3.connect(queue)
    ids = db.execute("SELECT tm.match_id FROM tournament_matches tm JOIN tournaments t ON t.id = tm.tournament_id"
                     " WHERE t.name = 'elim' AND tm.match_id IS NOT NULL").fetchall()
    db.close()
    return sorted("#%d" % i for (i,) in ids)


def stop(proc):
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()


def check_list(t, b, base):
    b.goto(base + "/tournaments")
    names = b.eval("[...document.querySelectorAll('#tournaments tbody a')].map(a => a.textContent)")
    check(t, "list: both tournaments, linked", sorted(names or []) == ["elim", "finals"], names)
    check(t, "list: reached from the top bar", b.eval("!!document.querySelector('header a[href=\"/tournaments\"]')"))
    page_clean(t, b, "list")
    b.goto(base + "/")
    linked = b.eval("[...document.querySelectorAll('#tournament-links a')].map(a => a.textContent)")
    check(t, "index: links every tournament", sorted(linked or []) == ["elim", "finals"], linked)
    page_clean(t, b, "index")


def out_names(b):
    """Each drawn round's summary, oldest first."""
    return b.eval("[...document.querySelectorAll('details.round summary')].map(s => s.textContent).reverse()")


def check_elimination(t, b, base, judge, queue, shots):
    truth = show(judge, queue, "elim")
    b.goto(base + "/tournaments/elim")
    rounds = out_names(b) or []
    check(t, "elimination: round 1 drawn, round 2 under way", len(rounds) == 2, rounds)
    out = [e for e in truth["entrants"] if e["out_round"] == 0]
    check(t, "elimination: round 1 names who is out", len(out) == 1 and rounds and
            rounds[0].startswith("Round 1: " + out[0]["author"] + " is out"), rounds)
    check(t, "elimination: round 2 says it is under way", len(rounds) == 2 and "under way" in rounds[1], rounds)
    check(t, "elimination: safe seats are marked",
            (b.eval("document.querySelectorAll('details.round .badge.good').length") or 0) > 0)
    check(t, "elimination: the student out is marked in the match that decided",
            b.eval("document.querySelectorAll('details.round .badge.bad').length") >= 1)
    links = b.eval("[...document.querySelectorAll('details.round a[href^=\"/matches/\"]')].map(a => a.textContent)")
    check(t, "elimination: each played match links to its viewer", sorted(links or []) == played_matches(queue), links)
    standings = b.eval("[...document.querySelectorAll('#standings tbody tr td:nth-child(2)')].map(td => td.textContent)")
    check(t, "elimination: every student in the standings", sorted(standings or []) == sorted(STUDENTS), standings)
    groups = b.eval("[...document.querySelectorAll('#standings h3')].map(h => h.textContent)")
    check(t, "elimination: standings per group", groups == ["Group A", "Group B"], groups)
    b.screenshot(os.path.join(shots, "tournament-elimination.png"))
    page_clean(t, b, "elimination (live)")

    # A worker plays on: the page redraws itself until the phase is over.
    worker = subprocess.Popen([judge + "-worker", "--queue", queue], env=ENV,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        over = b.wait("document.querySelectorAll('details.round').length === 3 && "
                      "!document.querySelector('details.round summary').textContent.includes('under way')", 120)
    finally:
        stop(worker)
    check(t, "elimination: the page redrew itself with rounds 2 and 3", over)
    truth = show(judge, queue, "elim")
    rounds = out_names(b) or []
    for r in range(3):
        who = [e["author"] for e in truth["entrants"] if e["out_round"] == r]
        check(t, "elimination: round %d's student out" % (r + 1), len(rounds) == 3 and len(who) == 1 and
                rounds[r].startswith("Round %d: %s is out" % (r + 1, who[0])), (rounds, who))
    page_clean(t, b, "elimination (over)")


def check_bracket(t, b, base, judge, queue, shots):
    truth = show(judge, queue, "finals")
    b.goto(base + "/tournaments/finals")
    first = [e["author"] for e in truth["entrants"] if e["place"] == 1]
    champion = b.eval("document.getElementById('champion') && document.getElementById('champion').textContent")
    check(t, "bracket: the champion named", len(first) == 1 and champion == "Champion: " + first[0], (champion, first))
    series = b.eval("document.querySelectorAll('.series').length")
    check(t, "bracket: winners' 3, losers' 2, the grand final and its reset", series == 7, series)
    unplayed = b.eval("[...document.querySelectorAll('.series:not(.skipped)')].filter(s => !s.querySelector('a[href^=\"/matches/\"]')).length")
    check(t, "bracket: every series played links to its match", unplayed == 0, unplayed)
    sides = b.eval("[...document.querySelectorAll('.bracket .column')][0].textContent")
    check(t, "bracket: round 1 draws all four teams", all(team in (sides or "") for team in TEAMS), sides)
    b.screenshot(os.path.join(shots, "tournament-bracket.png"))
    page_clean(t, b, "bracket")


def main():
    a = page_tests_args("tournament")
    work = tempfile.mkdtemp(prefix="tournament-browser-")
    queue = os.path.join(work, "jobs.sqlite")
    organise(a.judge, work, queue)
    run(a.judge, "tournament", "start", "finals", "--queue", queue)
    run(a.judge + "-worker", "--queue", queue, "--exit-when-idle", "--ranked-matches", "0", env=ENV)
    run(a.judge, "tournament", "start", "elim", "--queue", queue)
    # The elimination's first round, then the worker stops: a live page.
    worker = subprocess.Popen([a.judge + "-worker", "--queue", queue, "--jobs", "1"], env=ENV,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while rounds_decided(queue) < 1 and time.time() < deadline:
        time.sleep(0.1)
    stop(worker)
    server, base = start_server(a.judge, queue)
    t = Suite()
    b = Browser()
    try:
        check_list(t, b, base)
        check_bracket(t, b, base, a.judge, queue, a.shots)
        check_elimination(t, b, base, a.judge, queue, a.shots)
    finally:
        b.close()
        stop(server)
        shutil.rmtree(work, ignore_errors=True)
    print("tournament browser tests: %d passed, %d failed" % (t.passed, t.failed))
    return 1 if t.failed else 0


if __name__ == "__main__":
    sys.exit(main())
