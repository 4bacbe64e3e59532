#!/usr/bin/env python3
"""The organiser's plagiarism flags on `judge serve`'s organiser page in a
real browser (headless Chromium over the DevTools protocol,
tests/browser/cdp.py).

Two students' players and a copy of each by another author, judged by a
worker (each copy flagged), an organiser's token and `judge serve`.
Checks: the page shows the news (two new flags, with the count), each flag
names its earlier file as the original and its later one as the suspect,
with their submissions, authors and upload times; confirming one and
dismissing the other with a note is recorded in the organiser's name (as
`judge plagiarism flags` lists them) and shown, and a decided flag is news
no more; no console error.  The similar pairs: `judge plagiarism --html`
writes the service's plagiarism page with its list embedded, which,
opened as a file with no service, draws both flagged pairs (the hostile
author as text) and names the command that shows each; the service's own
page /plagiarism/dominator draws the same rows and shows a pair side by
side.  Screenshots go to --shots (plag-news.png, plag-decided.png,
plag-cli-page.png, plag-service-page.png).

usage: tests/browser/plag.py [--judge build/judge] [--shots build/screenshots]
Ends with "N passed, N failed"; exit status 1 when any failed.
"""
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser  # noqa: E402
from run import Suite  # noqa: E402
from serve import HOSTILE, page_clean, page_tests_args, run, set_token, start_server, stop_all  # noqa: E402

EVE = "eve " + HOSTILE  # a copier whose name is markup: shown as text everywhere


def flagged_store(judge, work, queue):
    """Alder and Birch by their authors, a copy of each by another: two flags."""
    cfg = os.path.join(work, "judge.json")
    with open(cfg, "w") as f:
        f.write('{"worker": {"qualify_matches": 0}}')
    env = dict(os.environ, JUDGE_CONFIG=cfg)
    for name, author in (("Alder", "alder"), ("Birch", "birch")):
        run(judge, "submit", "bench/plag/players/AI%s.c" % name, "--game", "dominator",
            "--author", author, "--queue", queue, env=env)
    for name, copier, copy in (("Alder", "mallory", "Copycat"), ("Birch", EVE, "Mimic")):
        with open("bench/plag/players/AI%s.c" % name) as f:
            src = re.sub(r"PLAYER_NAME\(\w+\)", "PLAYER_NAME(%s)" % copy, f.read())
        path = os.path.join(work, "AI%s.c" % copy)
        with open(path, "w") as f:
            f.write(src)
        run(judge, "submit", path, "--game", "dominator", "--author", copier, "--queue", queue,
            env=env)
    run(judge + "-worker", "--queue", queue, "--exit-when-idle", "--ranked-matches", "0", env=env)
    organiser = run(judge, "token", "add", "--author", "gandalf", "--organiser",
                    "--queue", queue).strip()
    return env, organiser


def flags(judge, queue, env):
    return json.loads(run(judge, "plagiarism", "flags", "--json", "--queue", queue, env=env))


def text_of(b, selector):
    return b.eval("(document.querySelector(%s) || {}).textContent || ''" % json.dumps(selector))


def decide(b, flag, action, note):
    b.eval("document.querySelector('#flag-%d .plag-note').value = %s" % (flag, json.dumps(note)))
    b.eval("document.querySelector('#flag-%d .plag-%s').click()" % (flag, action))
    b.wait("(document.querySelector('#flag-%d .plag-review') || {}).textContent === %s"
           % (flag, json.dumps(action + "ed" if action != "dismiss" else "dismissed")))


def check_news(t, b, base, organiser, shots, listed):
    b.goto(base + "/organiser")
    set_token(b, organiser)
    b.goto(base + "/organiser")
    b.wait("document.querySelectorAll('#plag-flags li').length === 2")
    news = text_of(b, "#plag-news")
    t.check("news: two new flags, with the count", news.startswith("2 new flags"), news)
    t.check("news: both flags marked new",
            b.eval("document.querySelectorAll('#plag-flags li.unseen').length") == 2)
    for f in listed:
        item = text_of(b, "#flag-%d" % f["id"])
        earlier, later = f["earlier"], f["later"]
        t.check("flag %d: the earlier file is the original" % f["id"],
                "Earlier, the original: submission %d, %s by %s, uploaded"
                % (earlier["submission"], earlier["player"], earlier["author"]) in item, item)
        t.check("flag %d: the later file is the suspect" % f["id"],
                "Later, suspected: submission %d, %s by %s, uploaded"
                % (later["submission"], later["player"], later["author"]) in item, item)
    b.screenshot(os.path.join(shots, "plag-news.png"), "#plag-review")
    page_clean(t, b, "organiser page with flags")


