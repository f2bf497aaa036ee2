"""Blender 3.4 peer for `drape bench cloth`: drapes the same garment mesh on the
same body with Blender's cloth (Baraff-Witkin implicit solver), then writes the
result so `drape check` can score both tools the same way.

Run headless (see bench/peers/README.md):

  blender -b --factory-startup --python bench/peers/blender_cloth.py -- \
      --body data/bodies/makehuman/base.obj --body-group body \
      --garment /tmp/cone/cone_2000_start.obj --unit-scale 0.1 \
      --frames 30 --steps 5 --self-collision --out /tmp/cone/blender_2000.obj

Both OBJ files are in the body's unit (decimetres for MakeHuman); --unit-scale
converts them to metres so that Blender's gravity (9.81 scene units/s^2) is
right. The garment is written back in the input unit. Timing goes to stdout as
one JSON line.
"""

import argparse
import json
import sys
import time

import bpy


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
    return p.parse_args(argv)


def import_obj(path):
    before = set(bpy.data.objects)
    # Keep the file's axes: drape files are +Y up like MakeHuman.
    bpy.ops.wm.obj_import(filepath=path, forward_axis="NEGATIVE_Z", up_axis="Y")
    return [o for o in bpy.data.objects if o not in before]


def main():
    a = parse_args()
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    body_objs = import_obj(a.body)
    body = None
    for o in body_objs:
        if a.body_group and a.body_group in o.name:
            body = o
        elif a.body_group:
            bpy.data.objects.remove(o, do_unlink=True)
    if body is None:
        body = body_objs[0]
    garment = import_obj(a.garment)[0]
    for o in (body, garment):
        o.scale = (a.unit_scale,) * 3
    bpy.context.view_layer.update()

    col = body.modifiers.new("Collision", "COLLISION")
    body.collision.thickness_outer = a.thickness
    body.collision.cloth_friction = 5.0

    cloth = garment.modifiers.new("Cloth", "CLOTH")
    s = cloth.settings
    s.quality = a.steps
    s.mass = 0.14 * 0.0001  # cotton 0.14 kg/m^2 at ~1 cm^2 per vertex (Blender: mass per vertex, kg)
    s.air_damping = 1.0
    s.tension_stiffness = 15
    s.compression_stiffness = 15
    s.shear_stiffness = 5
    s.bending_stiffness = 0.5
    s.use_sewing_springs = True
    s.sewing_force_max = a.sewing_force_max
    c = cloth.collision_settings
    c.distance_min = a.thickness
    c.use_self_collision = a.self_collision
    c.self_distance_min = a.thickness
    cloth.point_cache.frame_start = 1
    cloth.point_cache.frame_end = a.frames + 1
    scene.frame_start = 1
    scene.frame_end = a.frames + 1

    t0 = time.perf_counter()
    for f in range(1, a.frames + 2):
        scene.frame_set(f)
    wall = time.perf_counter() - t0

    depsgraph = bpy.context.evaluated_depsgraph_get()
    ev = garment.evaluated_get(depsgraph)
    mesh = ev.to_mesh()
    inv = 1.0 / a.unit_scale
    # Evaluated cloth coordinates are in object space; apply the object scale back out.
    with open(a.out, "w") as fh:
        fh.write("# Blender %s cloth, %d frames x %d steps\n" % (bpy.app.version_string, a.frames, a.steps))
        for v in mesh.vertices:
            w = ev.matrix_world @ v.co
            fh.write("v %.6f %.6f %.6f\n" % (w.x * inv, w.y * inv, w.z * inv))
        for p in mesh.polygons:
            fh.write("f " + " ".join(str(i + 1) for i in p.vertices) + "\n")
    ev.to_mesh_clear()
    print(json.dumps({"tool": "blender", "version": bpy.app.version_string, "vertices": len(garment.data.vertices),
                      "frames": a.frames, "steps_per_frame": a.steps, "self_collision": a.self_collision,
                      "wall_s": wall, "s_per_frame": wall / a.frames, "out": a.out}))


main()
