"""Blender 3.4 peer for `drape dress` on the same sewn start (issue 17 item 5):
the garment as drape placed it (`drape dress --write-start DIR`: start.obj,
seams.json, body.obj), its seam vertex pairs sewn by Blender's sewing springs
(a loose edge per pair), draped on the same body with Blender's cloth, frame by
frame until it rests by drape's own rule or --max-frames; writes the result so
that `drape check` scores both tools the same way.

  blender -b --factory-startup -t 2 --python bench/peers/blender_dress.py -- \
      --start DIR --unit-scale 0.1 --steps 5 --self-collision --out DIR/blender.obj

Rest, as drape's equilibrium rule (ClothSettings::equilibrium_distance and
equilibrium_fraction): at least 99 % of the vertices move less than 0.5 mm in
a frame, once --min-frames frames have run. Timing goes to stdout as one JSON
line: wall time to that frame (`wall_s_to_rest`, null when it never rests),
the whole loop's, and the frame it rested at. Cloth parameters: Blender's
cotton preset in Blender's units, a frame lasting 1/60 s as drape's
(blender_cloth_setup.py).
"""

import argparse
import json
import os
import sys
import time

import bpy
import bmesh

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from blender_cloth_setup import add_body_and_sewn_cloth, import_one_obj, write_evaluated_obj  # noqa: E402


def parse_args():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    p = argparse.ArgumentParser()
    p.add_argument("--start", required=True, help="folder written by drape dress --write-start")
    p.add_argument("--out", required=True)
    p.add_argument("--unit-scale", type=float, default=1.0, help="metres per file unit")
    p.add_argument("--max-frames", type=int, default=600)
    p.add_argument("--min-frames", type=int, default=30)
    p.add_argument("--steps", type=int, default=5, help="cloth quality = steps per frame")
    p.add_argument("--self-collision", action="store_true")
    p.add_argument("--thickness", type=float, default=0.003, help="collision distance, metres")
    # At the cone peer's 0.05 (and 30 frames without gravity) the shirt's shoulder
    # seams did not close before gravity came on and it slid off the body to the feet.
    p.add_argument("--sewing-force-max", type=float, default=5.0)
    p.add_argument("--fps", type=float, default=60)
    p.add_argument("--mass", type=float, default=0.3, help="kg per vertex (Blender's cotton preset)")
    p.add_argument("--zero-gravity-frames", type=int, default=60,
                   help="frames sewn without gravity first, as drape's schedule (ClothSettings::zero_gravity_frames)")
    p.add_argument("--rest-distance", type=float, default=0.0005, help="metres per frame")
    p.add_argument("--rest-fraction", type=float, default=0.99)
    return p.parse_args(argv)


def positions(obj):
    depsgraph = bpy.context.evaluated_depsgraph_get()
    ev = obj.evaluated_get(depsgraph)
    mesh = ev.to_mesh()
    co = [tuple(v.co) for v in mesh.vertices]
    ev.to_mesh_clear()
    return co


def main():
    a = parse_args()
    with open(os.path.join(a.start, "seams.json")) as fh:
        seams = json.load(fh)
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    body = import_one_obj(os.path.join(a.start, seams.get("body", "body.obj")))
    garment = import_one_obj(os.path.join(a.start, seams.get("garment", "start.obj")))
    n = len(garment.data.vertices)
    if n != seams["vertices"]:
        sys.exit("start.obj has %d vertices, seams.json says %d" % (n, seams["vertices"]))
    # Blender sews along loose edges: one per seam pair.
    bm = bmesh.new()
    bm.from_mesh(garment.data)
    bm.verts.ensure_lookup_table()
    for i, j in seams["pairs_0_based"]:
        if bm.edges.get((bm.verts[i], bm.verts[j])) is None:
            bm.edges.new((bm.verts[i], bm.verts[j]))
    bm.to_mesh(garment.data)
    bm.free()
    cloth = add_body_and_sewn_cloth(body, garment, a)
    # Sewn without gravity first (drape's schedule; Blender users sew with gravity off
    # too): a panel not yet held by its seams would fall past the body.
    if a.zero_gravity_frames > 0:
        w = cloth.settings.effector_weights
        w.gravity = 0.0
        w.keyframe_insert("gravity", frame=1)
        w.keyframe_insert("gravity", frame=1 + a.zero_gravity_frames)
        w.gravity = 1.0
        w.keyframe_insert("gravity", frame=2 + a.zero_gravity_frames)
    cloth.point_cache.frame_start = 1
    cloth.point_cache.frame_end = a.max_frames + 1
    scene.frame_start = 1
    scene.frame_end = a.max_frames + 1

    limit = a.rest_distance / a.unit_scale  # in file units, as the mesh coordinates
    frame_s = []
    rest_frame = None
    wall_to_rest = None
    t0 = time.perf_counter()
    scene.frame_set(1)  # the start state
    before = positions(garment)
    for f in range(2, a.max_frames + 2):
        tf = time.perf_counter()
        scene.frame_set(f)
        frame_s.append(round(time.perf_counter() - tf, 4))
        now = positions(garment)
        moving = sum(1 for p, q in zip(now, before)
                     if (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 + (p[2] - q[2]) ** 2 > limit * limit)
        before = now
        if f - 1 >= max(a.min_frames, a.zero_gravity_frames + 5) and moving <= (1 - a.rest_fraction) * n:
            rest_frame = f - 1
            wall_to_rest = time.perf_counter() - t0
            break
    wall = time.perf_counter() - t0

    write_evaluated_obj(garment, a.out, "Blender %s cloth from drape's sewn start, %d steps per frame"
                        % (bpy.app.version_string, a.steps))
    print(json.dumps({"tool": "blender", "version": bpy.app.version_string, "vertices": n,
                      "seam_pairs": len(seams["pairs_0_based"]), "steps_per_frame": a.steps,
                      "self_collision": a.self_collision, "threads": scene.render.threads,
                      "rest_frame": rest_frame, "wall_s_to_rest": wall_to_rest, "wall_s": wall,
                      "frames_run": len(frame_s), "out": a.out}))


main()
