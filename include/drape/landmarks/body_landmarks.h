#pragma once
// Named body landmarks: the points a skeleton is fitted to (docs/RIG.md).
// Cut, like the body frame placement reads (body_frame.h), through
// mesh_section.h.
//
// The finder assumes a standing body, +y up, facing +z, the character's left
// at +x, arms away from the torso (A-pose, like MakeHuman's base mesh) or
// raised to about the horizontal (T-pose). Every landmark is defined from
// extreme vertices, cross-sections at places relative to other landmarks, and
// gaps between cross-section parts, so it moves exactly with the body under
// axis-aligned scaling and translation (a raised arm's elbow and wrist cuts,
// placed in from the fingertip by a fraction of the height, only under
// uniform scaling). See docs/RIG.md for the list and definitions.

#include <string>
#include <vector>

#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/core/vec.h"
#include "drape/geometry/triangle_mesh.h"

namespace drape {

struct Landmark {
  std::string name;
  Vec3 position;  ///< metres
};

/// Finds the landmarks (same names, same order for every body).
/// \throw InvalidInput naming `source` when the body lacks a feature (e.g. no
///        gap between the legs, an arm neither hanging apart nor raised).
std::vector<Landmark> find_body_landmarks(const TriangleMesh& body, const std::string& source = "body");
/// As above on the body's query tree (the body is `body.mesh()`), built by the caller.
std::vector<Landmark> find_body_landmarks(const TriangleMeshBvh& body, const std::string& source = "body");

}  // namespace drape
