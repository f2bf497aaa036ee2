#pragma once
// Loading a template rig from files and rigging a body with it: the step that
// `drape rig fit`, `drape pose` and `drape dress --pose` share.
//
// A template rig is a skeleton, the body it was made for, and that body's
// skin weights: a MakeHuman .mhskel (+ .mhw, + base.obj) or a skinned glTF.
// A body with the template's own topology (MakeHuman's base.obj vertex ids)
// gets its joints exactly from its own vertices; any other body is fitted
// (docs/METHODS.md "M2 Joints by ray casting") and gets the template's weights transferred.

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "drape/body/body_loader.h"
#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/geometry/units.h"
#include "drape/io/mesh_io.h"
#include "drape/rig/bvh_motion.h"
#include "drape/rig/gltf_skin.h"
#include "drape/rig/makehuman.h"
#include "drape/rig/skeleton.h"
#include "drape/rig/skin_weights.h"

namespace drape {

/// A skeleton with the body it sits in and that body's weights.
struct TemplateRig {
  Skeleton skeleton;
  TriangleMesh body;    ///< metres
  SkinWeights weights;  ///< per template body vertex; empty when none were found
  bool is_makehuman = false;
  MakeHumanSkeleton makehuman;  ///< joints as vertex ids (only when is_makehuman)
};

/// The files template rigs are read from, each read (and hashed) at most once
/// while this lives: candidate skeletons share base.obj and default.mhskel, and
/// a job's own body may be the template body. Paths are compared canonically.
class RigFiles {
 public:
  /// Look-ups of `path` get `body` (loaded from `path` with default
  /// BodyLoadOptions) instead of reading the file again. `body` must outlive this.
  void add_body(const std::filesystem::path& path, const Body& body);
  /// The body being dressed, loaded from `path` with any options (the
  /// user's --up, --front, --body-unit): its bytes serve the skin reader and
  /// its own skin is turned into the frame and unit it was read in
  /// (skin_in_canonical_frame). Not a template body unless add_body says so.
  /// `body` must outlive this.
  void add_dressed_body(const std::filesystem::path& path, const Body& body);
  /// The body at `path` as load_body with default options gives it.
  const Body& body(const std::filesystem::path& path);
  /// The .mhskel at `path` on the template body's vertices `base` (the cache
  /// holds one template body per skeleton).
  const MakeHumanSkeleton& mhskel(const std::filesystem::path& path, const std::vector<Vec3>& base);
  /// The first skin of the glTF file at `path` (read_gltf_skin_if_any), read
  /// from the bytes of the body handed in for `path` when it holds them.
  std::optional<RiggedMesh> gltf_skin_if_any(const std::filesystem::path& path);
  /// A skin read from `path` (mesh and skeleton together) turned into the
  /// canonical frame (+Y up, facing +Z, metres) where the landmark finder
  /// fits from it: by the unit and axes the dressed body at `path` was read
  /// with (add_dressed_body), else by its own detected axes, as load_body
  /// turns a body.
  void skin_in_canonical_frame(RiggedMesh& rm, const std::filesystem::path& path) const;
  /// The .mhw at `path`.
  const MakeHumanWeights& mhw(const std::filesystem::path& path);
  /// SHA-256 (hex) of the file at `path` when this cache read it (or was
  /// handed it), else "".
  std::string sha256(const std::filesystem::path& path) const;

 private:
  static std::filesystem::path key(const std::filesystem::path& path);
  std::map<std::filesystem::path, std::unique_ptr<Body>> owned_bodies_;
  std::map<std::filesystem::path, const Body*> bodies_;
  std::map<std::filesystem::path, const Body*> dressed_;
  std::map<std::filesystem::path, MakeHumanSkeleton> mhskels_;
  std::map<std::filesystem::path, MakeHumanWeights> mhws_;
  std::map<std::filesystem::path, std::string> sha256_;
};

/// Loads a template rig. For a .mhskel the template body is `template_body`,
/// else base.obj beside the skeleton; the weights are `weights`, else the
/// skeleton's weights_file, else default_weights.mhw beside it. For a skinned
/// .glb/.gltf the skin's own mesh is the template body unless `template_body`
/// is given.
/// \throw IoError / InvalidInput naming the file: unknown format, no template
///        body, malformed skeleton or weights.
/// `files` (optional) shares the files read with other calls.
TemplateRig load_template_rig(const std::filesystem::path& skeleton,
                              const std::filesystem::path& template_body = {},
                              const std::filesystem::path& weights = {}, RigFiles* files = nullptr);

/// Of the candidate skeletons, the one whose bones `motion` drives most by
/// guess_joint_map (one it cannot map counts as none); the first on a tie.
/// Sets `chosen` to its path. Lazy: the candidates are compared on their
/// skeletons alone (a template body shared by several is read once); only the
/// chosen one's weights are read.
/// \throw InvalidInput when `candidates` is empty; as load_template_rig.
TemplateRig template_rig_for_motion(const std::vector<std::filesystem::path>& candidates,
                                    const BvhMotion& motion, const std::filesystem::path& template_body,
                                    const std::filesystem::path& weights, std::filesystem::path& chosen,
                                    RigFiles* files = nullptr);

/// The template rig a body is rigged with when no skeleton is given: the
/// body's own skin when `body` is a glTF file with one (with a `motion`: when
/// the motion maps onto it by guess_joint_map), else, with a motion,
/// template_rig_for_motion's choice among `candidates`, else the first
/// candidate. Sets `chosen` to the skeleton's path.
/// \throw InvalidInput / IoError as load_template_rig (a broken skin of the
///        body included), or when there is no candidate to fall back on.
TemplateRig default_template_rig(const std::filesystem::path& body,
                                 const std::vector<std::filesystem::path>& candidates,
                                 const BvhMotion* motion, const std::filesystem::path& template_body,
                                 const std::filesystem::path& weights, std::filesystem::path& chosen,
                                 RigFiles* files = nullptr);

/// A body with its skeleton and skin weights.
struct RiggedBody {
  Skeleton skeleton;
  SkinWeights weights;  ///< per body vertex
  std::string method;   ///< how the rig was made, for reports
};

/// Rigs `body` (Body::mesh of load_body, with Body::all_vertices) with the
/// template: exact MakeHuman joints when the body has the template's topology,
/// the template's own joints and weights when the body is the template's own
/// mesh (a glTF body and its skin; both unless `force_fit`), else the fit of
/// docs/METHODS.md "M2 Joints by ray casting" with transferred or computed
/// weights. \throw InvalidInput as rig_body_by_fitting.
RiggedBody rig_body(const TemplateRig& rig, const TriangleMesh& body, const std::vector<Vec3>& all_vertices,
                    bool force_fit = false);
/// The same on a tree over the body (body.mesh()) that the caller shares with
/// other users: the fit casts its rays into it instead of building its own.
RiggedBody rig_body(const TemplateRig& rig, const TriangleMeshBvh& body,
                    const std::vector<Vec3>& all_vertices, bool force_fit = false);

}  // namespace drape
