#!/usr/bin/env bash
# Regenerates the derived parts of the repository: the rule tables of docs/spec.md and the exported corpus tests.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product graph-fuzz >/dev/null
tables=$(.build/debug/graph-fuzz list --markdown)
python3 - "$tables" <<'PY'
import sys, re
tables = sys.argv[1]
path = "docs/spec.md"
text = open(path).read()
begin, end = "<!-- BEGIN GENERATED: graph-fuzz list --markdown -->", "<!-- END GENERATED -->"
head, rest = text.split(begin, 1)
_, tail = rest.split(end, 1)
open(path, "w").write(head + begin + "\n" + tables + "\n" + end + tail)
PY
.build/debug/graph-fuzz export-tests
