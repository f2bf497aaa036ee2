#include "drape/pipeline/body_rigging.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>

#include "drape/body/body_axes.h"
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

fs::path RigFiles::key(const fs::path& path) {
  std::error_code ec;
  fs::path k = fs::weakly_canonical(path, ec);
  return ec ? fs::absolute(path) : k;
}

void RigFiles::add_body(const fs::path& path, const Body& body) {
  const fs::path k = key(path);
  bodies_[k] = &body;
  add_dressed_body(path, body);  // its hash, bytes and frame
}

void RigFiles::add_dressed_body(const fs::path& path, const Body& body) {
  const fs::path k = key(path);
  dressed_[k] = &body;
  sha256_[k] = body.sha256;
}

const Body& RigFiles::body(const fs::path& path) {
  const fs::path k = key(path);
  if (auto it = bodies_.find(k); it != bodies_.end()) return *it->second;
  auto b = std::make_unique<Body>(load_body(path));
  sha256_[k] = b->sha256;
  const Body* p = owned_bodies_.emplace(k, std::move(b)).first->second.get();
  bodies_[k] = p;
  return *p;
}

std::optional<RiggedMesh> RigFiles::gltf_skin_if_any(const fs::path& path) {
  const fs::path k = key(path);
  if (auto it = dressed_.find(k); it != dressed_.end() && !it->second->gltf_bytes.empty())
    return read_gltf_skin_if_any(path, it->second->gltf_bytes);
  return read_gltf_skin_if_any(path);
}

void RigFiles::skin_in_canonical_frame(RiggedMesh& rm, const fs::path& path) const {
  Mat3 r;
  double scale = 1;
  if (auto it = dressed_.find(key(path)); it != dressed_.end()) {
    r = it->second->to_canonical();
    scale = metres_per_unit(it->second->file_unit);  // glTF is in metres unless the user said otherwise
  } else {
    r = resolve_body_axes(rm.mesh, path.string(), std::nullopt, std::nullopt).to_canonical();
  }
  for (Vec3& p : rm.mesh.positions) p = r * (p * scale);
  for (Bone& b : rm.skeleton.bones) {
    b.head = r * (b.head * scale);
    b.tail = r * (b.tail * scale);
  }
}

const MakeHumanSkeleton& RigFiles::mhskel(const fs::path& path, const std::vector<Vec3>& base) {
  const fs::path k = key(path);
  if (auto it = mhskels_.find(k); it != mhskels_.end()) return it->second;
  const std::string text = read_file(path);
  sha256_[k] = sha256_hex(text);
  return mhskels_.emplace(k, parse_mhskel(text, path, base)).first->second;
}

const MakeHumanWeights& RigFiles::mhw(const fs::path& path) {
  const fs::path k = key(path);
  if (auto it = mhws_.find(k); it != mhws_.end()) return it->second;
  const std::string text = read_file(path);
  sha256_[k] = sha256_hex(text);
  return mhws_.emplace(k, parse_mhw(text, path.string())).first->second;
}

std::string RigFiles::sha256(const fs::path& path) const {
  if (path.empty()) return {};
  auto it = sha256_.find(key(path));
  return it == sha256_.end() ? std::string() : it->second;
}

namespace {

// The template body of a .mhskel: `given`, else base.obj beside it.
fs::path mhskel_template_path(const fs::path& skeleton_path, const fs::path& given) {
  const fs::path tpath = given.empty() ? skeleton_path.parent_path() / "base.obj" : given;
  if (!fs::exists(tpath))
    throw InvalidInput(
        skeleton_path.string(), 0,
        "no template body: base.obj is not beside the skeleton; give the body it was made for");
  return tpath;
}

// The template rig of a glTF skin read from `skin_path`.
TemplateRig rig_of_skin(RiggedMesh rm, const fs::path& skin_path, const fs::path& template_body_path,
                        RigFiles& files) {
  TemplateRig rig;
  // (A template body given apart is loaded by load_body itself.)
  if (template_body_path.empty() && rm.mesh.face_count() > 0) files.skin_in_canonical_frame(rm, skin_path);
  rig.skeleton = std::move(rm.skeleton);
  if (!template_body_path.empty()) {
    rig.body = files.body(template_body_path).mesh;
    if (rm.weights.size() == rig.body.vertex_count()) rig.weights = std::move(rm.weights);
  } else {
    if (rm.mesh.face_count() == 0)
      throw InvalidInput(skin_path.string(), 0, "the skin has no mesh: give the template body");
    rig.body = std::move(rm.mesh);
    rig.weights = std::move(rm.weights);
  }
  return rig;
}

TemplateRig load_rig(const fs::path& skeleton_path, const fs::path& template_body_path,
                     const fs::path& weights_path, RigFiles& files) {
  TemplateRig rig;
  const std::string ext = lower_extension(skeleton_path);
  if (!fs::exists(skeleton_path)) throw InvalidInput(skeleton_path.string(), 0, "file not found");
  if (ext == ".mhskel") {
    rig.is_makehuman = true;
    const fs::path dir = skeleton_path.parent_path();
    const Body& tbody = files.body(mhskel_template_path(skeleton_path, template_body_path));
    const std::vector<Vec3>& all = tbody.all_vertices;
    rig.makehuman = files.mhskel(skeleton_path, all);
    rig.body = tbody.mesh;
    rig.skeleton = rig.makehuman.skeleton;
    // Weights: given, else the skeleton's weights_file, else default_weights.mhw beside it.
    fs::path wpath = weights_path;
    if (wpath.empty() && !rig.makehuman.weights_file.empty() && fs::exists(dir / rig.makehuman.weights_file))
      wpath = dir / rig.makehuman.weights_file;
    if (wpath.empty() && fs::exists(dir / "default_weights.mhw")) wpath = dir / "default_weights.mhw";
    if (!wpath.empty()) {
      // Derived skeletons hand weights of bones they do not reference to the nearest referenced ancestor.
      const bool have_default = fs::exists(dir / "default.mhskel");
      const Skeleton* def = have_default ? &files.mhskel(dir / "default.mhskel", all).skeleton : nullptr;
      rig.weights = makehuman_skin_weights(rig.makehuman, files.mhw(wpath), rig.body.source_vertex,
                                           SkinWeights::kMaxInfluences, def);
    }
    return rig;
  }
  if (ext == ".glb" || ext == ".gltf") {
    std::optional<RiggedMesh> skin = files.gltf_skin_if_any(skeleton_path);
    if (!skin) throw InvalidInput(skeleton_path.string(), 0, "glTF has no skin");
    return rig_of_skin(std::move(*skin), skeleton_path, template_body_path, files);
  }
  throw InvalidInput(skeleton_path.string(), 0, "unknown skeleton format (expected .mhskel, .glb or .gltf)");
}

// The skeleton alone (no weights read): what choosing among candidates needs.
Skeleton load_skeleton_only(const fs::path& skeleton_path, const fs::path& template_body_path,
                            RigFiles& files) {
  if (lower_extension(skeleton_path) == ".mhskel" && fs::exists(skeleton_path)) {
    const Body& tbody = files.body(mhskel_template_path(skeleton_path, template_body_path));
    return files.mhskel(skeleton_path, tbody.all_vertices).skeleton;
  }
  return load_rig(skeleton_path, template_body_path, {}, files).skeleton;
}

}  // namespace

