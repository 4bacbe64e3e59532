#!/usr/bin/env python3
"""The organisers' people and a game's page in a real browser (headless
Chromium over the DevTools protocol, tests/browser/cdp.py).

A store with the shipped players uploaded by their authors, an organiser's
token and two contestants', then `judge serve`.  Checks: the organiser
picks Dummy from the game's list (nothing typed) and disqualifies it with
a reason full of markup; the list and the history say so, the reason as
text; Dummy is reinstated and the history keeps the decision, lifted, with
who and when; revoking a token asks first: declined, the token still
works; accepted, it is revoked.  The game's page shows the limits in
force, the header and the rules as text, and the upload page links it.
Screenshots of the people part and the game's page go to --shots
(organiser-people.png, game-page.png).

usage: tests/browser/people.py [--judge build/judge] [--shots build/screenshots]
Ends with "N passed, N failed"; exit status 1 when any failed.
"""
import json
import os
import sys
import tempfile
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser  # noqa: E402
from run import Suite  # noqa: E402
from serve import HOSTILE, page_clean, page_tests_args, run, set_token, start_server, stop_all  # noqa: E402


def people(judge, queue):
    """The shipped players, each by an author of its own; the tokens."""
    for p in ("Demo", "Dummy", "Null"):
        run(judge, "submit", "games/dominator/players/AI%s.c" % p, "--game", "dominator",
            "--author", "author_" + p, "--queue", queue)
    token = lambda *a: run(judge, "token", "add", "--queue", queue, *a).strip()  # noqa: E731
    return token("--author", "teacher", "--organiser"), token("--author", "ada"), token("--author", "alan")


def text(b, element_id):
    return b.eval("(e => e ? e.textContent : '')(document.getElementById(%s))" % json.dumps(element_id)) or ""


def works(base, token):
    req = urllib.request.Request(base + "/api/me", headers={"Authorization": "Bearer " + token})
    try:
        with urllib.request.urlopen(req) as r:
            return r.status == 200
    except urllib.error.HTTPError:
        return False


def check_disqualify(t, b, base, organiser, shots):
    set_token(b, organiser)
    b.goto(base + "/organiser")
    options = b.eval("[...document.querySelectorAll('#dq-player option')].map(o => o.value)")
    t.check("people: the game's players to pick from", options == ["Demo", "Dummy", "Null"], options)
    t.check("people: no player name to type", b.eval("!document.querySelector('#disqualify input:not(#dq-reason)')"))
    b.eval("document.getElementById('dq-player').value = 'Dummy'")
    b.eval("document.getElementById('dq-player').dispatchEvent(new Event('change'))")
    b.eval("document.getElementById('dq-reason').value = %s" % json.dumps("copied " + HOSTILE))
    b.eval("document.querySelector('#disqualify button[type=submit]').click()")
    said = b.wait("/Dummy is disqualified/.test(document.getElementById('message').textContent)", 10)
    t.check("people: disqualify answers", said, text(b, "message"))
    t.check("people: the history shows the decision in force, the reason as text",
            b.wait("/in force/.test(document.getElementById('dq-history').textContent)", 10)
            and HOSTILE in text(b, "dq-history") and "teacher" in text(b, "dq-history"), text(b, "dq-history"))
    t.check("people: the list marks Dummy, reinstate offered",
            "disqualified" in b.eval("document.querySelector('#dq-player option[value=Dummy]').textContent")
            and b.eval("!document.getElementById('dq-reinstate').disabled"))
    b.screenshot(os.path.join(shots, "organiser-people.png"), "main")
    b.eval("document.getElementById('dq-reinstate').click()")
    said = b.wait("/Dummy is reinstated/.test(document.getElementById('message').textContent)", 10)
    t.check("people: reinstate answers", said, text(b, "message"))
    lifted = b.wait("/by teacher/.test(document.getElementById('dq-history').textContent)"
                    " && !/in force/.test(document.getElementById('dq-history').textContent)", 10)
    t.check("people: the history keeps the decision, lifted, by whom", lifted, text(b, "dq-history"))
    t.check("people: Dummy back in the list unmarked",
            "disqualified" not in b.eval("document.querySelector('#dq-player option[value=Dummy]').textContent"))
    page_clean(t, b, "people (disqualify, reinstate)")


def revoke_row(b, author, answer):
    """Clicks Revoke on author's token with confirm() answering answer; what it asked."""
    b.eval("window.asked = null; window.confirm = m => (window.asked = m, %s)" % json.dumps(answer))
    b.eval("[...document.querySelectorAll('#tokens tbody tr')].find(r => r.textContent.includes(%s))"
           ".querySelector('button').click()" % json.dumps(author))
    return b.eval("window.asked")


def check_revoke(t, b, base, ada):
    asked = revoke_row(b, "ada", False)
    t.check("tokens: revoking asks first, naming the author", asked and "ada" in asked, asked)
    t.check("tokens: declined, the token still works", works(base, ada))
    revoke_row(b, "ada", True)
    done = b.wait("/revoked/.test(document.getElementById('message').textContent)"
                  " && [...document.querySelectorAll('#tokens tbody tr')].some(r => /ada/.test(r.textContent)"
                  " && /revoked/.test(r.textContent))", 10)
    t.check("tokens: confirmed, the token is revoked and shown so", done, text(b, "tokens"))
    t.check("tokens: a revoked token no longer works", not works(base, ada))
    page_clean(t, b, "people (revoke)")


def check_game_page(t, b, base, alan, shots):
    set_token(b, alan)
    b.goto(base + "/upload")
    t.check("upload: links the game's page", b.eval("(a => a && a.getAttribute('href'))(document.getElementById('rules'))")
            == "/games/dominator")
    b.goto(base + "/games/dominator")
    t.check("game page: the limits in force", "1 s" in text(b, "limits") and "200" in text(b, "limits"), text(b, "limits"))
    t.check("game page: the parameters", "farmers" in text(b, "params"), text(b, "params"))
    t.check("game page: the header as text", "PLAYER_NAME" in text(b, "header")
            and b.eval("document.querySelectorAll('#header *').length") == 0)
    t.check("game page: the rules with their headings and tables",
            b.eval("document.querySelectorAll('#rules h2, #rules h3').length") > 3
            and b.eval("document.querySelectorAll('#rules table').length") > 0)
    b.screenshot(os.path.join(shots, "game-page.png"), "#sheet")
    page_clean(t, b, "game page")


def main():
    a = page_tests_args("people")
    work = tempfile.mkdtemp(prefix="people-browser-")
    queue = os.path.join(work, "jobs.sqlite")
    organiser, ada, alan = people(a.judge, queue)
    server, base = start_server(a.judge, queue)
    t = Suite()
    b = Browser()
    try:
        b.goto(base + "/")
        check_disqualify(t, b, base, organiser, a.shots)
        check_revoke(t, b, base, ada)
        check_game_page(t, b, base, alan, a.shots)
    finally:
        stop_all(b, work, server)
    print("people browser tests: %d passed, %d failed" % (t.passed, t.failed))
    return 1 if t.failed else 0


if __name__ == "__main__":
    sys.exit(main())