def check_decisions(t, b, judge, queue, env, shots, listed):
    by_copier = {f["later"]["author"]: f["id"] for f in listed}
    decide(b, by_copier["mallory"], "confirm", "admitted in the interview")
    decide(b, by_copier[EVE], "dismiss", "shared lab code")
    after = {f["id"]: f for f in flags(judge, queue, env)}
    confirmed, dismissed = after[by_copier["mallory"]], after[by_copier[EVE]]
    t.check("confirm: recorded in the organiser's name with the note",
            confirmed["review"] == "confirmed" and confirmed["reviewed_by"] == "gandalf"
            and confirmed["note"] == "admitted in the interview", json.dumps(confirmed))
    t.check("dismiss: recorded with the note",
            dismissed["review"] == "dismissed" and dismissed["note"] == "shared lab code",
            json.dumps(dismissed))
    item = text_of(b, "#flag-%d" % by_copier[EVE])
    t.check("dismiss: the later author is no longer called a suspect",
            "Later: submission" in item and "suspected" not in item, item)
    news = text_of(b, "#plag-news")
    t.check("seen: a decided flag is news no more", news == "No new flag. ", news)
    t.check("seen: no flag is marked new",
            b.eval("document.querySelectorAll('#plag-flags li.unseen').length") == 0)
    b.screenshot(os.path.join(shots, "plag-decided.png"), "#plag-review")
    page_clean(t, b, "organiser page after the decisions")


ROWS = "[...document.querySelectorAll('#pair-list tbody tr')]"


def row_cells(b):
    """Each pair's row as the texts of its first six cells (numbers, files)."""
    return b.eval(ROWS + ".map(tr => [...tr.cells].slice(0, 6).map(td => td.textContent))")


def check_cli_page(t, b, judge, work, queue, env, shots, listed):
    """The page `judge plagiarism --html` writes, opened as a file alone."""
    page = os.path.join(work, "pairs.html")
    run(judge, "plagiarism", "--game", "dominator", "--html", page, "--queue", queue, env=env)
    t.check("--html: drawn as a file alone, with no service", b.goto("file://" + page) is not None)
    data = b.eval("JSON.parse(document.getElementById('page-data').textContent)")
    rows = row_cells(b)
    t.check("--html: both flagged pairs listed, as its data holds them",
            len(rows) == 2 == len(data["pairs"]), rows)
    table = text_of(b, "#pair-list")
    t.check("--html: the hostile author shows as text", HOSTILE in table, table)
    commands = b.eval("[...document.querySelectorAll('#pair-list code.show-command')].map(c => c.textContent)")
    want = sorted("judge plagiarism show %d %d" % (f["later"]["submission"], f["earlier"]["submission"])
                  for f in listed)
    t.check("--html: each pair names the command that shows it", sorted(commands) == want, commands)
    t.check("--html: nothing to fetch (no side-by-side button)",
            b.eval("document.querySelectorAll('#pair-list button').length") == 0)
    t.check("--html: flagged rows marked", b.eval(ROWS + ".filter(tr => tr.classList.contains('flagged')).length") == 2)
    b.screenshot(os.path.join(shots, "plag-cli-page.png"))
    page_clean(t, b, "judge plagiarism --html")
    return rows


def check_service_page(t, b, base, organiser, shots, cli_rows):
    """The service's own page: the same rows, and a pair side by side."""
    b.goto(base + "/organiser")
    set_token(b, organiser)
    b.goto(base + "/plagiarism/dominator")
    b.wait(ROWS + ".length === 2")
    t.check("service page: the same rows as the page --html wrote", row_cells(b) == cli_rows, row_cells(b))
    b.eval("document.querySelector('#pair-list tbody button').click()")
    t.check("service page: a pair side by side, the shared fragment marked",
            b.wait("document.querySelectorAll('#pair pre').length === 2 && "
                   "document.querySelectorAll('#pair .hit').length > 0", 10))
    b.screenshot(os.path.join(shots, "plag-service-page.png"))
    page_clean(t, b, "the service's plagiarism page")


def main():
    a = page_tests_args("plagiarism")
    work = tempfile.mkdtemp(prefix="plag-browser-")
    queue = os.path.join(work, "jobs.sqlite")
    env, organiser = flagged_store(a.judge, work, queue)
    listed = flags(a.judge, queue, env)
    server, base = start_server(a.judge, queue, env=env)
    t = Suite()
    t.check("the worker flagged both copies", len(listed) == 2, json.dumps(listed))
    b = Browser()
    try:
        if len(listed) == 2:
            rows = check_cli_page(t, b, a.judge, work, queue, env, a.shots, listed)
            check_service_page(t, b, base, organiser, a.shots, rows)
            check_news(t, b, base, organiser, a.shots, listed)
            check_decisions(t, b, a.judge, queue, env, a.shots, listed)
    finally:
        stop_all(b, work, server)
    print("plagiarism browser tests: %d passed, %d failed" % (t.passed, t.failed))
    return 1 if t.failed else 0


if __name__ == "__main__":
    sys.exit(main())
