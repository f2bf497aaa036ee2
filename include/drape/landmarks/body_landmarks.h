#pragma once
// Named body landmarks (the points a skeleton is fitted to, docs/RIG.md) and
// the crotch level that the body frame (body_frame.h) shares with them. One
// finder for both: every cut goes through mesh_section.h.
//
// The finder assumes a standing body, +y up, facing +z, the character's left
// at +x, arms away from the torso (A-pose, like MakeHuman's base mesh) or
// raised to about the horizontal (T-pose). Every landmark is defined from
// extreme vertices, cross-sections at places relative to other landmarks, and
// gaps between cross-section parts, so it moves exactly with the body under
// axis-aligned scaling and translation (a raised arm's elbow and wrist cuts,
// placed in from the fingertip by a fraction of the height, only under
// uniform scaling). See docs/RIG.md for the list and definitions.

#include <optional>
#include <string>
#include <vector>

#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/core/vec.h"
#include "drape/geometry/aabb.h"
#include "drape/geometry/triangle_mesh.h"
#include "drape/landmarks/mesh_section.h"

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

/// Height of the crotch (metres): the top of the gap between the legs on the
/// mid-plane x = bounds' centre, found by stepping down from 60 % of the
/// height to the first level whose section leaves the mid-plane open, then
/// bisecting to where it closes (legs that touch at the knees below do not
/// count). nullopt when the mid-plane is open at 60 % or closed down to 20 %.
/// \param sections horizontal sections of the body
/// \param bounds   the body's bounding box
std::optional<double> find_crotch_height(const HorizontalSections& sections, const Aabb& bounds);

}  // namespace drape
