"""Blender 3.4 peer for `drape bench cloth`: drapes the same garment mesh on the
same body with Blender's cloth (Baraff-Witkin implicit solver), then writes the
result so `drape check` can score both tools the same way.

Run headless (see bench/peers/README.md):

  blender -b --factory-startup -t 2 --python bench/peers/blender_cloth.py -- \
      --body data/bodies/makehuman/base.obj --body-group body \
      --garment /tmp/cone/cone_2000_start.obj --unit-scale 0.1 \
      --frames 30 --steps 5 --self-collision --out /tmp/cone/blender_2000.obj

Both OBJ files are in the body's unit (decimetres for MakeHuman); --unit-scale
converts them to metres so that Blender's gravity (9.81 scene units/s^2) is
right. The garment is written back in the input unit and axes. Timing goes to
stdout as one JSON line: wall time of the whole frame loop, per frame (frame 1,
the start state, holds Blender's cloth and collision set-up), and the mean over
the simulated frames 2..frames+1 (`s_per_frame_after_first`).

Cloth parameters are Blender's own cotton preset in Blender's units, with time
scaled so that a frame is 1/fps s (drape: 1/60 s). Check: a cone falling past a
needle-thin body drops 1.041 m in 30 frames; the analytic fall with drag 1/s
(drape's air damping) is 1.045 m.
"""

import argparse
import json
import os
import sys
import time

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from blender_cloth_setup import add_body_and_sewn_cloth, import_obj, write_evaluated_obj  # noqa: E402


def parse_args():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    p = argparse.ArgumentParser()
    p.add_argument("--body", required=True)
    p.add_argument("--body-group", default="body")
    p.add_argument("--garment", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--unit-scale", type=float, default=1.0, help="metres per file unit")
    p.add_argument("--frames", type=int, default=30)
    p.add_argument("--steps", type=int, default=5, help="cloth quality = steps per frame")
    p.add_argument("--self-collision", action="store_true")
    p.add_argument("--thickness", type=float, default=0.003, help="collision distance, metres")
    p.add_argument("--sewing-force-max", type=float, default=0.05)
    p.add_argument("--fps", type=float, default=60, help="frames per simulated second (drape's frame_rate)")
    p.add_argument("--mass", type=float, default=0.3, help="kg per vertex (Blender's cotton preset)")
    return p.parse_args(argv)


def main():
    a = parse_args()
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    body_objs = import_obj(a.body, split_groups=bool(a.body_group))
    body = None
    if a.body_group:
        # Each group's object is named after the group (exact match: "body" must not keep
        # other groups whose names contain it).
        for o in body_objs:
            if o.name == a.body_group:
                body = o
        if body is None:
            sys.exit("no object for group '%s' in %s (have: %s)" % (a.body_group, a.body,
                                                                    ", ".join(o.name for o in body_objs)))
        for o in body_objs:
            if o is not body:
                bpy.data.objects.remove(o, do_unlink=True)
    else:
        body = body_objs[0]
    garment = import_obj(a.garment)[0]
    cloth = add_body_and_sewn_cloth(body, garment, a)
    cloth.point_cache.frame_start = 1
    cloth.point_cache.frame_end = a.frames + 1
    scene.frame_start = 1
    scene.frame_end = a.frames + 1

    # Frame 1 is the start state; frames 2..frames+1 are simulated.
    frame_s = []
    t0 = time.perf_counter()
    for f in range(1, a.frames + 2):
        tf = time.perf_counter()
        scene.frame_set(f)
        frame_s.append(round(time.perf_counter() - tf, 4))
    wall = time.perf_counter() - t0

    write_evaluated_obj(garment, a.out,
                        "Blender %s cloth, %d frames x %d steps" % (bpy.app.version_string, a.frames, a.steps))
    print(json.dumps({"tool": "blender", "version": bpy.app.version_string,
                      "vertices": len(garment.data.vertices), "frames": a.frames, "steps_per_frame": a.steps,
                      "self_collision": a.self_collision,
                      "threads": scene.render.threads, "time_scale": cloth.settings.time_scale,
                      "wall_s": wall, "s_per_frame": wall / a.frames,
                      "s_per_frame_after_first": sum(frame_s[1:]) / a.frames, "frame_s": frame_s,
                      "out": a.out}))


main()
