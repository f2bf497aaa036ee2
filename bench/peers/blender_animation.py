"""Blender 3.4 peer for `drape animate`: the same garment through the same body
motion with Blender's cloth, written as a Point Cache 2 that
bench/peers/score_animation.py scores frame by frame with `drape check`, the
same way as drape's own garment.pc2.

Run headless on a `drape animate` output folder (see bench/peers/README.md):

  blender -b --factory-startup -t 2 --python bench/peers/blender_animation.py -- \
      --anim OUT --steps 5 --self-collision --out-pc2 OUT/blender_garment.pc2

What it uses from OUT (all in the body file's unit and axes):
  body.obj + body.pc2     the posed body at each cache frame A..B, played by a
                          Mesh Cache modifier under a Collision modifier;
  garment.obj             drape's garment at frame A (welded at the seams, in
                          garment.pc2's vertex order): Blender's start state;
  report.json             the frame time (settings.frame_seconds).
The unit scale (Blender works in metres: gravity 9.81) is read from
garment.obj's `# drape ... unit: dm` comment unless --unit-scale is given.
Blender's scene frame 1 is cache frame A (the start state, as drape left it);
scene frame 1 + s simulates cache frame A + s against body.pc2's sample s.
So both tools share frame A and the comparison is frames A+1..B. drape came to
frame A through its own rest drape, blend and settle frames, which Blender does
not repeat (body.pc2 holds only the cache frames).

The written PC2 has one sample per cache frame (sample 0 = the start state), the
header's start frame A, in garment.obj's vertex order and the file's axes and
unit (the cloth modifier's output is in object space; the import's axis turn
and the unit scale live only in the object matrix). Timing goes to stdout as
one JSON line: `frame_s` per scene frame (frame 1, the start state, holds
Blender's cloth and collision set-up) and `s_per_frame` over the simulated
frames 2..N (compare with drape's per-frame `wall_s`).

Cloth: Blender's cotton preset in Blender's units with time scaled so that a
frame lasts the motion's frame time, as bench/peers/blender_cloth.py does (its
docstring and bench/peers/README.md say why); collision distances = drape's
thickness (3 mm).
"""

import argparse
import json
import os
import struct
import sys
import time

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from blender_cloth_setup import add_body_collision, add_cotton_cloth, import_one_obj  # noqa: E402


def parse_args():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    p = argparse.ArgumentParser()
    p.add_argument("--anim", required=True, help="a `drape animate` output folder")
    p.add_argument("--out-pc2", required=True, help="the garment per cache frame (Point Cache 2)")
    p.add_argument("--unit-scale", type=float, default=0,
                   help="metres per file unit (default: from garment.obj's unit comment; 0.1 = decimetres)")
    p.add_argument("--steps", type=int, default=5, help="cloth quality = steps per frame")
    p.add_argument("--collision-quality", type=int, default=2, help="Blender's collision passes per step")
    p.add_argument("--self-collision", action="store_true")
    p.add_argument("--thickness", type=float, default=0.003, help="collision distance, metres")
    p.add_argument("--fps", type=float, default=0, help="frames per second (default: report.json's)")
    p.add_argument("--mass", type=float, default=0.3, help="kg per vertex (Blender's cotton preset)")
    p.add_argument("--frames", type=int, default=0, help="simulate only this many frames after A (0: all)")
    return p.parse_args(argv)


METRES_PER_UNIT = {"m": 1.0, "dm": 0.1, "cm": 0.01, "mm": 0.001, "in": 0.0254}


def unit_scale_of(obj_path):
    """Metres per unit from drape's OBJ comment `# drape ... mesh, unit: dm`."""
    with open(obj_path) as f:
        first = f.readline()
    unit = first.rsplit("unit:", 1)[-1].strip() if first.startswith("#") and "unit:" in first else ""
    if unit not in METRES_PER_UNIT:
        sys.exit("%s: no drape unit comment; give --unit-scale (metres per file unit)" % obj_path)
    return METRES_PER_UNIT[unit]


def read_pc2_header(path):
    with open(path, "rb") as f:
        magic, version, points, start, sampling, samples = struct.unpack("<12siiffi", f.read(32))
    if magic != b"POINTCACHE2\0":
        sys.exit("%s: not a Point Cache 2 file" % path)
    return {"points": points, "start": start, "sampling": sampling, "samples": samples}


