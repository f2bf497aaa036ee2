// `drape rig fit`: fits a template skeleton to a body (methods.md M2) and
// writes the joints (JSON) or the rigged body (glTF with a skin).
// Also defines the body/skeleton loading shared with `drape pose`.

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "command_registry.h"
#include "default_paths.h"
#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"
#include "drape/io/mesh_io.h"
#include "drape/rig/body_rig.h"
#include "drape/rig/gltf_skin.h"
#include "drape/rig/makehuman.h"

namespace drape::cli {

namespace fs = std::filesystem;

namespace {
std::string ext_of(const std::string& p) {
  std::string e = fs::path(p).extension().string();
  for (char& c : e) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return e;
}

bool obj_has_group(const std::string& path, const std::string& group) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line))
    if ((line.rfind("g ", 0) == 0 || line.rfind("o ", 0) == 0) && line.substr(2) == group) return true;
  return false;
}
}  // namespace

// Reads a body: for an OBJ the group `group` when given, else "body" when the
// file has it, else everything. `all_vertices` (optional) gets every file vertex.
LoadedMesh load_rig_body(const std::string& path, const std::string& group, const std::string& unit,
                         std::vector<Vec3>* all_vertices) {
  MeshReadOptions o;
  if (!unit.empty()) {
    o.unit = parse_unit(unit);
    if (!o.unit) throw InvalidInput("--unit: unknown unit '" + unit + "'");
  }
  const bool obj = ext_of(path) == ".obj";
  if (obj) o.group = !group.empty() ? group : (obj_has_group(path, "body") ? "body" : "");
  LoadedMesh lm = read_mesh(path, o);
  if (all_vertices && obj) {
    MeshReadOptions all;
    all.unit = lm.file_unit;
    all.drop_unused_vertices = false;
    *all_vertices = read_obj(path, all).mesh.positions;
  }
  return lm;
}

// Loads the template rig: skeleton, the template body it sits in, and that
// body's weights (empty when none are available).
void load_template_rig(const std::string& skeleton_path, const std::string& template_body_path,
                       const std::string& weights_path, Skeleton& skeleton, TriangleMesh& template_body,
                       SkinWeights& weights, MakeHumanSkeleton& mh, bool& is_makehuman) {
  const std::string ext = ext_of(skeleton_path);
  is_makehuman = ext == ".mhskel";
  if (is_makehuman) {
    const std::string tpath = template_body_path.empty() ? default_body_path() : template_body_path;
    std::vector<Vec3> all;
    template_body = load_rig_body(tpath, "", "", &all).mesh;
    mh = read_mhskel(skeleton_path, all);
    skeleton = mh.skeleton;
    // Weights: --weights, else the skeleton's weights_file, else default_weights.mhw beside it.
    const fs::path dir = fs::path(skeleton_path).parent_path();
    std::string wpath = weights_path;
    if (wpath.empty() && !mh.weights_file.empty() && fs::exists(dir / mh.weights_file))
      wpath = (dir / mh.weights_file).string();
    if (wpath.empty() && fs::exists(dir / "default_weights.mhw"))
      wpath = (dir / "default_weights.mhw").string();
    if (!wpath.empty()) {
      // Derived skeletons hand weights of bones they do not reference to the nearest referenced ancestor.
      Skeleton def;
      const bool have_default = fs::exists(dir / "default.mhskel");
      if (have_default) def = read_mhskel(dir / "default.mhskel", all).skeleton;
      weights = makehuman_skin_weights(mh, read_mhw(wpath), template_body.source_vertex,
                                       SkinWeights::kMaxInfluences, have_default ? &def : nullptr);
    }
    return;
  }
  if (ext == ".glb" || ext == ".gltf") {
    RiggedMesh rm = read_gltf_skin(skeleton_path);
    skeleton = rm.skeleton;
    if (!template_body_path.empty()) {
      template_body = load_rig_body(template_body_path, "", "", nullptr).mesh;
      if (rm.weights.size() == template_body.vertex_count()) weights = rm.weights;
    } else {
      if (rm.mesh.face_count() == 0)
        throw InvalidInput(skeleton_path, 0, "the skin has no mesh: give --template-body");
      template_body = rm.mesh;
      weights = rm.weights;
    }
    return;
  }
  throw InvalidInput(skeleton_path, 0, "unknown skeleton format (expected .mhskel, .glb or .gltf)");
}

