#!/usr/bin/env python3
"""`judge serve`'s pages in a real browser (headless Chromium over the
DevTools protocol, tests/browser/cdp.py).

A store with a small tournament (the shipped players, judged by a worker),
a contestant's token and an organiser's, a player and an author named
HOSTILE put straight into the store (the upload's name check refuses such
names, and the escaping is what is tested), then `judge serve` and a
`judge-worker` running.  Checks: a contestant uploads through the page with
a token and sees the compile error of a broken file, then the qualification
of a good one (whose stderr, markup, shows as text on my submissions
page), challenges Dummy from that page and sees the match in the list; the leaderboard, a player's page, a match page, my
submissions and the organisers' page render with no console error, no
uncaught exception, no failed load and no dialog; the replay viewer's
scripts run in the match page's frame (the page's policy names them by
hash); HOSTILE shows as text
everywhere and no element it names appears.  Screenshots of the leaderboard,
a match page and the played challenge go to --shots.

usage: tests/browser/serve.py [--judge build/judge] [--shots build/screenshots]
Ends with "N passed, N failed"; exit status 1 when any failed.
"""
import argparse
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
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser  # noqa: E402
from run import Suite  # noqa: E402

HOSTILE = "<img src=x onerror=alert(1)>"
# gcc quotes the line in error, markup and all: the compile log must show it as text.
BROKEN = ('#include "dominator.h"\n\nPLAYER_NAME(Broken);\n\n'
          'void play(void) { this is not C; } /* %s */\n' % HOSTILE)


def run(*cmd, env=None):
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        sys.exit("serve browser tests: %s failed:\n%s" % (" ".join(cmd), r.stderr))
    return r.stdout


def tournament(judge, work, queue):
    """The shipped players judged, a hostile player and author, tokens."""
    env = dict(os.environ, JUDGE_CONFIG="config/demo.json")
    for p in ("Demo", "Dummy", "Null"):
        run(judge, "submit", "games/dominator/players/AI%s.c" % p, "--game", "dominator",
            "--author", "author_" + p, "--queue", queue)
    evil = os.path.join(work, "AIEvil.c")
    # A copy of Dummy (the shipped Demo and Null count for nobody): a pair
    # the organisers see, its author full of markup.
    with open("games/dominator/players/AIDummy.c") as f:
        src = re.sub(r"PLAYER_NAME\(\w+\)", "PLAYER_NAME(Evil)", f.read())
    with open(evil, "w") as f:
        f.write(src)
    run(judge, "submit", evil, "--game", "dominator", "--author", HOSTILE, "--queue", queue)
    run(judge + "-worker", "--queue", queue, "--exit-when-idle", "--ranked-matches", "8",
        env=env)
    # The name check refuses such names at upload: write it into the store.
    db = sqlite3.connect(queue)
    with db:
        db.execute("PRAGMA foreign_keys = OFF")
        for table in ("names", "submissions", "match_players"):
            db.execute("UPDATE %s SET name = ? WHERE name = 'Evil'" % table, (HOSTILE,))
        match = db.execute("SELECT match_id FROM match_players WHERE name = ? ORDER BY match_id"
                           " DESC LIMIT 1", (HOSTILE,)).fetchone()[0]
    db.close()
    contestant = run(judge, "token", "add", "--author", "frodo", "--queue", queue).strip()
    organiser = run(judge, "token", "add", "--author", "gandalf", "--organiser",
                    "--queue", queue).strip()
    return match, contestant, organiser


