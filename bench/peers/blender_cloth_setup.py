"""Blender 3.4 cloth set-up shared by the peers (blender_cloth.py, blender_animation.py):
the body's collision modifier and the garment's cloth modifier with Blender's cotton
preset, timed so that a Blender frame lasts as long as drape's."""

import os
import sys
import tempfile

import bpy


def import_obj(path, split_groups=False):
    before = set(bpy.data.objects)
    if split_groups:
        # Blender 3.4's C++ importer splits only on `o` (use_split_groups came in 3.5), and
        # MakeHuman's base.obj has one object with `g body`, `g helper-...` groups: import
        # a copy with each `g` turned into `o`, so each group becomes an object of its name.
        tmp = os.path.join(tempfile.mkdtemp(), os.path.basename(path))
        with open(path) as fi, open(tmp, "w") as fo:
            for line in fi:
                fo.write("o " + line[2:] if line.startswith("g ") else line)
        path = tmp
    # drape files are +Y up like MakeHuman; the importer turns that into Blender's +Z up
    # as a rotation in the object matrix (vertex coordinates stay the file's), so
    # Blender's gravity (-Z) pulls along the file's -Y.
    bpy.ops.wm.obj_import(filepath=path, forward_axis="NEGATIVE_Z", up_axis="Y")
    return [o for o in bpy.data.objects if o not in before]


def import_one_obj(path):
    """import_obj of a file that must hold one object (drape's own OBJ files: no `o`
    lines, so the importer keeps the file's vertex order)."""
    made = import_obj(path)
    if len(made) != 1:
        sys.exit("%s: expected one object, got %d" % (path, len(made)))
    return made[0]


def write_evaluated_obj(obj, path, header):
    """Writes obj's evaluated mesh (the cloth modifier's result) as an OBJ: object
    space, i.e. the file's own axes (+Y up) and unit (the import rotation and the
    unit scale live only in the object matrix); faces only (loose sewing edges are
    not written)."""
    ev = obj.evaluated_get(bpy.context.evaluated_depsgraph_get())
    mesh = ev.to_mesh()
    with open(path, "w") as fh:
        fh.write("# %s\n" % header)
        for v in mesh.vertices:
            fh.write("v %.6f %.6f %.6f\n" % (v.co.x, v.co.y, v.co.z))
        for p in mesh.polygons:
            fh.write("f " + " ".join(str(i + 1) for i in p.vertices) + "\n")
    ev.to_mesh_clear()


def add_body_collision(body, thickness):
    """A Collision modifier on `body` (after any modifier already there, e.g. a Mesh Cache)."""
    body.modifiers.new("Collision", "COLLISION")
    body.collision.thickness_outer = thickness
    body.collision.cloth_friction = 5.0


def add_cotton_cloth(garment, steps, mass, fps, thickness, self_collision):
    """A Cloth modifier on `garment`: `steps` solver steps per frame (Blender's
    quality), `mass` per vertex, collision distance `thickness` (metres), self-collision
    on or off. Returns the modifier; the caller sets the point cache's frame range."""
    cloth = garment.modifiers.new("Cloth", "CLOTH")
    s = cloth.settings
    s.quality = steps
    # Blender's cotton preset (mass 0.3 per vertex, stiffness 15/15/15, bending 0.5, air 1).
    # Not a physical 0.14 kg/m^2 spread over the vertices (~1e-5 kg each): Blender's
    # solver is not mass-scale free, and at 5.6e-5 kg a free 400-vertex plane fell at a
    # constant ~1 cm per frame even with air damping 0 (0.57 / 1.17 / 2.41 dm after
    # 5 / 10 / 20 frames), where 0.3 kg falls as g t^2 / 2.
    s.mass = mass
    s.air_damping = 1.0
    # Blender's cloth ignores the scene frame rate: gravity acts as 0.001 g per frame^2
    # (a frame of sqrt(0.001) s = 1/31.6 s at time_scale 1, whatever scene.render.fps is;
    # measured: a free plane, air damping 0, falls 0.50 m in 10 frames at 5 steps, the same at 24 and 60
    # fps). Scale time so that a frame is 1/fps s like drape's.
    s.time_scale = (1.0 / fps) / 0.001 ** 0.5
    s.tension_stiffness = 15
    s.compression_stiffness = 15
    s.shear_stiffness = 15
    s.bending_stiffness = 0.5
    c = cloth.collision_settings
    c.distance_min = thickness
    c.use_self_collision = self_collision
    c.self_distance_min = thickness
    return cloth


def add_body_and_sewn_cloth(body, garment, a):
    """Both meshes scaled to metres (a.unit_scale, in the object matrix), the body's
    collision and the garment's cotton cloth with sewing springs (loose edges sew)
    from the peers' common arguments (thickness, steps, mass, fps, self_collision,
    sewing_force_max). Returns the cloth modifier."""
    for o in (body, garment):
        o.scale = (a.unit_scale,) * 3
    bpy.context.view_layer.update()
    add_body_collision(body, a.thickness)
    cloth = add_cotton_cloth(garment, a.steps, a.mass, a.fps, a.thickness, a.self_collision)
    cloth.settings.use_sewing_springs = True
    cloth.settings.sewing_force_max = a.sewing_force_max
    return cloth
