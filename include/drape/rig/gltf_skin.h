#pragma once
// glTF 2.0 skins: a skinned mesh (JOINTS_0 / WEIGHTS_0) with its joint node
// hierarchy and inverse bind matrices, written and read.
//
// Writing: each bone is a node whose rest transform (relative to its parent
// node) puts its origin at the bone's head with the bone's rest rotation; the
// inverse bind matrix is the inverse of its rest world frame; an optional pose
// is written as the nodes' transforms. Reading: bone heads are the joint
// origins from the inverse bind matrices, rolls from their rotations, tails
// at the first child's head (or one parent-bone length along y for leaves).

#include <filesystem>
#include <optional>
#include <vector>

#include "drape/geometry/triangle_mesh.h"
#include "drape/geometry/units.h"
#include "drape/rig/skeleton.h"
#include "drape/rig/skin_weights.h"

namespace drape {

struct RiggedMesh {
  TriangleMesh mesh;  ///< rest-pose mesh, metres
  Skeleton skeleton;
  SkinWeights weights;  ///< per mesh vertex (may be empty: skeleton only)
};

/// Writes a rigged mesh (or a bare skeleton when the mesh is empty) as .glb or
/// .gltf, scaled from metres to `unit`; with a `scene_rotation`, under one
/// root node with that rotation (see write_gltf).
/// \throw IoError when it cannot be written; InvalidInput when the weights do
///        not match the mesh or the skeleton has no bones.
void write_gltf_skin(const std::filesystem::path& path, const RiggedMesh& rig,
                     LengthUnit unit = LengthUnit::metre, const Mat3* scene_rotation = nullptr);

/// Reads the first skin of a glTF file and, as one mesh in its bind pose, every
/// triangle primitive of the mesh nodes that use it. Units: metres (glTF).
/// \throw IoError when unreadable; InvalidInput naming the file and the
///        problem: no skin, a joint index out of range, inverse bind matrices of
///        the wrong count or not rigid, a joint node cycle, a node with two
///        parents or a child out of range, a JOINTS_0 value out of range,
///        JOINTS_0 / WEIGHTS_0 counts differing from POSITION, or an accessor
///        GltfAccessor refuses (drape/io/gltf_accessor.h).
RiggedMesh read_gltf_skin(const std::filesystem::path& path);

/// As read_gltf_skin, but std::nullopt for a glTF file without a skin (a
/// broken skin still throws).
std::optional<RiggedMesh> read_gltf_skin_if_any(const std::filesystem::path& path);
/// The same on the file's bytes already read (`path` names the file in
/// errors and locates a .gltf's external buffers).
std::optional<RiggedMesh> read_gltf_skin_if_any(const std::filesystem::path& path, const std::string& bytes);

}  // namespace drape
