#!/usr/bin/python3
"""A stand-in for the drape CLI in the batch engine's logic tests (no simulation).

`--version` prints a version; `[--threads N] dress --body B --pattern P --out DIR ...`
writes garment.obj (the pattern file's bytes, so a result names its input) and a
report.json. What it does is decided by the pattern file's first line:
  "ok"            -> exit 0
  "bad"           -> exit 2 (bad input)
  "diverge"       -> exit 3 (simulation failed)
  "crash-once"    -> first attempt (per OUT folder's parent) killed by SIGKILL, then ok
  "crash"         -> always killed by SIGKILL
  "hang"          -> sleeps a minute
Every call appends "<pattern> <pid>" to $FAKE_DRAPE_LOG when set.
"""
import json
import os
import signal
import sys

args = sys.argv[1:]
if args == ["--version"]:
    print("drape fake-1")
    sys.exit(0)
if args[:1] == ["--threads"]:
    args = args[2:]
assert args[0] == "dress", args
opts = {}
i = 1
while i < len(args):
    if args[i] in ("--body", "--pattern", "--out", "--fabric", "--particle-distance", "--max-frames"):
        opts[args[i]] = args[i + 1]
        i += 2
    else:
        i += 1
pattern, out = opts["--pattern"], opts["--out"]
if os.environ.get("FAKE_DRAPE_LOG"):
    with open(os.environ["FAKE_DRAPE_LOG"], "a") as f:
        f.write(f"{os.path.basename(pattern)} {os.getpid()}\n")
mode = open(pattern).readline().strip()
if mode == "bad":
    print(f"drape: error: {pattern}: line 1: not a pattern", file=sys.stderr)
    sys.exit(2)
if mode == "hang":
    import time
    time.sleep(60)
if mode == "diverge":
    print("drape: error: simulation diverged at frame 3", file=sys.stderr)
    sys.exit(3)
if mode in ("crash", "crash-once"):
    marker = pattern + ".crashed"
    if mode == "crash" or not os.path.exists(marker):
        open(marker, "w").close()
        os.kill(os.getpid(), signal.SIGKILL)
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "garment.obj"), "w") as f:
    f.write(open(pattern).read())
report = {"result": {"stop_reason": "equilibrium", "frames": 7, "seams": {"pairs": 4, "joined": 4},
                     "intersections": {"vertices_inside_body": 0, "body_crossing_pairs": 0,
                                       "self_crossing_pairs": 1}, "strain": {"max": 0.05}}}
with open(os.path.join(out, "report.json"), "w") as f:
    json.dump(report, f)
