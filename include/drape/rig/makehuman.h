#pragma once
// MakeHuman skeletons (.mhskel) and skin weights (.mhw), both JSON.
//
// In a .mhskel, a joint is the centroid of listed base-mesh vertex ids (which
// may include helper geometry such as the joint-* cubes, beyond the body
// group), so the skeleton follows any body with base.obj's vertex order.
// Bones name a head and tail joint, a parent, and either a roll or a
// rotation_plane (three joints whose plane normal fixes the bone's z axis).
// Derived skeletons (game_engine, cmu_mb) map each bone to default bones
// through "reference" / "weights_reference" and reuse their weights.

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "drape/core/vec.h"
#include "drape/rig/skeleton.h"
#include "drape/rig/skin_weights.h"

namespace drape {

struct MakeHumanSkeleton {
  Skeleton skeleton;
  /// Joint name -> base-mesh vertex ids whose centroid it is.
  std::map<std::string, std::vector<int>> joints;
  /// Per bone: the bone's head and tail joint names.
  std::vector<std::string> head_joint, tail_joint;
  /// Per bone: default-skeleton bones whose weights it takes (empty = itself).
  std::vector<std::vector<std::string>> weights_reference;
  /// "weights_file" of the .mhskel, empty when absent.
  std::string weights_file;
};

/// Reads a .mhskel. `base_vertices` are base.obj's vertices in metres indexed
/// by file vertex id (all of them, helpers included).
/// \throw IoError when unreadable; InvalidInput naming the file and the bone or
///        joint for bad JSON, missing fields, unknown parents/joints, vertex ids
///        out of range, or a parent cycle.
MakeHumanSkeleton read_mhskel(const std::filesystem::path& path, const std::vector<Vec3>& base_vertices);
/// As read_mhskel on the file's text already read (`path` names it in errors
/// and gives the default skeleton name).
MakeHumanSkeleton parse_mhskel(const std::string& text, const std::filesystem::path& path,
                               const std::vector<Vec3>& base_vertices);

/// Recomputes joint positions (heads/tails) from new base-mesh vertices with
/// the same ids, e.g. a morphed body: the MakeHuman ground truth.
/// \throw InvalidInput when an id is out of range.
Skeleton place_mhskel(const MakeHumanSkeleton& mh, const std::vector<Vec3>& base_vertices);

/// Raw .mhw weights: bone name -> (vertex id, weight) list.
struct MakeHumanWeights {
  std::map<std::string, std::vector<std::pair<int, double>>> bones;
};

/// Reads a .mhw.
/// \throw IoError when unreadable; InvalidInput naming the file and bone for bad
///        JSON, negative ids, or non-finite / negative weights.
MakeHumanWeights read_mhw(const std::filesystem::path& path);

/// Skin weights of `mh`'s bones for vertices 0..vertex_count-1 of the base mesh
/// (file ids): each bone takes the sum of the .mhw weights of the bones it
/// references; per vertex normalised with the largest `k` kept.
/// `vertex_ids` selects and orders the vertices (e.g. TriangleMesh::source_vertex
/// of the loaded body group). `weights_skeleton` (optional) is the skeleton the
/// .mhw was made for (default.mhskel): a weighted bone that no bone of `mh`
/// references hands its weights to its nearest referenced ancestor, as
/// MakeHuman does, so e.g. face and toe weights reach cmu_mb's Head and feet.
/// Without it such weights are dropped (vertices may end up unweighted).
SkinWeights makehuman_skin_weights(const MakeHumanSkeleton& mh, const MakeHumanWeights& weights,
                                   const std::vector<int>& vertex_ids, int k = SkinWeights::kMaxInfluences,
                                   const Skeleton* weights_skeleton = nullptr);

}  // namespace drape
