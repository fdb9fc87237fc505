#!/usr/bin/env python3
"""Instructions of a callgrind profile with and without the calls into SQLite.

Usage: scripts/callgrind-without-sqlite.py callgrind.out

Prints the profile's total and the inclusive cost of every call made from outside into SQLite
(`libsqlite3`, or a function whose name contains `SQLite` or `ScratchStoreFile`: the SQLite
backend's types; calls made from a function of unknown object are SQLite's own calls through its
stubs, already inside the outer call, and are not counted again), the figure scripts/throughput-compare.sh leaves out
to compare with builds that had no SQLite backend. Subtract the same figures of the `--runs 1` profile (start-up) before dividing by
the steps the run reports.
"""
import re
import sys


def is_sqlite(function, obj):
    return "libsqlite3" in (obj or "") or "SQLite" in function or "ScratchStoreFile" in function


def main(path):
    functions, objects = {}, {}
    current_fn = current_ob = called_fn = called_ob = None
    total = sqlite = 0
    after_calls = False

    def name(table, text):
        match = re.match(r"\((\d+)\)(?: (.*))?", text)
        if not match:
            return text
        if match.group(2) is not None:
            table[match.group(1)] = match.group(2)
        return table.get(match.group(1), "?")

    with open(path, errors="replace") as profile:
        for line in profile:
            line = line.rstrip("\n")
            if line.startswith("summary:"):
                total = int(line.split()[1])
            elif line.startswith("ob="):
                current_ob = name(objects, line[3:])
            elif line.startswith("fn="):
                current_fn = name(functions, line[3:])
                called_ob = None
            elif line.startswith("cob="):
                called_ob = name(objects, line[4:])
            elif line.startswith("cfn="):
                called_fn = name(functions, line[4:])
            elif line.startswith("calls="):
                after_calls = True
            elif after_calls and line and (line[0].isdigit() or line[0] in "+-*"):
                after_calls = False
                fields = line.split()
                cost = int(fields[1]) if len(fields) > 1 else 0
                # A caller of unknown object is a stub inside SQLite (its internal calls through the
                # PLT, already inside the outer call's inclusive cost), never Swift code.
                if is_sqlite(called_fn, called_ob or current_ob) and not is_sqlite(current_fn, current_ob) and current_ob != "???":
                    sqlite += cost
                called_ob = None
    print(f"total {total} sqlite {sqlite} without {total - sqlite}")


if __name__ == "__main__":
    main(sys.argv[1])
