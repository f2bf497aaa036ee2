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
#include <optional>
#include <string>
#include <vector>

#include "drape/body/body_loader.h"
#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/geometry/units.h"
#include "drape/io/mesh_io.h"
#include "drape/rig/bvh_motion.h"
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

/// The files one rig load reads, each read once (`strace -e trace=openat`
/// shows every input file of `drape dress --pose` opened once): template
/// bodies and skeleton texts are kept here, shared by the candidates of a
/// motion and the chosen rig.
struct RigFileCache {
  /// A body the caller already read with load_body's default options (no
  /// group, unit or axes given), or null: used as the template body when the
  /// template is the same file (MakeHuman's base.obj dressed with a pose).
  const Body* loaded_body = nullptr;
  /// Out: SHA-256 (hex) of every skeleton and template body file read, by the
  /// path it was read under (for the report's input hashes).
  std::map<std::filesystem::path, std::string> sha256;
  std::map<std::filesystem::path, Body> bodies;        ///< template bodies read
  std::map<std::filesystem::path, std::string> texts;  ///< skeleton files read
};

/// Loads a template rig. For a .mhskel the template body is `template_body`,
/// else base.obj beside the skeleton; the weights are `weights`, else the
/// skeleton's weights_file, else default_weights.mhw beside it. For a skinned
/// .glb/.gltf the skin's own mesh is the template body unless `template_body`
/// is given.
/// \throw IoError / InvalidInput naming the file: unknown format, no template
///        body, malformed skeleton or weights.
TemplateRig load_template_rig(const std::filesystem::path& skeleton,
                              const std::filesystem::path& template_body = {},
                              const std::filesystem::path& weights = {});
/// As above, reading through (and filling) `files`.
TemplateRig load_template_rig(const std::filesystem::path& skeleton,
                              const std::filesystem::path& template_body,
                              const std::filesystem::path& weights, RigFileCache& files);

/// Of the candidate skeletons, the one whose bones `motion` drives most by
/// guess_joint_map; the first on a tie. Sets `chosen` to its path. Lazy: the
/// candidates are compared on their skeletons alone (a template body shared
/// by several is read once); only the chosen one's weights are read.
/// \throw InvalidInput when `candidates` is empty; as load_template_rig.
TemplateRig template_rig_for_motion(const std::vector<std::filesystem::path>& candidates,
                                    const BvhMotion& motion, const std::filesystem::path& template_body,
                                    const std::filesystem::path& weights, std::filesystem::path& chosen);
/// As above, reading through (and filling) `files`.
TemplateRig template_rig_for_motion(const std::vector<std::filesystem::path>& candidates,
                                    const BvhMotion& motion, const std::filesystem::path& template_body,
                                    const std::filesystem::path& weights, std::filesystem::path& chosen,
                                    RigFileCache& files);

/// A body with its skeleton and skin weights.
struct RiggedBody {
  Skeleton skeleton;
  SkinWeights weights;  ///< per body vertex
  std::string method;   ///< how the rig was made, for reports
};

/// Rigs `body` (Body::mesh of load_body, with Body::all_vertices) with the
/// template: exact MakeHuman joints when the body has the template's topology
/// (unless `force_fit`), else the fit of docs/METHODS.md "M2 Joints by ray casting", with transferred or
/// computed weights. \throw InvalidInput as rig_body_by_fitting.
RiggedBody rig_body(const TemplateRig& rig, const TriangleMesh& body, const std::vector<Vec3>& all_vertices,
                    bool force_fit = false);
/// The same on a tree over the body (body.mesh()) that the caller shares with
/// other users: the fit casts its rays into it instead of building its own.
RiggedBody rig_body(const TemplateRig& rig, const TriangleMeshBvh& body,
                    const std::vector<Vec3>& all_vertices, bool force_fit = false);

}  // namespace drape
