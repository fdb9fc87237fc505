#!/usr/bin/env python3
"""Where the time to a first failure went, from a phase log (GRAPHFUZZ_PHASE_LOG, PhaseLog.swift).

Usage:
    GRAPHFUZZ_PHASE_LOG=/tmp/phases graph-fuzz bench --first-failure --mutant edition-nullify
    scripts/phase-summary.py /tmp/phases

Per campaign (a `campaign SEED` line of the bench; a log without one is a single campaign from its first line), in
milliseconds from its start: when each worker was ready (`serve`), each shrink where the failure ran (from the moment
the failing case was met to its end, and its attempts), the bench's first failure found (before its shrink) and its
report. Then the cases' durations: the time from one `case` line of a
worker to its next within a batch, which holds the case's run only.

With a shrink, a campaign's floor: what its report could not come before with the same work, however the cases were
shared out — the last worker ready, plus the time of every case up to the lowest failing case (each from its `case`
line to the worker's next line, the failing case's to its shrink's start) divided among the workers, plus the shrink
of that case. A report near its floor waits on the work (cases, their cost, shrink attempts), not on the executor.
"""
import signal
import sys


def fail(message):
    """Bad input: the message on standard error, exit code 2."""
    print(f"phase-summary.py: {message}", file=sys.stderr)
    sys.exit(2)


def read(path):
    events = []
    try:
        log = open(path)
    except OSError as error:
        fail(f"{path}: {error.strerror}")
    with log:
        for number, line in enumerate(log, 1):
            parts = line.split(maxsplit=3)
            if len(parts) < 4:
                fail(f"{path}:{number}: not a phase line (PID MILLISECONDS CPU EVENT): {line.rstrip()!r}")
            try:
                events.append((int(parts[0]), float(parts[1]), float(parts[2]), parts[3].rstrip("\n")))
            except ValueError:
                fail(f"{path}:{number}: not a phase line (PID MILLISECONDS CPU EVENT): {line.rstrip()!r}")
    return events


def campaigns(events):
    starts = [i for i, e in enumerate(events) if e[3].startswith("campaign ")]
    if not starts:
        return [events]
    return [events[a:b] for a, b in zip(starts, starts[1:] + [len(events)])]


def summary(campaign):
    t0 = campaign[0][1]
    ms = lambda e: f"{e[1] - t0:.1f}"
    ready = [ms(e) for e in campaign if e[3] == "serve"]
    shrinks = {}
    for e in campaign:
        word, *rest = e[3].split()
        if word == "shrink-start":
            shrinks[(e[0], rest[0])] = [ms(e), None, None]
        elif word == "shrink-end" and (e[0], rest[0]) in shrinks:
            shrinks[(e[0], rest[0])][1:] = [ms(e), rest[1]]
    report = next((e for e in campaign if e[3].startswith("report ")), None)
    found = next((e for e in campaign if e[3].startswith("found ")), None)
    parts = [campaign[0][3] if campaign[0][3].startswith("campaign ") else "run",
             "ready " + ",".join(ready),
             "shrinks " + " ".join(f"case {case} {s}-{e or '?'} ({n or '?'} attempts)" for (_, case), (s, e, n) in shrinks.items())]
    if found:
        parts.append(f"found {ms(found)}")
    if report:
        parts.append(f"report {ms(report)}")
    bound = floor(campaign)
    if bound:
        parts.append("floor {:.1f} (ready {:.1f} + cases {:.1f} + shrink {:.1f})".format(sum(bound), *bound))
    return "; ".join(parts)


def floor(campaign):
    """The campaign's floor as (last worker ready, cases up to the lowest failing case over the workers, its shrink),
    in milliseconds; None without a finished shrink."""
    t0 = campaign[0][1]
    workers = {e[0] for e in campaign if e[3] == "serve"}
    started, ended = {}, {}
    for pid, at, _, event in campaign:
        word, *rest = event.split()
        if word == "shrink-start":
            started.setdefault(int(rest[0]), (pid, at))
        elif word == "shrink-end" and rest and int(rest[0]) in started and started[int(rest[0])][0] == pid:
            ended.setdefault(int(rest[0]), at)
    done = [case for case in started if case in ended]
    if not workers or not done:
        return None
    lowest = min(done)
    time, last = 0.0, {}
    for pid, at, _, event in campaign:
        if pid in last:
            case, began = last.pop(pid)
            if case <= lowest:
                time += at - began
        if event.startswith("case "):
            last[pid] = (int(event.split()[1]), at)
    ready = max(at for pid, at, _, event in campaign if event == "serve") - t0
    return ready, time / len(workers), ended[lowest] - started[lowest][1]


def case_durations(events):
    last, durations = {}, []
    for pid, ms, _, event in events:
        if event.startswith("case "):
            if pid in last:
                durations.append(ms - last[pid])
            last[pid] = ms
        else:
            last.pop(pid, None)
    return sorted(durations)


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a reader that stops early (`| head`) ends it quietly
    if len(sys.argv) != 2:
        fail("usage: phase-summary.py LOG")
    events = read(sys.argv[1])
    floors, reports = [], []
    for campaign in campaigns(events):
        print(summary(campaign))
        bound = floor(campaign)
        report = next((e[1] - campaign[0][1] for e in campaign if e[3].startswith("report ")), None)
        if bound and report is not None:
            floors.append(sum(bound))
            reports.append(report)
    if len(floors) > 1:
        median = lambda values: sorted(values)[len(values) // 2] if len(values) % 2 else sum(sorted(values)[len(values) // 2 - 1:][:2]) / 2
        print(f"campaigns with a report: {len(floors)}; median floor {median(floors):.1f} ms, median report {median(reports):.1f} ms")
    durations = case_durations(events)
    if durations:
        total = sum(durations)
        print(f"cases timed: {len(durations)}, {total:.1f} ms, median {durations[len(durations) // 2]:.3f} ms")
        for threshold in (1, 2, 5, 10):
            slow = [d for d in durations if d > threshold]
            print(f"  over {threshold} ms: {len(slow)} cases, {sum(slow):.1f} ms ({100 * sum(slow) / total:.0f}%)")


if __name__ == "__main__":
    main()
