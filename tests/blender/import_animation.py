"""Blender 3.4 reads what `drape animate` writes (issue 18).

Run headless on an animate output folder (tests/blender/import_animation.sh
makes one and runs this):

  blender -b --factory-startup --python tests/blender/import_animation.py -- OUT_DIR

Checks, each against drape's files read here with Python's struct module
(an independent PC2 reader):
  1. animation.glb imports with Blender's glTF importer; the garment's
     evaluated positions at two animation frames (the scene frames where the
     imported shape-key action shows cache frame 0 and the last one) equal
     garment.pc2's samples 0 and last, as point sets (the importer may reorder
     vertices), after the importer's Y-up -> Z-up change (drape writes every
     output, the glb too, in the body file's unit: no scale); and the two
     frames differ.
  2. garment.obj imported in its vertex order (no axis change) with a Mesh
     Cache modifier reading garment.pc2, its Frame Start set to the header's
     start frame A (in Frame mode Blender shows sample = scene frame - Frame
     Start, ignoring the header's start), gives at scene frames A and A + last
     exactly the PC2 samples (the modifier's own reader against this one).
Exit status 0 when all hold, 1 otherwise; one line per check on stdout.
"""

import math
import os
import struct
import sys

import numpy

# Blender 3.4's glTF importer uses numpy.bool, removed in the numpy 1.24 Debian ships.
if not hasattr(numpy, "bool"):
    numpy.bool = bool

import bpy  # noqa: E402
from mathutils import Vector, kdtree  # noqa: E402

failures = []


def check(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name + (": " + detail if detail else ""))
    if not ok:
        failures.append(name)


def read_pc2(path):
    with open(path, "rb") as f:
        data = f.read()
    magic, version, points, start, sampling, samples = struct.unpack_from("<12siiffi", data, 0)
    assert magic == b"POINTCACHE2\0", magic
    assert len(data) == 32 + 12 * points * samples, "size does not match the header"
    frames = []
    for s in range(samples):
        flat = struct.unpack_from("<%df" % (3 * points), data, 32 + 12 * points * s)
        frames.append([flat[3 * i:3 * i + 3] for i in range(points)])
    return {"version": version, "points": points, "start": start, "sampling": sampling, "frames": frames}


def evaluated_world_positions(obj):
    deps = bpy.context.evaluated_depsgraph_get()
    ev = obj.evaluated_get(deps)
    mesh = ev.to_mesh()
    out = [obj.matrix_world @ v.co for v in mesh.vertices]
    ev.to_mesh_clear()
    return out


def max_point_set_distance(a, b):
    """Largest distance from a point of either set to the nearest of the other."""
    worst = 0.0
    for p, q in ((a, b), (b, a)):
        tree = kdtree.KDTree(len(q))
        for i, v in enumerate(q):
            tree.insert(v, i)
        tree.balance()
        for v in p:
            worst = max(worst, tree.find(v)[2])
    return worst


def scene_frame_showing(obj, key_index):
    """The scene frame at which the imported weights action shows shape key `key_index` alone."""
    keys = obj.data.shape_keys
    action = keys.animation_data.action if keys and keys.animation_data else None
    if action is None:
        return None
    for fc in action.fcurves:
        if fc.data_path == 'key_blocks["%s"].value' % keys.key_blocks[key_index + 1].name:
            for kp in fc.keyframe_points:
                if kp.co[1] > 0.5:
                    return kp.co[0]
    return None


def main():
    out = sys.argv[sys.argv.index("--") + 1]
    pc2 = read_pc2(os.path.join(out, "garment.pc2"))
    samples = len(pc2["frames"])
    check("garment.pc2 header", pc2["version"] == 1 and pc2["sampling"] == 1.0 and samples >= 2,
          "version %d, sampling %g, %d samples" % (pc2["version"], pc2["sampling"], samples))

    def in_blender(p):  # file (Y up) -> Blender (Z up), as the glTF importer turns it
        return Vector((p[0], -p[2], p[1]))

    # 1. animation.glb through the glTF importer.
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=os.path.join(out, "animation.glb"))
    garment = next((o for o in bpy.data.objects if o.type == "MESH" and o.name.startswith("garment")), None)
    check("animation.glb imports with a garment mesh", garment is not None,
          ", ".join(o.name for o in bpy.data.objects))
    if garment is not None:
        n_keys = len(garment.data.shape_keys.key_blocks) - 1 if garment.data.shape_keys else 0
        check("one shape key per frame", n_keys == samples, "%d keys, %d frames" % (n_keys, samples))
        positions = {}
        for k in (0, samples - 1):
            f = scene_frame_showing(garment, k)
            if f is None:
                check("frame %d is keyed" % k, False)
                continue
            bpy.context.scene.frame_set(int(math.floor(f)), subframe=f - math.floor(f))
            positions[k] = evaluated_world_positions(garment)
            want = [in_blender(p) for p in pc2["frames"][k]]
            d = max_point_set_distance(positions[k], want)
            check("garment at cache frame %d (scene frame %g) equals garment.pc2" % (k, f), d < 1e-4,
                  "largest distance %.3g" % d)
        if len(positions) == 2:
            moved = max((a - b).length for a, b in zip(positions[0], positions[samples - 1]))
            check("the garment moves between the two frames", moved > 0.01, "%.3g" % moved)

    # 2. garment.obj + Mesh Cache modifier reading garment.pc2.
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.wm.obj_import(filepath=os.path.join(out, "garment.obj"), forward_axis="Y", up_axis="Z")
    obj = next(o for o in bpy.data.objects if o.type == "MESH")
    bpy.context.view_layer.objects.active = obj
    check("garment.obj keeps the PC2's point count", len(obj.data.vertices) == pc2["points"],
          "%d vertices, %d points" % (len(obj.data.vertices), pc2["points"]))
    mod = obj.modifiers.new("cache", "MESH_CACHE")
    mod.cache_format = "PC2"
    mod.filepath = os.path.join(out, "garment.pc2")
    mod.frame_start = pc2["start"]
    for s in (0, samples - 1):
        bpy.context.scene.frame_set(int(pc2["start"]) + s)
        got = evaluated_world_positions(obj)
        want = pc2["frames"][s]
        d = max((Vector(w) - g).length for g, w in zip(got, want)) if len(got) == len(want) else float("inf")
        check("Mesh Cache at scene frame %d shows PC2 sample %d" % (int(pc2["start"]) + s, s), d < 1e-5,
              "largest difference %.3g" % d)

    print("blender import: %d failed" % len(failures))
    sys.exit(1 if failures else 0)


main()
