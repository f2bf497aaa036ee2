#include "drape/pipeline/body_rigging.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>

#include "drape/body/body_loader.h"
#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"
#include "drape/core/sha256.h"
#include "drape/core/strings.h"
#include "drape/rig/body_rig.h"
#include "drape/rig/gltf_skin.h"
#include "drape/rig/retarget.h"

namespace drape {

namespace fs = std::filesystem;

namespace {

// Template bodies by path, each read at most once per RigFileCache (the
// candidate skeletons of a motion share MakeHuman's base.obj, which may also
// be the body being dressed).
const Body& template_body(RigFileCache& files, const fs::path& path) {
  if (files.loaded_body) {
    std::error_code ec;
    if (fs::equivalent(path, files.loaded_body->source, ec)) return *files.loaded_body;
  }
  auto it = files.bodies.find(path);
  if (it == files.bodies.end()) {
    it = files.bodies.emplace(path, load_body(path)).first;
    files.sha256.try_emplace(path, it->second.sha256);
  }
  return it->second;
}

// A .mhskel parsed from its text, the file read once per cache.
MakeHumanSkeleton mhskel(RigFileCache& files, const fs::path& path, const std::vector<Vec3>& base_vertices) {
  auto it = files.texts.find(path);
  if (it == files.texts.end()) {
    it = files.texts.emplace(path, read_file(path)).first;
    files.sha256.try_emplace(path, sha256_hex(it->second));
  }
  return parse_mhskel(it->second, path, base_vertices);
}

// The template body of a .mhskel: `given`, else base.obj beside it.
fs::path mhskel_template_path(const fs::path& skeleton_path, const fs::path& given) {
  const fs::path tpath = given.empty() ? skeleton_path.parent_path() / "base.obj" : given;
  if (!fs::exists(tpath))
    throw InvalidInput(
        skeleton_path.string(), 0,
        "no template body: base.obj is not beside the skeleton; give the body it was made for");
  return tpath;
}

}  // namespace

TemplateRig load_template_rig(const fs::path& skeleton_path, const fs::path& template_body_path,
                              const fs::path& weights_path, RigFileCache& bodies) {
  TemplateRig rig;
  const std::string ext = lower_extension(skeleton_path);
  if (!fs::exists(skeleton_path)) throw InvalidInput(skeleton_path.string(), 0, "file not found");
  if (ext == ".mhskel") {
    rig.is_makehuman = true;
    const fs::path dir = skeleton_path.parent_path();
    const Body& tbody = template_body(bodies, mhskel_template_path(skeleton_path, template_body_path));
    const std::vector<Vec3>& all = tbody.all_vertices;
    rig.makehuman = mhskel(bodies, skeleton_path, all);
    rig.body = tbody.mesh;
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
      if (have_default) def = mhskel(bodies, dir / "default.mhskel", all).skeleton;
      rig.weights = makehuman_skin_weights(rig.makehuman, read_mhw(wpath), rig.body.source_vertex,
                                           SkinWeights::kMaxInfluences, have_default ? &def : nullptr);
    }
    return rig;
  }
  if (ext == ".glb" || ext == ".gltf") {
    RiggedMesh rm = read_gltf_skin(skeleton_path);
    rig.skeleton = std::move(rm.skeleton);
    if (!template_body_path.empty()) {
      rig.body = template_body(bodies, template_body_path).mesh;
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

namespace {

// The skeleton alone (no weights read): what choosing among candidates needs.
Skeleton load_skeleton_only(const fs::path& skeleton_path, const fs::path& template_body_path,
                            RigFileCache& bodies) {
  if (lower_extension(skeleton_path) == ".mhskel" && fs::exists(skeleton_path)) {
    const Body& tbody = template_body(bodies, mhskel_template_path(skeleton_path, template_body_path));
    return mhskel(bodies, skeleton_path, tbody.all_vertices).skeleton;
  }
  return load_template_rig(skeleton_path, template_body_path, {}, bodies).skeleton;
}

}  // namespace

TemplateRig load_template_rig(const fs::path& skeleton_path, const fs::path& template_body_path,
                              const fs::path& weights_path) {
  RigFileCache bodies;
  return load_template_rig(skeleton_path, template_body_path, weights_path, bodies);
}

TemplateRig template_rig_for_motion(const std::vector<fs::path>& candidates, const BvhMotion& motion,
                                    const fs::path& template_body, const fs::path& weights,
                                    fs::path& chosen) {
  RigFileCache bodies;
  return template_rig_for_motion(candidates, motion, template_body, weights, chosen, bodies);
}

TemplateRig template_rig_for_motion(const std::vector<fs::path>& candidates, const BvhMotion& motion,
                                    const fs::path& template_body, const fs::path& weights, fs::path& chosen,
                                    RigFileCache& bodies) {
  if (candidates.empty()) throw InvalidInput("no skeleton to choose for the motion (give --skeleton)");
  // Chosen on the skeletons alone; only the winner's weights are read.
  std::optional<fs::path> best;
  std::size_t best_mapped = 0;
  for (const fs::path& c : candidates) {
    const std::size_t mapped = guess_joint_map(load_skeleton_only(c, template_body, bodies), motion).size();
    if (!best || mapped > best_mapped) {
      best_mapped = mapped;
      best = c;
    }
  }
  chosen = *best;
  return load_template_rig(chosen, template_body, weights, bodies);
}

namespace {

// `fit_on` builds or hands out the tree over `body` when the skeleton must be fitted.
template <class FitOn>
RiggedBody rig_body_impl(const TemplateRig& rig, const TriangleMesh& body,
                         const std::vector<Vec3>& all_vertices, bool force_fit, FitOn&& fit_on) {
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
  BodyRig fitted = fit_on();
  out.skeleton = std::move(fitted.skeleton);
  out.weights = std::move(fitted.weights);
  out.method =
      std::string("fitted (M2), weights ") + (fitted.weights_transferred ? "transferred" : "computed");
  return out;
}

}  // namespace

RiggedBody rig_body(const TemplateRig& rig, const TriangleMesh& body, const std::vector<Vec3>& all_vertices,
                    bool force_fit) {
  return rig_body_impl(rig, body, all_vertices, force_fit,
                       [&] { return rig_body_by_fitting(rig.skeleton, rig.body, rig.weights, body); });
}

RiggedBody rig_body(const TemplateRig& rig, const TriangleMeshBvh& body,
                    const std::vector<Vec3>& all_vertices, bool force_fit) {
  return rig_body_impl(rig, body.mesh(), all_vertices, force_fit,
                       [&] { return rig_body_by_fitting(rig.skeleton, rig.body, rig.weights, body); });
}

}  // namespace drape
