// `drape rig fit`: fits a template skeleton to a body (docs/METHODS.md "M2 Joints by ray casting") and
// writes the joints (JSON) or the rigged body (glTF with a skin).
// Also defines the command-line defaults of rig loading shared with `drape pose`.

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "body_options.h"
#include "command_registry.h"
#include "default_paths.h"
#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"
#include "drape/core/strings.h"
#include "drape/io/mesh_io.h"
#include "drape/pipeline/body_rigging.h"
#include "drape/rig/body_rig.h"
#include "drape/rig/gltf_skin.h"
#include "drape/rig/makehuman.h"

namespace drape::cli {

namespace fs = std::filesystem;

TemplateRig load_template_rig_cli(const std::string& skeleton, const std::string& template_body,
                                  const std::string& weights) {
  std::string tbody = template_body;
  // A .mhskel away from its base.obj (e.g. a user's copy) sits in the bundled MakeHuman body.
  if (tbody.empty() && lower_extension(skeleton) == ".mhskel" &&
      !fs::exists(fs::path(skeleton).parent_path() / "base.obj"))
    tbody = default_body_path();
  return load_template_rig(skeleton, tbody, weights);
}

namespace {
struct RigFitOptions {
  std::string body = default_body_path(), skeleton, template_body, weights, out;
  BodyCliOptions body_options;
  std::string interior = "fraction";
  double ray_offset = 0.02;
};

// A point of the canonical frame in the body file's frame and unit.
std::vector<double> in_file(const Body& body, const Vec3& p) {
  const Vec3 q = body.to_file() * p * (1.0 / metres_per_unit(body.file_unit));
  return {q.x, q.y, q.z};
}

int run_rig_fit(const RigFitOptions& o) {
  const std::string out_ext = lower_extension(o.out);
  if (out_ext != ".json" && out_ext != ".glb" && out_ext != ".gltf")
    throw InvalidInput("--out: expected .json, .glb or .gltf, got '" + o.out + "'");
  const TemplateRig tr = load_template_rig_cli(o.skeleton, o.template_body, o.weights);
  const Body target = load_body(o.body, o.body_options.load_options());
  FitOptions fo;
  fo.ray_offset = o.ray_offset;
  if (o.interior == "midpoint")
    fo.interior = InteriorPlacement::midpoint;
  else if (o.interior != "fraction")
    throw InvalidInput("--interior: expected fraction or midpoint, got '" + o.interior + "'");
  const BodyRig rig = rig_body_by_fitting(tr.skeleton, tr.body, tr.weights, target.mesh, fo);
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
           {"head", in_file(target, bone.head)},
           {"tail", in_file(target, bone.tail)},
           {"roll", bone.roll},
           {"head_path", to_string(rig.fit.heads[b].path)},
           {"tail_path", to_string(rig.fit.tails[b].path)}});
    }
    j["landmarks"] = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < rig.fit.target_landmarks.size(); ++i)
      j["landmarks"].push_back({{"name", rig.fit.target_landmarks[i].name},
                                {"template", in_file(target, rig.fit.template_landmarks[i].position)},
                                {"target", in_file(target, rig.fit.target_landmarks[i].position)}});
    write_file_atomically(o.out, j.dump(2) + "\n");
  } else {
    const Mat3 to_file = target.to_file();
    write_gltf_skin(o.out, RiggedMesh{target.mesh, rig.skeleton, rig.weights}, target.file_unit,
                    target.axes.is_canonical() ? nullptr : &to_file);
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

const CommandRegistrar reg_rig{
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
      o->body_options.add_to(app);
      app.add_option("--interior", o->interior,
                     "Interior joints: fraction (keep the template's place, default) or midpoint");
      app.add_option("--ray-offset", o->ray_offset, "|n| in p_aux = j1 + n, metres (default 0.02)");
      return [o] { return run_rig_fit(*o); };
    }};

}  // namespace
}  // namespace drape::cli
