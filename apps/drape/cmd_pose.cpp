// `drape pose`: poses a body from a BVH frame (retargeted through a joint-name
// map) with linear-blend or dual-quaternion skinning.

#include <filesystem>
#include <iostream>
#include <memory>

#include "body_options.h"
#include "command_registry.h"
#include "default_paths.h"
#include "drape/core/exceptions.h"
#include "drape/core/strings.h"
#include "drape/io/mesh_io.h"
#include "drape/pipeline/body_rigging.h"
#include "drape/rig/body_rig.h"
#include "drape/rig/makehuman.h"
#include "drape/rig/retarget.h"
#include "drape/rig/skinning.h"

namespace drape::cli {

// Defined in cmd_rig.cpp.
TemplateRig load_template_rig_cli(const std::string& skeleton, const std::string& template_body,
                                  const std::string& weights);

namespace {
namespace fs = std::filesystem;

struct PoseOptions {
  std::string body = default_body_path(), skeleton, template_body, weights, motion, map, out;
  BodyCliOptions body_options;
  std::string skinning = "lbs", root = "first";
  long frame = 0;
  bool fit = false;
};

int run_pose(const PoseOptions& o) {
  const std::string out_ext = lower_extension(o.out);
  if (out_ext != ".obj" && out_ext != ".glb" && out_ext != ".gltf")
    throw InvalidInput("--out: expected .obj, .glb or .gltf, got '" + o.out + "'");
  SkinningMethod method;
  if (o.skinning == "lbs")
    method = SkinningMethod::linear_blend;
  else if (o.skinning == "dqs")
    method = SkinningMethod::dual_quaternion;
  else
    throw InvalidInput("--skinning: expected lbs or dqs, got '" + o.skinning + "'");
  RetargetOptions ro;
  if (o.root == "none")
    ro.root_motion = RootMotion::none;
  else if (o.root == "rest")
    ro.root_motion = RootMotion::relative_to_rest;
  else if (o.root != "first")
    throw InvalidInput("--root: expected first, rest or none, got '" + o.root + "'");

  const BvhMotion motion = read_bvh(o.motion);
  if (o.frame < 0 || static_cast<std::size_t>(o.frame) >= motion.frame_count())
    throw InvalidInput(o.motion, 0,
                       "--frame " + std::to_string(o.frame) + " out of range (" +
                           std::to_string(motion.frame_count()) + " frames, first is 0)");
  const TemplateRig tr = load_template_rig_cli(o.skeleton, o.template_body, o.weights);
  const Body body = load_body(o.body, o.body_options.load_options());
  RiggedBody rigged = rig_body(tr, body.mesh, body.all_vertices, o.fit);
  const Skeleton& skeleton = rigged.skeleton;
  const SkinWeights& weights = rigged.weights;
  const std::string& how = rigged.method;
  const JointNameMap map = o.map.empty() ? guess_joint_map(skeleton, motion) : read_joint_map(o.map);
  const RetargetResult r = retarget_bvh_frame(skeleton, motion, static_cast<std::size_t>(o.frame), map, ro);
  const std::vector<Vec3> normals = body.mesh.vertex_normals();
  const SkinnedPoints posed = skin_points(body.mesh.positions, normals, weights, r.pose, method);
  TriangleMesh out = body.mesh;
  out.positions = posed.positions;
  out = body.in_file_frame(std::move(out));  // overlays the input body
  if (out_ext == ".obj") {
    write_obj(o.out, out, body.file_unit);
  } else {
    GltfMeshNode node;
    node.name = "posed body";
    node.mesh = &out;
    write_gltf(o.out, {node}, body.file_unit);
  }
  std::cout << "pose: frame " << o.frame << " of " << motion.frame_count() << ", " << r.mapped_bones << " of "
            << skeleton.size() << " bones mapped, "
            << (method == SkinningMethod::linear_blend ? "LBS" : "DQS") << "; " << how << " -> " << o.out
            << "\n";
  return kOk;
}

const CommandRegistrar reg_pose{
    "pose", "Pose a body from a BVH frame (retargeted) with LBS or DQS skinning", [](CLI::App& app) {
      auto o = std::make_shared<PoseOptions>();
      app.add_option("--body", o->body, "Body mesh (.obj, .gltf, .glb); default: the MakeHuman body");
      app.add_option("--skeleton", o->skeleton, "Skeleton (.mhskel, or a skinned .glb/.gltf)")->required();
      app.add_option("--template-body", o->template_body, "Body the skeleton sits in (see `drape rig fit`)");
      app.add_option("--weights", o->weights, "MakeHuman .mhw weights (default: beside the skeleton)");
      app.add_option("--motion", o->motion, "BVH motion file")->required();
      app.add_option("--frame", o->frame, "Frame index, 0-based (default 0)");
      app.add_option("--skinning", o->skinning, "lbs (default) or dqs");
      app.add_option("--map", o->map,
                     "JSON joint-name map {\"skeleton bone\": \"bvh joint\"} (default: guessed)");
      app.add_option("--root", o->root, "Root motion: first (since frame 0, default), rest, none");
      app.add_flag("--fit", o->fit, "Fit the skeleton (M2) even when the body has MakeHuman's topology");
      app.add_option("--out", o->out, "posed.obj, or posed.glb / .gltf (in the body file's unit)")
          ->required();
      o->body_options.add_to(app);
      return [o] { return run_pose(*o); };
    }};

}  // namespace
}  // namespace drape::cli
