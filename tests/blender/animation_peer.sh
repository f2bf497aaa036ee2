#!/usr/bin/env bash
# The Blender animation peer and its scorer (bench/peers/blender_animation.py,
# bench/peers/score_animation.py) on a tiny `drape animate` run:
#   tests/blender/animation_peer.sh DRAPE_BINARY DATA_DIR
# 1. score_animation.py on drape's own garment.pc2 gives report.json's per-frame
#    counts (drape check per frame from the caches against the run's own measure;
#    the shirt's short rest drape leaves it crossing the posed body: counts not 0).
# 2. The peer writes a PC2 of garment.obj's points, one sample per cache frame,
#    the header's start frame A, sample 0 = drape's frame A (the shared start), and
#    later samples that moved, in Blender at the unit garment.obj states (dm:
#    0.1 m per unit); the scorer reads it.
# Exits 77 (ctest: skipped) when blender is not installed.
set -euo pipefail
drape=$1
data=$2
command -v blender >/dev/null || { echo "blender not installed: skipped"; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
peers=$here/../../bench/peers
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$drape" animate --body "$data/bodies/makehuman/base.obj" \
  --pattern "$data/patterns/garmentcode/shirt_mean_specification.json" --particle-distance 40 \
  --max-frames 60 --motion "$data/motion/cmu_jumping_jacks.bvh" --frames 0:2 --blend-frames 5 \
  --settle-frames 1 --sheet-frames 0 --no-mp4 --quiet --arm-clearance 0 --out "$work/anim"
python3 "$peers/score_animation.py" --drape "$drape" --anim "$work/anim" --json >"$work/drape_score.json"
status=0
blender -b --factory-startup -t 2 --python-exit-code 1 --python "$peers/blender_animation.py" -- \
  --anim "$work/anim" --steps 2 --self-collision --frames 2 \
  --out-pc2 "$work/blender.pc2" >"$work/blender.log" 2>&1 || status=$?
grep -E '^\{"tool"' "$work/blender.log" >"$work/blender.json" || { tail -n 20 "$work/blender.log"; exit 1; }
cat "$work/blender.json"
[ "$status" = 0 ] || exit 1
python3 "$peers/score_animation.py" --drape "$drape" --anim "$work/anim" --garment-pc2 "$work/blender.pc2" \
  --json >"$work/blender_score.json"
python3 - "$work" <<'PY'
import json, math, struct, sys
work = sys.argv[1]
failures = []
def check(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name + (": " + detail if detail else ""))
    if not ok:
        failures.append(name)
def read_pc2(path):
    data = open(path, "rb").read()
    magic, version, points, start, sampling, samples = struct.unpack_from("<12siiffi", data, 0)
    frames = [struct.unpack_from("<%df" % (3 * points), data, 32 + 12 * points * s) for s in range(samples)]
    return magic, version, points, start, sampling, frames, len(data) == 32 + 12 * points * samples

report = json.load(open(work + "/anim/report.json"))
score = json.load(open(work + "/drape_score.json"))
want = [(f["motion_frame"], f["vertices_inside_body"], f["body_crossing_pairs"], f["self_crossing_pairs"])
        for f in report["frames"]]
got = [(r["frame"], r["inside"], r["body"], r["self"]) for r in score["frames"]]
check("scorer on garment.pc2 = report.json per frame", got == want, "%s vs %s" % (got, want))
# (--arm-clearance 0 above: the arms sunk into the torso make crossings)
check("the frames have crossings to count", all(w[2] > 0 for w in want))

drape_pc2 = read_pc2(work + "/anim/garment.pc2")
peer = read_pc2(work + "/blender.pc2")
check("peer PC2 header", peer[0] == b"POINTCACHE2\0" and peer[1] == 1 and peer[4] == 1.0 and peer[6],
      "magic %r version %d sampling %g" % (peer[0], peer[1], peer[4]))
check("peer PC2: garment.obj's points, 3 samples from frame 0",
      peer[2] == drape_pc2[2] and len(peer[5]) == 3 and peer[3] == 0.0,
      "%d points (drape %d), %d samples, start %g" % (peer[2], drape_pc2[2], len(peer[5]), peer[3]))
d0 = max(abs(a - b) for a, b in zip(peer[5][0], drape_pc2[5][0]))
check("peer sample 0 = drape's frame 0 (the shared start)", d0 < 1e-5, "largest difference %.3g" % d0)
moved = max(abs(a - b) for a, b in zip(peer[5][2], peer[5][0]))
check("the peer's garment moves", moved > 1e-3 and all(math.isfinite(c) for c in peer[5][2]), "%.3g" % moved)
timing = json.load(open(work + "/blender.json"))
check("the peer reads the unit (dm) from garment.obj", timing["unit_scale"] == 0.1, "%g" % timing["unit_scale"])
bscore = json.load(open(work + "/blender_score.json"))
check("scorer reads the peer's 3 frames", [r["frame"] for r in bscore["frames"]] == [0, 1, 2])
print("animation peer: %d failed" % len(failures))
sys.exit(1 if failures else 0)
PY