namespace {
struct RigFitOptions {
  std::string body = default_body_path(), skeleton, template_body, weights, out, group, unit;
  std::string interior = "fraction";
  double ray_offset = 0.02;
};

std::vector<double> in_unit(const Vec3& p, double s) { return {p.x * s, p.y * s, p.z * s}; }

int run_rig_fit(const RigFitOptions& o) {
  const std::string out_ext = ext_of(o.out);
  if (out_ext != ".json" && out_ext != ".glb" && out_ext != ".gltf")
    throw InvalidInput("--out: expected .json, .glb or .gltf, got '" + o.out + "'");
  Skeleton skeleton;
  TriangleMesh template_body;
  SkinWeights template_weights;
  MakeHumanSkeleton mh;
  bool is_mh = false;
  load_template_rig(o.skeleton, o.template_body, o.weights, skeleton, template_body, template_weights, mh,
                    is_mh);
  const LoadedMesh target = load_rig_body(o.body, o.group, o.unit, nullptr);
  FitOptions fo;
  fo.ray_offset = o.ray_offset;
  if (o.interior == "midpoint")
    fo.interior = InteriorPlacement::midpoint;
  else if (o.interior != "fraction")
    throw InvalidInput("--interior: expected fraction or midpoint, got '" + o.interior + "'");
  const BodyRig rig = rig_body_by_fitting(skeleton, template_body, template_weights, target.mesh, fo);
  const double s = 1.0 / metres_per_unit(target.file_unit);
  if (out_ext == ".json") {
    nlohmann::ordered_json j;
    j["body"] = o.body;
    j["skeleton"] = o.skeleton;
    j["unit"] = unit_name(target.file_unit);
    j["method"] = "M2: landmark RBF mapping, then ray cast from p_aux = j1 + n along -n";
    nlohmann::ordered_json counts;
    for (auto p :
         {JointFitPath::surface_ray, JointFitPath::surface_closest_point, JointFitPath::interior_two_sided,
          JointFitPath::interior_closest_point, JointFitPath::exterior_mapped})
      counts[to_string(p)] = rig.fit.count(p);
    j["path_counts"] = counts;
    j["bones"] = nlohmann::ordered_json::array();
    for (std::size_t b = 0; b < rig.skeleton.size(); ++b) {
      const Bone& bone = rig.skeleton.bones[b];
      j["bones"].push_back(
          {{"name", bone.name},
           {"parent", bone.parent < 0 ? nlohmann::ordered_json()
                                      : nlohmann::ordered_json(rig.skeleton.bones[bone.parent].name)},
           {"head", in_unit(bone.head, s)},
           {"tail", in_unit(bone.tail, s)},
           {"roll", bone.roll},
           {"head_path", to_string(rig.fit.heads[b].path)},
           {"tail_path", to_string(rig.fit.tails[b].path)}});
    }
    j["landmarks"] = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < rig.fit.target_landmarks.size(); ++i)
      j["landmarks"].push_back({{"name", rig.fit.target_landmarks[i].name},
                                {"template", in_unit(rig.fit.template_landmarks[i].position, s)},
                                {"target", in_unit(rig.fit.target_landmarks[i].position, s)}});
    write_file_atomically(o.out, j.dump(2) + "\n");
  } else {
    write_gltf_skin(o.out, RiggedMesh{target.mesh, rig.skeleton, rig.weights}, target.file_unit);
  }
  std::cout << "rig fit: " << rig.skeleton.size() << " bones; surface_ray "
            << rig.fit.count(JointFitPath::surface_ray) << ", interior_two_sided "
            << rig.fit.count(JointFitPath::interior_two_sided) << ", closest-point fallbacks "
            << rig.fit.count(JointFitPath::surface_closest_point) +
                   rig.fit.count(JointFitPath::interior_closest_point)
            << ", exterior " << rig.fit.count(JointFitPath::exterior_mapped) << "; weights "
            << (rig.weights_transferred ? "transferred" : "computed") << " -> " << o.out << "\n";
  return kOk;
}

const CommandRegistrar reg{
    "rig fit", "Fit a template skeleton to a body (ray-cast joint fitting, M2)", [](CLI::App& app) {
      auto o = std::make_shared<RigFitOptions>();
      app.add_option("--body", o->body, "Target body mesh (.obj, .gltf, .glb); default: the MakeHuman body");
      app.add_option("--skeleton", o->skeleton, "Template skeleton (.mhskel, or a skinned .glb/.gltf)")
          ->required();
      app.add_option(
          "--template-body", o->template_body,
          "Body the template skeleton sits in (default: MakeHuman base.obj for .mhskel, the glTF's mesh)");
      app.add_option("--weights", o->weights,
                     "MakeHuman .mhw weights for the template (default: beside the skeleton)");
      app.add_option("--out", o->out, "joints.json, or rigged.glb / .gltf (skinned body)")->required();
      app.add_option("--group", o->group, "OBJ group of the body (default: 'body' when present)");
      app.add_option("--unit", o->unit, "Unit of the body file (m, dm, cm, mm, in); default: detect");
      app.add_option("--interior", o->interior,
                     "Interior joints: fraction (keep the template's place, default) or midpoint");
      app.add_option("--ray-offset", o->ray_offset, "|n| in p_aux = j1 + n, metres (default 0.02)");
      return [o] { return run_rig_fit(*o); };
    }};

}  // namespace
}  // namespace drape::cli
