#!/usr/bin/env python3
"""check.py - a course tournament re-checked from its record, with an
implementation of the rules of its own (the course's rules as
docs/organisers.md states them), sharing no code with the judge.

Reads DIR/entrants.csv, matches.csv, submissions.csv and grades.csv (as
tests/course/simulate.sh writes them) and checks: each elimination round
(phase 1) starts with exactly the students still in, every stage's groups
hold exactly the students not yet safe, who is safe follows from the
scores (better than two of three rivals, the Dummy counted), the round's
last stage is decided exactly as the rule says (one student behind every
other student, Dummies not counted; or a draw after 10 stages without
progress) and the student recorded as out is that one; one student goes
out per round until REMAIN are left; the round robin's points (4/3/2/1
per place) and the final's places; every line of the grades CSV.
Usage: check.py DIR STUDENTS REMAIN
"""
import csv
import json
import sys
from collections import defaultdict

SEATS, BEATS, MAX_IDLE = 4, 2, 10
ELIMINATION, ROUND_ROBIN = 1, 2
problems = []


def fail(text):
    problems.append(text)


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def number(text):
    return int(text) if text not in ("", None) else None


def load(dir_):
    entrants = {int(e["id"]): e for e in rows(dir_ + "/entrants.csv")}
    matches = defaultdict(lambda: {"seats": None, "score": {}})
    for r in rows(dir_ + "/matches.csv"):
        key = tuple(int(r[k]) for k in ("phase", "round", "stage", "grp", "game_no"))
        m = matches[key]
        m["seats"] = json.loads(r["seats"])
        m["score"][int(r["seat"])] = int(r["score"])
    return entrants, matches


def students_of(match):
    return [who for who in match["seats"] if who != 0]


def safe_in(match):
    """Students better than BEATS of their rivals, Dummies included."""
    seats, score = match["seats"], match["score"]
    safe = set()
    for i, who in enumerate(seats):
        if who == 0:
            continue
        better = sum(1 for j in range(len(seats)) if j != i and score[i] > score[j])
        if better >= BEATS:
            safe.add(who)
    return safe


def behind_all(match):
    """The student behind every other student of the match, or None."""
    seats, score = match["seats"], match["score"]
    students = [i for i, who in enumerate(seats) if who != 0]
    for i in students:
        if all(score[i] < score[j] for j in students if j != i):
            return seats[i]
    return None


