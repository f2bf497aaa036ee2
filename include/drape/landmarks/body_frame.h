#pragma once
// Landmarks and regions of a standing body mesh (docs/METHODS.md "Patterns and placement", steps 15-16): the
// frame panels are placed in, and the body_region label of every face for the region-restricted body tree.
// The levels are read off the body's sections (mesh_section.h), as the named
// landmarks of the skeleton fit are (body_landmarks.h).
//
// Assumes the usual garment convention: y up, facing +Z, the character's
// left at +X, standing in an A- or T-pose (MakeHuman, GarmentCode, SMPL).

#include <cstdint>
#include <string>
#include <vector>

#include "drape/geometry/aabb.h"
#include "drape/geometry/triangle_mesh.h"

namespace drape {

struct BodyFrame {
  Aabb bounds;
  double floor_y = 0;   ///< lowest point, metres
  double height = 0;    ///< metres
  double centre_x = 0;  ///< the body's mid-sagittal plane
  double centre_z = 0;  ///< torso centre front-back (at chest height)
  double crotch_y = 0;  ///< where the legs meet
  double waist_y = 0;   ///< narrowest torso between crotch and chest
  double chest_y = 0;
  double shoulder_y = 0;
  double neck_y = 0;  ///< narrowest slice between shoulders and head
  /// Half width (x) of the torso alone, at chest height (arms excluded).
  double torso_half_width = 0;
  /// Arms: shoulder joint estimate and unit direction shoulder -> hand, per side
  /// (index 0 = left (+X), 1 = right).
  Vec3 shoulder[2];
  Vec3 arm_direction[2];
  double arm_angle_deg[2] = {0, 0};  ///< angle of the arm below the horizontal
};

/// Finds the landmarks from horizontal slices of the mesh.
/// \throw InvalidInput when the mesh is empty or not a plausible standing body.
BodyFrame analyse_body(const TriangleMesh& body);
/// As above; the error message starts with `source` (the body's file).
BodyFrame analyse_body(const TriangleMesh& body, const std::string& source);

/// body_region bits of every face: exactly one part bit (upper, lower, head,
/// left_arm, right_arm, left_leg, right_leg), one side bit (left, right) and
/// one facing bit (front, back).
std::vector<std::uint32_t> label_body_regions(const TriangleMesh& body, const BodyFrame& frame);

/// True when a body face with labels `face_bits` may be touched by a panel
/// whose allowed mask is `panel_mask`: the face's part bit must be in the
/// mask, and so must its side (facing) bit when the mask names sides
/// (facings). alias_body_regions() masks hold part bits only, so for them this
/// equals `(face_bits & panel_mask) != 0`, the test the collision module uses.
bool region_allows(std::uint32_t face_bits, std::uint32_t panel_mask);

}  // namespace drape
