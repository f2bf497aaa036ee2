#pragma once
// Reading and writing triangle meshes: Wavefront OBJ (through tinyobjloader)
// and glTF 2.0 / GLB (through tinygltf). Meshes are in metres inside drape;
// the file's unit is given or detected on input and applied again on output.

#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "drape/core/mat3.h"
#include "drape/geometry/garment_mesh.h"
#include "drape/geometry/triangle_mesh.h"
#include "drape/geometry/units.h"

namespace drape {

struct MeshReadOptions {
  /// OBJ only: keep just the faces of this group (`g NAME` or `o NAME`); empty = all faces.
  std::string group;
  /// OBJ only: when `group` is not in the file, take every face instead of
  /// failing (LoadedMesh::group then says which was used).
  bool group_optional = false;
  /// Unit of the file's coordinates; nullopt = detect from the model's height
  /// (see detect_unit_from_height). glTF is metres by specification.
  std::optional<LengthUnit> unit;
  /// Drop vertices no selected face uses (source_vertex keeps the file ids).
  bool drop_unused_vertices = true;
};

struct LoadedMesh {
  TriangleMesh mesh;                ///< in metres
  LengthUnit file_unit;             ///< the unit the file was read in
  bool unit_detected = false;       ///< true when file_unit was guessed, not given
  std::vector<std::string> groups;  ///< OBJ group names found in the file, in order
  std::string group;                ///< the OBJ group whose faces were read ("" = all faces)
  std::string sha256;               ///< of the file's bytes as read (hex)
  /// glTF only: the file's bytes, so that a reader of its other parts (the
  /// skin) does not open it again; empty for OBJ.
  std::string gltf_bytes;
};

/// Reads an OBJ; quads and polygons are triangulated (fan).
/// \throw IoError when the file cannot be read.
/// \throw InvalidInput naming file and line for malformed lines, NaN/Inf
///        coordinates, out-of-range indices, an unknown group, or no faces.
LoadedMesh read_obj(const std::filesystem::path& path, const MeshReadOptions& options = {});

/// Reads the triangles of every mesh primitive of a glTF 2.0 file (.gltf or .glb),
/// with node transforms applied. A skinned mesh is placed by its joints (the
/// spec ignores a skinned mesh node's transform): when every joint's world
/// transform times its inverse bind matrix agree (the file's default pose is
/// its bind pose), by that one transform, as Blender imports it; else its
/// raw (bind pose) vertices under the mesh node's transform.
/// \throw IoError / InvalidInput as read_obj; InvalidInput also for a node
///        naming a missing mesh, skin or joint node, too few inverse bind
///        matrices, or an accessor GltfAccessor refuses (gltf_accessor.h).
LoadedMesh read_gltf(const std::filesystem::path& path, const MeshReadOptions& options = {});

/// Dispatches on the extension (.obj, .gltf, .glb).
/// \throw InvalidInput for an unknown extension.
LoadedMesh read_mesh(const std::filesystem::path& path, const MeshReadOptions& options = {});

/// Named face groups for an OBJ (e.g. one per garment panel, as CLO3D and
/// Blender show them): group_of_face[f] indexes names.
struct ObjFaceGroups {
  std::vector<std::string> names;
  std::vector<int> group_of_face;
};

/// Per face the panel of its first vertex (faces never span panels).
/// \param face_map optional: the faces written are garment faces face_map[0..] (e.g. after a weld).
ObjFaceGroups panel_face_groups(const GarmentMesh& garment, const std::vector<int>* face_map = nullptr);

/// Writes an OBJ atomically (temporary file + rename). Positions are written
/// in `unit` (metres -> unit); normals when `with_normals`; uvs as vt when present;
/// a `g` line wherever the face group changes when `groups` is given.
/// \throw IoError when it cannot be written.
/// \throw InvalidInput when `groups` does not give a valid group for every face.
void write_obj(const std::filesystem::path& path, const TriangleMesh& mesh,
               LengthUnit unit = LengthUnit::metre, bool with_normals = true,
               const ObjFaceGroups* groups = nullptr);

/// One mesh in a glTF scene.
struct GltfMeshNode {
  std::string name;
  const TriangleMesh* mesh = nullptr;
  /// Optional per-vertex RGB colours in [0,1] (COLOR_0).
  std::vector<Vec3> colors;
  /// Optional per-vertex scalar written as a custom attribute _<attribute_name>.
  std::vector<float> scalar;
  std::string scalar_name = "STRAIN";
  Vec3 base_color{0.8, 0.8, 0.8};
  bool double_sided = false;
  /// Optional skinning (with a GltfSkin given to write_gltf): per vertex up to
  /// four joint indices (-1 = unused) and their weights (JOINTS_0 / WEIGHTS_0).
  std::vector<std::array<int, 4>> joints;
  std::vector<std::array<float, 4>> weights;
  /// Optional animation: per frame every vertex's position (metres, the frame
  /// of `mesh`). Written as one morph target per frame (target k = frames[k] -
  /// mesh) and a weights animation with STEP interpolation that shows frame k
  /// alone from time k * frame_seconds on (the construction three.js and
  /// Blender's importer both play: Blender makes one shape key per frame).
  /// Normals stay the base mesh's.
  std::vector<std::vector<Vec3>> frames;
  double frame_seconds = 1.0 / 30;
};

/// A skin shared by the skinned meshes of a scene: a joint hierarchy whose
/// bind pose is the pose the meshes are written in.
struct GltfSkin {
  struct Joint {
    std::string name;
    int parent = -1;      ///< index into joints, parents before children; -1 = a root
    RigidTransform bind;  ///< the joint's frame (joint space to world, metres) in the bind pose
  };
  std::string name = "skeleton";
  std::vector<Joint> joints;
};

/// Writes meshes into one glTF 2.0 file (.glb binary or .gltf with embedded
/// buffer) atomically, scaled from metres to `unit` (so it overlays the input body).
/// With a `skin`, its joints become a node hierarchy with inverse bind
/// matrices, and every node that has joints/weights is skinned to it.
/// Nodes with `frames` get morph targets and share one animation ("frames").
/// With a `scene_rotation` (e.g. drape's canonical body frame back to the
/// body file's), everything is written under one root node with that rotation.
/// \throw IoError when it cannot be written; InvalidInput for an empty scene,
///        or skin data that does not match (sizes, joint indices, parents), or
///        animation frames with the wrong vertex count or frame_seconds <= 0.
void write_gltf(const std::filesystem::path& path, const std::vector<GltfMeshNode>& nodes,
                LengthUnit unit = LengthUnit::metre, const GltfSkin* skin = nullptr,
                const Mat3* scene_rotation = nullptr);

}  // namespace drape