def write_pc2(path, frames, start):
    with open(path, "wb") as f:
        f.write(struct.pack("<12siiffi", b"POINTCACHE2\0", 1, len(frames[0]), float(start), 1.0, len(frames)))
        for frame in frames:
            f.write(struct.pack("<%df" % (3 * len(frame)), *[c for p in frame for c in p]))


def body_cache_error(body, pc2_path, sample):
    """Largest distance between the evaluated body now and body.pc2's `sample` (file units)."""
    with open(pc2_path, "rb") as f:
        points = struct.unpack_from("<i", f.read(32), 16)[0]
        f.seek(32 + 12 * points * sample)
        flat = struct.unpack("<%df" % (3 * points), f.read(12 * points))
    ev = body.evaluated_get(bpy.context.evaluated_depsgraph_get())
    mesh = ev.to_mesh()
    worst = max(max(abs(v.co[k] - flat[3 * i + k]) for k in range(3)) for i, v in enumerate(mesh.vertices))
    ev.to_mesh_clear()
    return worst


def main():
    a = parse_args()
    body_pc2 = read_pc2_header(os.path.join(a.anim, "body.pc2"))
    fps = a.fps
    if fps <= 0:
        with open(os.path.join(a.anim, "report.json")) as f:
            fps = 1.0 / json.load(f)["settings"]["frame_seconds"]
    unit_scale = a.unit_scale if a.unit_scale > 0 else unit_scale_of(os.path.join(a.anim, "garment.obj"))
    samples = body_pc2["samples"] if a.frames <= 0 else min(body_pc2["samples"], a.frames + 1)

    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    body = import_one_obj(os.path.join(a.anim, "body.obj"))
    garment = import_one_obj(os.path.join(a.anim, "garment.obj"))
    if len(body.data.vertices) != body_pc2["points"]:
        sys.exit("body.obj has %d vertices, body.pc2 %d points" % (len(body.data.vertices), body_pc2["points"]))
    for o in (body, garment):
        o.scale = (unit_scale,) * 3
    bpy.context.view_layer.update()

    # The body moves by its cache; the collision modifier comes after it in the stack, so
    # Blender collides with the cached (posed) body, its velocity from consecutive frames.
    cache = body.modifiers.new("Cache", "MESH_CACHE")
    cache.cache_format = "PC2"
    cache.filepath = os.path.abspath(os.path.join(a.anim, "body.pc2"))
    # Frame mode: sample = scene frame - frame_start (the header's start is ignored).
    cache.frame_start = 1
    add_body_collision(body, a.thickness)
    cloth = add_cotton_cloth(garment, a.steps, a.mass, fps, a.thickness, a.self_collision)
    cloth.collision_settings.collision_quality = a.collision_quality
    cloth.point_cache.frame_start = 1
    cloth.point_cache.frame_end = samples
    scene.frame_start = 1
    scene.frame_end = samples
    scene.render.fps = max(1, round(fps))

    # Scene frame 1 is the start state (cache frame A); frames 2..samples are simulated.
    frame_s, frames = [], []
    t0 = time.perf_counter()
    for f in range(1, samples + 1):
        tf = time.perf_counter()
        scene.frame_set(f)
        depsgraph = bpy.context.evaluated_depsgraph_get()
        ev = garment.evaluated_get(depsgraph)
        mesh = ev.to_mesh()
        frame_s.append(round(time.perf_counter() - tf, 4))
        frames.append([tuple(v.co) for v in mesh.vertices])
        ev.to_mesh_clear()
    wall = time.perf_counter() - t0
    write_pc2(a.out_pc2, frames, body_pc2["start"])
    body_error = body_cache_error(body, os.path.join(a.anim, "body.pc2"), samples - 1)
    if body_error > 1e-4:
        sys.exit("the collision body at the last frame is not body.pc2's sample %d (off by %g)"
                 % (samples - 1, body_error))

    simulated = frame_s[1:]
    print(json.dumps({"tool": "blender", "version": bpy.app.version_string,
                      "vertices": len(garment.data.vertices), "body_vertices": len(body.data.vertices),
                      "cache_frames": samples, "start_frame": body_pc2["start"], "fps": fps,
                      "unit_scale": unit_scale, "steps_per_frame": a.steps,
                      "collision_quality": a.collision_quality,
                      "self_collision": a.self_collision, "threads": scene.render.threads,
                      "time_scale": cloth.settings.time_scale, "wall_s": wall, "body_cache_error": body_error,
                      "s_per_frame": sum(simulated) / max(1, len(simulated)), "frame_s": frame_s,
                      "out": a.out_pc2}))


main()