def check_round(rnd, stages, pool):
    """Re-plays one round from its recorded stages; returns who is out."""
    idle = 0
    for stage in range(len(stages) + 1):
        if len(pool) == 1:
            if stage < len(stages):
                fail(f"round {rnd}: stage {stage} played though one student was left")
            return next(iter(pool))
        if idle >= MAX_IDLE:
            if stage < len(stages):
                fail(f"round {rnd}: stages after the draw")
            return ("draw", frozenset(pool))
        if stage not in stages:
            fail(f"round {rnd}: stage {stage} missing, {len(pool)} students not yet safe")
            return None
        groups = stages[stage]
        seated = [w for m in groups for w in students_of(m)]
        if sorted(seated) != sorted(pool):
            fail(f"round {rnd} stage {stage}: seats {sorted(seated)}, want the students "
                 f"not yet safe {sorted(pool)}")
        if len(groups) != -(-len(pool) // SEATS):
            fail(f"round {rnd} stage {stage}: {len(groups)} groups for {len(pool)} students")
        if len(pool) <= SEATS:
            out = behind_all(groups[0])
            if out is not None:
                if stage + 1 < len(stages):
                    fail(f"round {rnd}: stages after student {out} finished behind all")
                return out
            idle += 1
            continue
        before = len(pool)
        for m in groups:
            pool = pool - safe_in(m)
        idle = 0 if len(pool) < before else idle + 1
    fail(f"round {rnd}: the record ends undecided")
    return None


def check_elimination(entrants, matches, remain):
    by_round = defaultdict(lambda: defaultdict(list))
    for (phase, rnd, stage, grp, game_no), m in sorted(matches.items()):
        if phase == ELIMINATION:
            by_round[rnd][stage].append(m)
    picked = {i for i, e in entrants.items() if e["representative"]}
    # Without a representative a student never plays: out before round 1.
    for i, e in entrants.items():
        if not e["representative"] and number(e["out_phase"]) is None:
            fail(f"{e['author']} has no representative but was never out")
    alive = set(picked)
    for rnd in sorted(by_round):
        stages = by_round[rnd]
        survivors = {w for m in stages.get(0, []) for w in students_of(m)}
        if survivors != alive:
            fail(f"round {rnd} starts with {sorted(survivors)}, want {sorted(alive)}")
        out = check_round(rnd, {s: stages[s] for s in sorted(stages)}, set(alive))
        recorded = [i for i, e in entrants.items()
                    if number(e["out_phase"]) == ELIMINATION and number(e["out_round"]) == rnd
                    and e["representative"]]
        if isinstance(out, tuple):  # a draw: any of those left may go
            ok = len(recorded) == 1 and recorded[0] in out[1]
        else:
            ok = recorded == [out]
        if not ok:
            fail(f"round {rnd}: the rule puts out {out}, the record {recorded}")
        alive -= set(recorded)
    if len(alive) != remain:
        fail(f"the elimination left {len(alive)} students, want {remain}")
    return alive, len(by_round)


def points(matches, phase, rnd):
    """{group: {student: points}} of one round of a group phase: per match,
    n points for the first of n seats down to 1 for the last, a shared
    place scoring as the best of the places it shares; the opponent
    (0) takes its seat and scores for nobody."""
    table = defaultdict(lambda: defaultdict(int))
    for (ph, r, stage, grp, game_no), m in matches.items():
        if ph != phase or r != rnd:
            continue
        seats, score = m["seats"], m["score"]
        for i, who in enumerate(seats):
            if who != 0:
                place = 1 + sum(1 for j in range(len(seats)) if score[j] > score[i])
                table[grp][who] += len(seats) + 1 - place
    return table


def check_final(entrants, matches, finalists):
    groups, final = points(matches, ROUND_ROBIN, 0), points(matches, ROUND_ROBIN, 1)
    seated = sorted(w for pts in groups.values() for w in pts)
    if seated != sorted(finalists):
        fail(f"the round robin's groups hold {seated}, want the survivors {sorted(finalists)}")
    if len(final) != 1:
        fail(f"{len(final)} final groups, want 1")
        return
    final = next(iter(final.values()))
    winners = set()
    for grp, pts in groups.items():
        best = max(pts.values())
        top = [w for w, p in pts.items() if p == best]
        if len(top) == 1:
            winners.add(top[0])
        elif not set(top) & set(final):
            fail(f"group {grp}: none of its shared winners {top} plays the final")
    if not winners <= set(final):
        fail(f"group winners {sorted(winners - set(final))} do not play the final")
    for w, p in final.items():
        place = number(entrants[w]["place"])
        if list(final.values()).count(p) == 1:
            want = 1 + sum(1 for q in final.values() if q > p)
            if place != want:
                fail(f"{entrants[w]['author']} has {p} points in the final {dict(final)}: "
                     f"place {place}, want {want}")
    for w in finalists - set(final):
        place = number(entrants[w]["place"])
        if place is None or place <= len(final):
            fail(f"{entrants[w]['author']} did not play the final but is placed {place}")


def check_grades(dir_, entrants, rounds, qualified):
    lines = rows(dir_ + "/grades.csv")
    by_author = {e["author"]: e for e in entrants.values()}
    if len(lines) != len(entrants):
        fail(f"grades has {len(lines)} lines for {len(entrants)} students")
    for g in lines:
        e = by_author.get(g["author"])
        if e is None:
            fail(f"grades name an unknown author {g['author']}")
            continue
        if g["author"] not in qualified:
            want = 0.0
        elif number(e["out_phase"]) == ELIMINATION and e["representative"]:
            k = number(e["out_round"]) + 1  # rounds are counted from 0
            want = 5 + 5 * (k - 1) / rounds
        elif number(e["out_phase"]) is not None and number(e["out_phase"]) <= ELIMINATION:
            want = 5.0  # qualified, but no representative: out before round 1
        else:
            want = 10.0
        if abs(float(g["grade"]) - want) > 0.011:
            fail(f"{g['author']}: grade {g['grade']}, want {want:.2f} ({e})")
        if g["group"] != e["grp"]:
            fail(f"{g['author']}: group {g['group']}, the roster says {e['grp']}")


def main():
    dir_, students, remain = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    entrants, matches = load(dir_)
    if len(entrants) != students:
        fail(f"{len(entrants)} entrants, want {students}")
    qualified = {s["author"] for s in rows(dir_ + "/submissions.csv")
                 if s["state"] == "qualified"}
    for i, e in entrants.items():
        if e["representative"] and e["author"] not in qualified:
            fail(f"{e['author']} represented without a qualified player")
    finalists, rounds = check_elimination(entrants, matches, remain)
    check_final(entrants, matches, finalists)
    check_grades(dir_, entrants, rounds, qualified)
    for p in problems[:40]:
        print("   check.py:", p)
    print(f"   check.py: {rounds} elimination rounds, {len(finalists)} finalists, "
          f"{len(matches)} tournament matches re-checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
