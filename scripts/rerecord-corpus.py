#!/usr/bin/env python3
"""Re-records the regression corpus after the generators change, and adds a case for a new mutant.

Every corpus case keeps replaying from its trace when generators change (replay reports drift), but its
recorded choices no longer make that trace, so it cannot seed libFuzzer or be re-shrunk. This script asks
`graph-fuzz` for a fresh shrunk case of every named mutant (`graph-fuzz list --json`): it searches seeds 1, 2, …
until the mutant fails under the rule its corpus case names (for a mutant without a case: the rule the mutant
declares first), saves that case, and removes the case it replaces when the new trace has another name.
Cases of no named mutant are left as they are. Usage: scripts/rerecord-corpus.py [graph-fuzz binary] [Corpus]
[target …] (only those targets' cases when targets are named; every target's otherwise).
"""
import json
import os
import subprocess
import sys
import tempfile

BINARY = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/graph-fuzz"
CORPUS = sys.argv[2] if len(sys.argv) > 2 else "Corpus"
TARGETS = set(sys.argv[3:])
SEEDS = range(1, 21)


def header(path):
    fields = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("step:"):
                break
            if ":" in line and not line.startswith("#"):
                key, value = line.split(":", 1)
                fields[key.strip()] = value.strip()
    return fields


def mutants():
    out = subprocess.run([BINARY, "list", "--json"], capture_output=True, text=True, check=True).stdout
    events = [json.loads(line) for line in out.splitlines() if line.strip()]
    return [(e["target"], e["mutant"], e.get("rules") or [e["rule"]]) for e in events if e.get("event") == "mutant"]


def fresh_case(target, mutant, rule, folder):
    for seed in SEEDS:
        run = subprocess.run([BINARY, "--target", target, "--mutant", mutant, "--seed", str(seed), "--json",
                              "--quiet", "--corpus", folder], capture_output=True, text=True)
        if run.returncode not in (0, 1):
            sys.exit(f"{mutant}: graph-fuzz exited {run.returncode}: {run.stderr.strip()}")
        for line in run.stdout.splitlines():
            event = json.loads(line)
            if event.get("event") == "failure" and event.get("rule") == rule and event.get("corpusFile"):
                return event["corpusFile"]
    return None


def main():
    existing = {}
    for name in sorted(os.listdir(CORPUS)):
        if name.endswith(".case"):
            fields = header(os.path.join(CORPUS, name))
            existing.setdefault((fields.get("target"), fields.get("mutant")), []).append((name, fields.get("rule")))
    for target, mutant, rules in mutants():
        if TARGETS and target not in TARGETS:
            continue
        wanted = existing.get((target, mutant)) or [(None, rules[0])]
        for old, rule in wanted:
            with tempfile.TemporaryDirectory() as folder:
                found = fresh_case(target, mutant, rule, folder)
                if found is None:
                    print(f"{target} {mutant}: no failure under {rule} with seeds 1–20; {old or 'nothing'} kept")
                    continue
                name = os.path.basename(found)
                os.replace(found, os.path.join(CORPUS, name))
                if old and old != name:
                    os.remove(os.path.join(CORPUS, old))
                print(f"{target} {mutant} {rule}: {name}" + (f" (replaces {old})" if old and old != name else ""))


if __name__ == "__main__":
    main()