def start_server(judge, queue, env=None):
    proc = subprocess.Popen([judge, "serve", "--queue", queue, "--listen", "127.0.0.1:0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    line = proc.stdout.readline()
    m = re.search(r"http://[^ ]+:(\d+)/", line)
    if not m:
        proc.kill()
        sys.exit("serve browser tests: judge serve did not start: %s%s"
                 % (line, proc.stderr.read()))
    return proc, "http://127.0.0.1:%s" % m.group(1)


def page_clean(t, b, name):
    t.check(name + ": no console error, exception, failed load or dialog", not b.errors, b.errors)
    t.check(name + ": the page says no error", b.eval("document.body.dataset.errors") == "[]",
            b.eval("document.body.dataset.errors"))
    t.check(name + ": no element from a name", b.eval("document.querySelectorAll('img').length") == 0)
    b.errors.clear()


def set_token(b, token):
    b.eval("localStorage.setItem('judge.token', %s)" % json.dumps(token))


def check_upload(t, b, base, token, work):
    """Through the page: the game's student kit, a broken file's compile error, then a
    good file qualified."""
    b.goto(base + "/upload")
    b.eval("(s => { s.value = 'dominator'; s.dispatchEvent(new Event('change')); })(document.getElementById('game'))")
    href = b.eval("(a => a && a.getAttribute('href'))(document.querySelector('#kit a'))")
    t.check("upload: the page links the chosen game's student kit", href == "/kits/dominator.tar.gz", href)
    got = b.wait("(window.kitFetch = window.kitFetch || fetch('/kits/dominator.tar.gz')"
                 ".then(r => r.arrayBuffer().then(a => [r.status, r.headers.get('content-type'),"
                 " new Uint8Array(a)[0], new Uint8Array(a)[1]].join(' '))), window.kitFetch.then(v => window.kitGot = v),"
                 " window.kitGot)", 120)
    t.check("upload: the kit link downloads a gzip archive", got == "200 application/gzip 31 139", got)
    b.eval("(s => { s.value = 'aic2018'; s.dispatchEvent(new Event('change')); })(document.getElementById('game'))")
    t.check("upload: a game without a kit links none",
            b.eval("document.querySelectorAll('#kit a').length") == 0,
            b.eval("(k => k ? k.textContent : 'no kit line')(document.getElementById('kit'))"))
    b.goto(base + "/upload")
    b.set_file("#file", os.path.abspath("games/dominator/players/AIDummy.c"))
    for typed, words in (("", "give the one the organisers sent you in the Token field"),
                         ("not-a-token", "does not know this token")):
        b.eval("document.getElementById('token').value = %s" % json.dumps(typed))
        b.eval("document.getElementById('send').click()")
        said = b.wait("(m => /%s/.test(m.textContent) && m.textContent)(document.getElementById('message'))"
                      % words, 10)
        t.check("upload: a %s token is said in the page's words" % ("missing" if not typed else "wrong"),
                said, b.eval("document.getElementById('message').textContent"))
    b.eval("localStorage.clear()")
    b.errors.clear()  # the 401s
    b.goto(base + "/upload")
    b.eval("document.getElementById('token').value = %s" % json.dumps(token))
    broken = os.path.join(work, "AIBroken.c")
    with open(broken, "w") as f:
        f.write(BROKEN)
    b.set_file("#file", broken)
    b.eval("document.getElementById('send').click()")
    log = b.wait("document.getElementById('state') && /compile failed/.test(document.getElementById('state').textContent)"
                 " && document.getElementById('compile-log').textContent", 120)
    t.check("upload: a broken file shows its compile failure", bool(log),
            b.eval("document.getElementById('message').textContent"))
    t.check("upload: the compile log names the error", log and "error" in log, log)
    t.check("upload: markup quoted in the compile log shows as text", log and HOSTILE in log, log)
    t.check("upload: the token was kept in localStorage", b.eval("localStorage.getItem('judge.token')") == token)
    t.check("upload: the top bar says whose token it is once it is used",
            b.wait("/signed in as frodo/.test(document.querySelector('.who').textContent)", 10),
            b.eval("document.querySelector('.who').textContent"))
    good = os.path.join(work, "AIHobbit.c")
    with open("games/dominator/players/AIDummy.c") as f:
        src = re.sub(r"PLAYER_NAME\(\w+\)", "PLAYER_NAME(Hobbit)", f.read())
    # Markup on stderr: its log on my submissions page must stay text.
    src = "#include <stdio.h>\n" + src.replace("void play(void)", "static void dummy_play(void)") + (
        "\nvoid play(void)\n{\n\tif (current_round() == 0)\n"
        "\t\tfprintf(stderr, \"%%s\\n\", %s);\n\tdummy_play();\n}\n" % json.dumps(HOSTILE))
    with open(good, "w") as f:
        f.write(src)
    b.goto(base + "/upload")
    b.set_file("#file", good)
    b.eval("document.getElementById('send').click()")
    state = b.wait("(s => s && /qualified/.test(s.textContent) && s.textContent)(document.getElementById('state'))", 180)
    t.check("upload: a good file is seen through to its qualification",
            state and "not qualified" not in state and "qualified" in state,
            b.eval("document.getElementById('message').textContent"))
    t.check("upload: its qualifying matches are listed with their command",
            b.wait("document.querySelectorAll('#my-matches code').length > 0", 20),
            b.eval("document.getElementById('detail').textContent"))
    page_clean(t, b, "upload")
    return int(re.search(r"Submission (\d+)", b.eval("document.getElementById('detail').textContent")).group(1))


def check_challenge(t, b, base, token, submission, shots):
    """From the submission's page: a challenge of Dummy, played by the
    worker, then listed among the player's matches as a challenge."""
    set_token(b, token)
    b.goto(base + "/submissions/%d" % submission)
    t.check("challenge: the form is on my submission's page",
            b.wait("!!document.getElementById('challenge-send')", 20),
            b.eval("document.getElementById('detail').textContent"))
    b.eval("document.getElementById('challenge-seats').value = 'Hobbit, Dummy, Dummy, Dummy'")
    b.eval("document.getElementById('challenge-send').click()")
    said = b.wait("(m => /queued/.test(m.textContent) && m.textContent)(document.getElementById('message'))", 10)
    t.check("challenge: the page says it was queued", said,
            b.eval("document.getElementById('message').textContent"))
    # Behind the ladder's ranked work it waits at most the class's 30 s pause.
    row = "[...document.querySelectorAll('#my-matches tbody tr')].find(r => /challenge/.test(r.textContent))"
    played = b.wait("(r => r && r.textContent)(%s)" % row, 150)
    t.check("challenge: the played match shows in my list as a challenge", played,
            b.eval("document.getElementById('detail').textContent"))
    b.screenshot(os.path.join(shots, "serve-challenge.png"))
    page_clean(t, b, "challenge")
    # The version comparison box: the broken upload before it cannot play.
    b.eval("document.getElementById('compare-old').value = %d" % (submission - 1))
    b.eval("document.getElementById('compare-send').click()")
    said = b.wait("(m => /not compiled/.test(m.textContent) && m.textContent)(document.getElementById('message'))", 10)
    t.check("compare: a version that did not compile is refused in words", said,
            b.eval("document.getElementById('message').textContent"))
    b.errors.clear()  # the 400


def frame_eval(b, expr, timeout=10):
    """expr's value in the page's one frame (the replay viewer: a sandboxed
    srcdoc frame, which Chromium runs as a target of its own), once true,
    or its last value at the timeout."""
    deadline, value = time.time() + timeout, None
    while time.time() < deadline and not value:
        frames = [f for f in b.call("Target.getTargets")["targetInfos"] if f["type"] == "iframe"]
        if frames:
            session = b.call("Target.attachToTarget", targetId=frames[0]["targetId"],
                             flatten=True)["sessionId"]
            b.next_id += 1
            me = b.next_id
            b.ws.send(json.dumps({"id": me, "sessionId": session, "method": "Runtime.evaluate",
                                  "params": {"expression": expr, "returnByValue": True}}))
            msg = json.loads(b.ws.recv())
            while msg.get("id") != me:
                msg = json.loads(b.ws.recv())
            value = msg.get("result", {}).get("result", {}).get("value")
            b.call("Target.detachFromTarget", sessionId=session)
        if not value:
            time.sleep(0.2)
    return value


def check_pages(t, b, base, match, shots):
    b.goto(base + "/leaderboard/dominator")
    board = b.eval("document.getElementById('board').textContent")
    t.check("leaderboard: the hostile names show as text", HOSTILE in board, board)
    t.check("leaderboard: the ranked players are listed",
            b.eval("document.querySelectorAll('#board tbody tr').length") >= 4)
    b.eval("document.querySelector('#board th:nth-child(4)').click()")
    b.eval("document.querySelector('#board th:nth-child(4)').click()")
    scores = b.eval("[...document.querySelectorAll('#board tbody tr td:nth-child(4)')].map(td => Number(td.textContent))")
    t.check("leaderboard: sorted by score on a click", scores == sorted(scores, reverse=True) or scores == sorted(scores), scores)
    filter_by = "(f => { f.value = %s; f.dispatchEvent(new Event('input')); })(document.getElementById('filter'))"
    b.eval(filter_by % "'author_Null'")
    t.check("leaderboard: the filter keeps the matching row",
            b.eval("document.querySelectorAll('#board tbody tr').length") == 1)
    b.eval(filter_by % "''")
    b.screenshot(os.path.join(shots, "serve-leaderboard.png"))
    page_clean(t, b, "leaderboard")

    b.goto(base + "/players/" + urllib.parse.quote(HOSTILE, safe="") + "?game=dominator")
    title = b.eval("document.querySelector('h1').textContent")
    t.check("player: the hostile name shows as text", HOSTILE in title, title)
    t.check("player: the author shows as text", b.eval("document.getElementById('author').textContent") == HOSTILE)
    t.check("player: the rating plot is drawn", b.eval("document.querySelectorAll('#plot path.score').length") == 1)
    t.check("player: its matches are listed", b.eval("document.querySelectorAll('#matches tbody a').length") > 0)
    page_clean(t, b, "player")

    b.goto(base + "/matches/%d" % match)
    seats = b.eval("document.getElementById('seats').textContent")
    t.check("match: the hostile name shows as text", HOSTILE in seats, seats)
    t.check("match: the replay viewer is embedded", b.wait("document.getElementById('viewer') && document.getElementById('viewer').srcdoc.length > 1000", 20))
    # The frame lives under the match page's policy: only the viewer's
    # scripts, named by their hashes, may run there, and they must.
    t.check("match: the viewer's scripts run under the page's policy",
            frame_eval(b, "typeof Viewer === 'object' && document.querySelectorAll('canvas').length > 0"))
    cmd = b.eval("document.getElementById('command').textContent")
    t.check("match: the judge play command has the seed, the limits and the parameters",
            re.match(r"judge play dominator .* -s \d+ --cpu \d+ --memory \d+ -i match-%d\.cnf$" % match, cmd or ""), cmd)
    t.check("match: the parameters file is offered for the command",
            b.eval("document.getElementById('params') && document.getElementById('params').getAttribute('download')") == "match-%d.cnf" % match)
    b.wait("false", 3)  # the viewer draws inside its frame
    b.screenshot(os.path.join(shots, "serve-match.png"))
    page_clean(t, b, "match")


def check_cli_board(t, b, judge, work, queue):
    """`judge leaderboard --html` writes the service's page with the board
    embedded: opened as a file, it draws the same rows, names as text, and
    links each player's latest matches to the replay pages beside it."""
    page = os.path.join(work, "www", "board.html")
    run(judge, "leaderboard", "--game", "dominator", "--queue", queue, "--html", page)
    t.check("leaderboard --html: drawn as a file alone", b.goto("file://" + page) is not None)
    board = b.eval("document.getElementById('board').textContent")
    t.check("leaderboard --html: the hostile names show as text", HOSTILE in board, board)
    rows = b.eval("JSON.parse(document.getElementById('page-data').textContent).rows.length")
    t.check("leaderboard --html: every ranked player of its data is listed", rows >= 4 and
            b.eval("document.querySelectorAll('#board tbody tr').length") == rows, rows)
    links = b.eval("[...document.querySelectorAll('#board a')].map(a => a.getAttribute('href'))")
    t.check("leaderboard --html: the links are the replay pages beside it", links and all(
        re.fullmatch(r"replay-\d+\.html", h) and os.path.exists(os.path.join(work, "www", h))
        for h in links), links)
    page_clean(t, b, "leaderboard --html")


def check_private_pages(t, b, base, contestant, organiser):
    set_token(b, contestant)
    b.goto(base + "/submissions")
    t.check("my submissions: listed", b.eval("document.querySelectorAll('#mine tbody a').length") >= 2)
    t.check("my submissions: my seats' logs are linked",
            b.wait("document.querySelectorAll('#my-matches a.log-link').length > 0", 20),
            b.eval("document.getElementById('detail').textContent"))
    b.eval("document.querySelector('#my-matches a.log-link').click()")
    log = b.wait("(p => p && p.textContent.includes(%s)"
                 " && p.textContent)(document.getElementById('seat-log'))" % json.dumps(HOSTILE), 20)
    t.check("my submissions: my player's stderr shown as text, its markup not run",
            bool(log) and b.eval("document.querySelectorAll('#seat-log *').length") == 0,
            b.eval("document.getElementById('seat-log').innerHTML"))
    page_clean(t, b, "my submissions")
    b.goto(base + "/organiser")
    t.check("organisers: a contestant is told the page is not theirs",
            "organisers" in (b.eval("document.getElementById('message').textContent") or ""))
    b.errors.clear()
    set_token(b, organiser)
    b.goto(base + "/organiser")
    t.check("organisers: tokens listed", b.wait("document.querySelectorAll('#tokens tbody tr').length >= 2", 10))
    # Evil is Dummy under another name and author: a flagged pair.
    t.check("organisers: the copied pair is listed",
            b.wait("document.querySelectorAll('#pairs tbody button').length > 0", 10),
            b.eval("document.getElementById('pairs').textContent"))
    b.eval("[...document.querySelectorAll('#pairs tbody tr')].find(tr => tr.textContent.includes(%s))"
           ".querySelector('button').click()" % json.dumps(HOSTILE))
    t.check("organisers: the pair side by side, the shared fragment marked",
            b.wait("document.querySelectorAll('#pair pre').length === 2 && document.querySelectorAll('#pair .hit').length > 0", 10))
    t.check("organisers: the hostile author shows as text in the pair",
            HOSTILE in (b.eval("document.getElementById('pair').textContent") or ""))
    page_clean(t, b, "organisers")
    b.goto(base + "/leaderboard/dominator")
    t.check("leaderboard: an organiser sees the disqualified list", b.eval("!!document.getElementById('disqualified')"))
    t.check("leaderboard: an organiser sees the suspected copies",
            b.eval("document.querySelectorAll('#board .badge.warn').length") >= 1)
    page_clean(t, b, "leaderboard (organiser)")


def check_disqualified(t, b, base, contestant, organiser, submission):
    """An organiser disqualifies through the page (Hobbit picked from the
    game's list); the contestant reads why on their own submission, as
    text; the commands survive a sort."""
    set_token(b, organiser)
    b.goto(base + "/organiser")
    b.eval("document.getElementById('dq-player').value = 'Hobbit'")
    b.eval("document.getElementById('dq-player').dispatchEvent(new Event('change'))")
    b.eval("document.getElementById('dq-reason').value = %s" % json.dumps(HOSTILE))
    b.eval("document.querySelector('#disqualify button[type=submit]').click()")
    said = b.wait("/Hobbit is disqualified/.test(document.getElementById('message').textContent)", 10)
    t.check("organisers: disqualify answers", said, b.eval("document.getElementById('message').textContent"))
    page_clean(t, b, "organisers (disqualify)")
    set_token(b, contestant)
    b.goto(base + "/submissions/%d" % submission)
    why = b.wait("(d => d && !d.hidden && d.textContent)(document.getElementById('disqualified'))", 10)
    t.check("my submissions: a disqualified player is told why, as text", why and HOSTILE in why, why)
    marked = b.eval("[...document.querySelectorAll('#mine tbody tr')].filter(r => /disqualified/.test(r.textContent)).length")
    t.check("my submissions: the list marks the disqualified player", marked >= 1, marked)
    commands = "document.querySelectorAll('#my-matches tbody code').length"
    b.wait(commands + " > 0 && [...document.querySelectorAll('#my-matches tbody code')].every(c => c.textContent)", 10)
    before = b.eval(commands)
    b.eval("[...document.querySelectorAll('#my-matches th')].find(th => /Seed/.test(th.textContent)).click()")
    t.check("my submissions: the commands stay when the matches are sorted",
            before > 0 and b.eval(commands) == before and
            b.eval("[...document.querySelectorAll('#my-matches tbody code')].every(c => /^judge play /.test(c.textContent))"),
            "%s then %s" % (before, b.eval(commands)))
    page_clean(t, b, "my submissions (disqualified)")


def check_private_boards(t, b, judge, work, queue, contestant):
    """Boards the organisers made private: a visitor gets the token field on
    the page itself, and with a token the board shows."""
    cfg = os.path.join(work, "private.json")
    with open(cfg, "w") as f:
        f.write('{"serve": {"public_leaderboard": false}}\n')
    server, base = start_server(judge, queue, dict(os.environ, JUDGE_CONFIG=cfg))
    try:
        b.goto(base + "/")
        b.eval("localStorage.clear()")
        b.goto(base + "/leaderboard/dominator")
        t.check("private board: the page asks for the token itself",
                b.eval("!!document.getElementById('token') && !!document.getElementById('failure')"),
                b.eval("document.body.innerText"))
        b.eval("document.getElementById('token').value = %s" % json.dumps(contestant))
        b.eval("document.getElementById('save-token').click()")
        b.wait("false", 1)
        b.wait("document.body.dataset.ready === '1'", 10)
        t.check("private board: shown once the token is given",
                b.wait("document.querySelectorAll('#board tbody tr').length >= 3", 10),
                b.eval("document.body.innerText"))
        b.errors.clear()  # the 401 before the token was given
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)


def stop_all(b, work, *procs):
    """The browser closed, procs stopped (SIGTERM, then SIGKILL after a
    minute), the work folder removed."""
    b.close()
    for p in procs:
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill()
    shutil.rmtree(work, ignore_errors=True)


def page_tests_args(what):
    """--judge and --shots (made); exits when there is no chromium."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--judge", default="build/judge")
    ap.add_argument("--shots", default="build/screenshots")
    a = ap.parse_args()
    if not shutil.which("chromium"):
        sys.exit("%s browser tests: chromium is not installed (run scripts/deps.sh as root)" % what)
    os.makedirs(a.shots, exist_ok=True)
    return a


def main():
    a = page_tests_args("serve")
    work = tempfile.mkdtemp(prefix="serve-browser-")
    queue = os.path.join(work, "jobs.sqlite")
    match, contestant, organiser = tournament(a.judge, work, queue)
    server, base = start_server(a.judge, queue)
    worker = subprocess.Popen([a.judge + "-worker", "--queue", queue],
                              env=dict(os.environ, JUDGE_CONFIG="config/demo.json"),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t = Suite()
    b = Browser()
    try:
        b.goto(base + "/")
        hobbit = check_upload(t, b, base, contestant, work)
        check_challenge(t, b, base, contestant, hobbit, a.shots)
        b.eval("localStorage.clear()")
        check_pages(t, b, base, match, a.shots)
        check_private_pages(t, b, base, contestant, organiser)
        check_disqualified(t, b, base, contestant, organiser, hobbit)
        check_private_boards(t, b, a.judge, work, queue, contestant)
        check_cli_board(t, b, a.judge, work, queue)
    finally:
        stop_all(b, work, worker, server)
    print("serve browser tests: %d passed, %d failed" % (t.passed, t.failed))
    return 1 if t.failed else 0


if __name__ == "__main__":
    sys.exit(main())
