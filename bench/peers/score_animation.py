#!/usr/bin/env python3
"""Scores a garment cache frame by frame with `drape check` (bench/peers/README.md).

  python3 bench/peers/score_animation.py --drape build/apps/drape/drape --anim OUT \
      [--garment-pc2 OUT/blender_garment.pc2] [--json] [--up A --front A --body-unit U]

For every sample s of the garment cache (default: OUT/garment.pc2, drape's own),
writes garment.obj with sample s's positions and body.obj with body.pc2's
sample s (every other OBJ line kept: groups, faces, the unit comment), runs
`drape check --body BODY_s --garment GARMENT_s --json` (with the unit and axes of
the run's input body, report.json's inputs.body, unless given) and prints one line per
frame: cache frame, vertices inside the body, crossing cloth-body pairs,
crossing cloth-cloth pairs; then a summary (frames, clean frames, sums and
maxima over every frame and over the frames after the first). With --json,
one JSON object instead. Scoring drape's own garment.pc2 this way gives
report.json's per-frame counts (a check of the scorer).

The PC2 reader is Python's struct module on the Point Cache 2 layout
(docs/ANIMATION.md), independent of drape's writer.
"""

import argparse
import json
import os
import struct
import subprocess
import sys
import tempfile


def read_pc2(path):
    with open(path, "rb") as f:
        data = f.read()
    magic, version, points, start, sampling, samples = struct.unpack_from("<12siiffi", data, 0)
    if magic != b"POINTCACHE2\0" or len(data) != 32 + 12 * points * samples:
        sys.exit("%s: not a Point Cache 2 file of its header's size" % path)
    frames = []
    for s in range(samples):
        flat = struct.unpack_from("<%df" % (3 * points), data, 32 + 12 * points * s)
        frames.append([flat[3 * i:3 * i + 3] for i in range(points)])
    return {"points": points, "start": start, "frames": frames}


def write_with_positions(template_lines, positions, path):
    """template's OBJ with its `v` lines, in order, replaced by positions."""
    it = iter(positions)
    with open(path, "w") as out:
        for line in template_lines:
            if line.startswith("v "):
                p = next(it)
                out.write("v %.7g %.7g %.7g\n" % (p[0], p[1], p[2]))
            else:
                out.write(line)
    if next(it, None) is not None:
        sys.exit("%s: more cache points than OBJ vertices" % path)


def body_frame_options(a):
    """`drape check` options giving every frame's body the unit and axes of the run's input body.

    The outputs are in the input body file's unit and axes (docs/ANIMATION.md), and a posed
    body (arms up, a jump) need not be detected as a standing one, so the unit and axes are
    read once from the input body (report.json's inputs.body) unless given."""
    if a.up and a.front and a.body_unit:
        return ["--body-unit", a.body_unit, "--up", a.up, "--front", a.front]
    with open(os.path.join(a.anim, "report.json")) as f:
        source = json.load(f)["inputs"]["body"]
    r = subprocess.run([a.drape, "check", "--body", source, "--garment", os.path.join(a.anim, "garment.obj"),
                        "--json"], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("reading the input body %s failed (give --up, --front and --body-unit): %s"
                 % (source, r.stderr.strip()))
    c = json.loads(r.stdout)
    up, front = c["body_axes"].split(" up, facing ")  # e.g. "+y up, facing +z"
    return ["--body-unit", a.body_unit or c["body_unit"], "--up", a.up or up, "--front", a.front or front]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--drape", required=True, help="the drape binary")
    p.add_argument("--anim", required=True, help="a `drape animate` output folder")
    p.add_argument("--garment-pc2", help="the garment cache to score (default: ANIM/garment.pc2)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--up", help="the body's up axis in the outputs (default: the input body's)")
    p.add_argument("--front", help="the axis the body faces (default: the input body's)")
    p.add_argument("--body-unit", help="the outputs' unit (default: the input body's)")
    a = p.parse_args()
    garment_pc2 = a.garment_pc2 or os.path.join(a.anim, "garment.pc2")
    garment = read_pc2(garment_pc2)
    body = read_pc2(os.path.join(a.anim, "body.pc2"))
    with open(os.path.join(a.anim, "garment.obj")) as f:
        garment_obj = f.readlines()
    with open(os.path.join(a.anim, "body.obj")) as f:
        body_obj = f.readlines()
    for name, lines, cache in (("garment", garment_obj, garment), ("body", body_obj, body)):
        n = sum(1 for line in lines if line.startswith("v "))
        if n != cache["points"]:
            sys.exit("%s.obj has %d vertices, its cache %d points" % (name, n, cache["points"]))
    samples = min(len(garment["frames"]), len(body["frames"]))
    rows = []
    frame_options = body_frame_options(a)
    with tempfile.TemporaryDirectory() as tmp:
        g_path, b_path = os.path.join(tmp, "garment.obj"), os.path.join(tmp, "body.obj")
        for s in range(samples):
            write_with_positions(garment_obj, garment["frames"][s], g_path)
            write_with_positions(body_obj, body["frames"][s], b_path)
            r = subprocess.run([a.drape, "check", "--body", b_path, "--garment", g_path, "--json"] + frame_options,
                               capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit("drape check failed at sample %d: %s" % (s, r.stderr.strip()))
            c = json.loads(r.stdout)
            rows.append({"frame": int(garment["start"]) + s, "inside": c["vertices_inside_body"],
                         "body": c["body_crossing_pairs"], "self": c["self_crossing_pairs"]})

    def summary(rs):
        return {"frames": len(rs), "clean_frames": sum(1 for r in rs if r["inside"] + r["body"] + r["self"] == 0),
                "inside_sum": sum(r["inside"] for r in rs), "body_sum": sum(r["body"] for r in rs),
                "self_sum": sum(r["self"] for r in rs), "inside_max": max((r["inside"] for r in rs), default=0),
                "body_max": max((r["body"] for r in rs), default=0),
                "self_max": max((r["self"] for r in rs), default=0)}

    result = {"garment_pc2": garment_pc2, "check_options": frame_options, "frames": rows, "all": summary(rows),
              "after_first": summary(rows[1:])}
    if a.json:
        print(json.dumps(result))
        return
    print("frame inside body self")
    for r in rows:
        print("%5d %6d %4d %4d" % (r["frame"], r["inside"], r["body"], r["self"]))
    for k in ("all", "after_first"):
        print(k + ": " + ", ".join("%s %d" % kv for kv in result[k].items()))


main()