TemplateRig load_template_rig(const fs::path& skeleton_path, const fs::path& template_body_path,
                              const fs::path& weights_path, RigFiles* files) {
  RigFiles local;
  return load_rig(skeleton_path, template_body_path, weights_path, files ? *files : local);
}

TemplateRig template_rig_for_motion(const std::vector<fs::path>& candidates, const BvhMotion& motion,
                                    const fs::path& template_body, const fs::path& weights, fs::path& chosen,
                                    RigFiles* files) {
  if (candidates.empty()) throw InvalidInput("no skeleton to choose for the motion (give --skeleton)");
  // Chosen on the skeletons alone; only the winner's weights are read.
  RigFiles local;
  RigFiles& f = files ? *files : local;
  std::optional<fs::path> best;
  std::size_t best_mapped = 0;
  for (const fs::path& c : candidates) {
    // A candidate the motion cannot be mapped onto counts as mapping nothing.
    std::size_t mapped = 0;
    const Skeleton s = load_skeleton_only(c, template_body, f);
    try {
      mapped = guess_joint_map(s, motion).size();
    } catch (const InvalidInput&) {
    }
    if (!best || mapped > best_mapped) {
      best_mapped = mapped;
      best = c;
    }
  }
  chosen = *best;
  return load_rig(chosen, template_body, weights, f);
}

TemplateRig default_template_rig(const fs::path& body_path, const std::vector<fs::path>& candidates,
                                 const BvhMotion* motion, const fs::path& template_body,
                                 const fs::path& weights, fs::path& chosen, RigFiles* files) {
  RigFiles local;
  RigFiles& f = files ? *files : local;
  const std::string ext = lower_extension(body_path);
  if (ext == ".glb" || ext == ".gltf") {
    if (std::optional<RiggedMesh> skin = f.gltf_skin_if_any(body_path)) {
      TemplateRig own = rig_of_skin(std::move(*skin), body_path, {}, f);
      bool takes_motion = true;
      if (motion) try {
          takes_motion = !guess_joint_map(own.skeleton, *motion).empty();
        } catch (const InvalidInput&) {
          takes_motion = false;
        }
      if (takes_motion) {
        chosen = body_path;
        return own;
      }
    }
  }
  if (motion) return template_rig_for_motion(candidates, *motion, template_body, weights, chosen, &f);
  if (candidates.empty()) throw InvalidInput("no skeleton to rig the body with (give --skeleton)");
  chosen = candidates.front();
  return load_rig(chosen, template_body, weights, f);
}

namespace {

// True when the body file's vertices `file_vertices` (in file order, the
// canonical frame) are the template's mesh to within 1 µm: a glTF body and
// its own skin, each read by its reader (the body welded at its UV seams, so
// its vertices are found through Body::source_vertex, the skin's are not).
bool is_template_mesh(const TriangleMesh& template_mesh, const std::vector<Vec3>& file_vertices) {
  if (template_mesh.vertex_count() != file_vertices.size()) return false;
  for (std::size_t i = 0; i < file_vertices.size(); ++i)
    if (norm(template_mesh.positions[i] - file_vertices[i]) > 1e-6) return false;
  return true;
}

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
  // A body that is the template's own mesh (a glTF body rigged by its own
  // skin) carries the template's joints and weights as they are.
  if (!rig.is_makehuman && !force_fit && rig.weights.size() == rig.body.vertex_count() &&
      body.source_vertex.size() == body.vertex_count() && is_template_mesh(rig.body, all_vertices)) {
    out.skeleton = rig.skeleton;
    out.weights.vertices.reserve(body.vertex_count());
    for (int v : body.source_vertex)
      out.weights.vertices.push_back(rig.weights.vertices.at(static_cast<std::size_t>(v)));
    out.method = "the body's own skin";
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
