#include "drape/pipeline/body_rigging.h"

#include <algorithm>
#include <fstream>

#include "drape/body/body_loader.h"
#include "drape/core/exceptions.h"
#include "drape/core/strings.h"
#include "drape/rig/body_rig.h"
#include "drape/rig/gltf_skin.h"
#include "drape/rig/retarget.h"

namespace drape {

namespace fs = std::filesystem;

TemplateRig load_template_rig(const fs::path& skeleton_path, const fs::path& template_body_path,
                              const fs::path& weights_path) {
  TemplateRig rig;
  const std::string ext = lower_extension(skeleton_path);
  if (!fs::exists(skeleton_path)) throw InvalidInput(skeleton_path.string(), 0, "file not found");
  if (ext == ".mhskel") {
    rig.is_makehuman = true;
    const fs::path dir = skeleton_path.parent_path();
    fs::path tpath = template_body_path;
    if (tpath.empty()) tpath = dir / "base.obj";
    if (!fs::exists(tpath))
      throw InvalidInput(
          skeleton_path.string(), 0,
          "no template body: base.obj is not beside the skeleton; give the body it was made for");
    Body template_body = load_body(tpath);
    const std::vector<Vec3>& all = template_body.all_vertices;
    rig.makehuman = read_mhskel(skeleton_path, all);
    rig.body = std::move(template_body.mesh);
    rig.skeleton = rig.makehuman.skeleton;
    // Weights: given, else the skeleton's weights_file, else default_weights.mhw beside it.
    fs::path wpath = weights_path;
    if (wpath.empty() && !rig.makehuman.weights_file.empty() && fs::exists(dir / rig.makehuman.weights_file))
      wpath = dir / rig.makehuman.weights_file;
    if (wpath.empty() && fs::exists(dir / "default_weights.mhw")) wpath = dir / "default_weights.mhw";
    if (!wpath.empty()) {
      // Derived skeletons hand weights of bones they do not reference to the nearest referenced ancestor.
      Skeleton def;
      const bool have_default = fs::exists(dir / "default.mhskel");
      if (have_default) def = read_mhskel(dir / "default.mhskel", all).skeleton;
      rig.weights = makehuman_skin_weights(rig.makehuman, read_mhw(wpath), rig.body.source_vertex,
                                           SkinWeights::kMaxInfluences, have_default ? &def : nullptr);
    }
    return rig;
  }
  if (ext == ".glb" || ext == ".gltf") {
    RiggedMesh rm = read_gltf_skin(skeleton_path);
    rig.skeleton = std::move(rm.skeleton);
    if (!template_body_path.empty()) {
      rig.body = load_body(template_body_path).mesh;
      if (rm.weights.size() == rig.body.vertex_count()) rig.weights = std::move(rm.weights);
    } else {
      if (rm.mesh.face_count() == 0)
        throw InvalidInput(skeleton_path.string(), 0, "the skin has no mesh: give the template body");
      rig.body = std::move(rm.mesh);
      rig.weights = std::move(rm.weights);
    }
    return rig;
  }
  throw InvalidInput(skeleton_path.string(), 0, "unknown skeleton format (expected .mhskel, .glb or .gltf)");
}

TemplateRig template_rig_for_motion(const std::vector<fs::path>& candidates, const BvhMotion& motion,
                                    const fs::path& template_body, const fs::path& weights,
                                    fs::path& chosen) {
  if (candidates.empty()) throw InvalidInput("no skeleton to choose for the motion (give --skeleton)");
  std::optional<TemplateRig> best;
  std::size_t best_mapped = 0;
  for (const fs::path& c : candidates) {
    TemplateRig candidate = load_template_rig(c, template_body, weights);
    const std::size_t mapped = guess_joint_map(candidate.skeleton, motion).size();
    if (!best || mapped > best_mapped) {
      best_mapped = mapped;
      best = std::move(candidate);
      chosen = c;
    }
  }
  return std::move(*best);
}

RiggedBody rig_body(const TemplateRig& rig, const TriangleMesh& body, const std::vector<Vec3>& all_vertices,
                    bool force_fit) {
  RiggedBody out;
  std::size_t needed = 0;
  for (const auto& [name, ids] : rig.makehuman.joints)
    for (int id : ids) needed = std::max(needed, static_cast<std::size_t>(id) + 1);
  // A body with MakeHuman's topology carries its joints exactly (centroids of its own vertices).
  if (rig.is_makehuman && !force_fit && all_vertices.size() >= needed &&
      body.vertex_count() == rig.body.vertex_count() && body.source_vertex == rig.body.source_vertex) {
    out.skeleton = place_mhskel(rig.makehuman, all_vertices);
    out.weights = rig.weights.size() == body.vertex_count() ? rig.weights
                                                            : compute_distance_weights(body, out.skeleton);
    out.method = "MakeHuman topology: joints from the body's own vertices";
    return out;
  }
  BodyRig fitted = rig_body_by_fitting(rig.skeleton, rig.body, rig.weights, body);
  out.skeleton = std::move(fitted.skeleton);
  out.weights = std::move(fitted.weights);
  out.method =
      std::string("fitted (M2), weights ") + (fitted.weights_transferred ? "transferred" : "computed");
  return out;
}

}  // namespace drape
