#pragma once
// ClothSimulation's inside, shared by the files that implement it:
//   cloth_simulation.cpp    construction, public accessors, checkpoints
//   cloth_integrators.cpp   forces, the integrators and XPBD, one step
//   collision_response.cpp  the order of body and self collisions inside a step
//   frame_advance.cpp       a frame: body motion, rollback, seams, corners, gravity; run()
//   cloth_measures.cpp      energies, seam gaps, strain, the welded result
// Sewing rules are in seam_sewing.h, seam corners in seam_corners.h, the
// state a checkpoint or a rollback restores in simulation_state.h.

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "drape/cloth/cloth_simulation.h"
#include "drape/cloth/percentile.h"
#include "drape/cloth/seam_corners.h"
#include "drape/cloth/seam_weld.h"
#include "drape/cloth/simulation_state.h"
#include "drape/cloth/spring_law.h"
#include "drape/collision/body_collider.h"
#include "drape/collision/self_collider.h"
#include "drape/core/executor.h"

namespace drape {

/// The height (y, m) below which fraction q of a cloth's vertices lie: its
/// top at q = 0.9 (one flapping corner does not count), its middle at 0.5.
inline double cloth_height_percentile(const std::vector<Vec3>& x, double q) {
  std::vector<double> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = x[i].y;
  return percentile(y, q);
}
inline double cloth_top(const std::vector<Vec3>& x) { return cloth_height_percentile(x, 0.9); }
inline double cloth_middle(const std::vector<Vec3>& x) { return cloth_height_percentile(x, 0.5); }

struct ClothSimulation::Impl {
  // ---- fixed at construction ----
  ClothModel model;
  Fabric fabric;
  ClothSettings settings;
  std::unique_ptr<Executor> own_executor;
  const Executor* ex = nullptr;
  std::unique_ptr<BodyCollider> body;           // null without a body (or body collision off)
  std::vector<int> vertex_group;                // per cloth vertex: its body collision group
  std::vector<std::uint32_t> face_masks;        // per cloth triangle: its panel's region mask
  std::unique_ptr<SelfCollider> self;           // null with self-collision off
  std::vector<unsigned char> near_seam_corner;  // per vertex: within two rings of a seam corner
  double self_cone_angle = 0;  // radians: flat neighbourhoods skipped by self-collision and its measure
  bool collisions = false;     // body or self
  // The fall-off rule (frame_advance.cpp): the cloth's top as placed (90th
  // percentile of height, m); the body vertex nearest the top when the body
  // started moving is st.fall_off_anchor (in the state: a resumed motion
  // keeps the one its start chose).
  double start_top_y = 0;       // cloth_top where it was placed (m)
  double start_middle_y = 0;    // cloth_middle where it was placed (m)
  double rest_body_height = 0;  // the body's height before it moves (m): the fall-off rule's scale
  void anchor_fall_off();

  // ---- the state (what a checkpoint saves and a rollback restores) ----
  // Between frames st.body equals body->mesh().positions; inside a moving
  // frame the collider's body moves step by step and st.body is its start.
  SimulationState st;

  // ---- the body motion being followed ----
  BodyMotion motion;
  // This motion frame's start and end and kinematic cloth displacement, set
  // once per motion frame (a retried frame keeps them). motion_frame_ready is
  // false between completed frames, so a state taken there needs none of them.
  bool motion_frame_ready = false;
  // Contour minimisation steps over the whole cloth after each motion frame
  // (set_motion_untangle_iterations; 0 = off).
  int motion_untangle_iterations = 0;
  std::vector<Vec3> body_from, body_to, body_now, carry;
  // With continuous collision in a moving frame: the body at the start of the
  // current step, the farthest any body vertex moves in it (m), and the share
  // of `carry` added to the cloth before it (the cloth's own path starts
  // before that carry). Empty / 0 while the body is still.
  std::vector<Vec3> body_step_start;
  double body_step_reach = 0;
  double carry_share = 0;
  // A loaded state's first frame, for the next run() (-1 = none).
  int resume_first_frame = -1;

  // ---- reporting ----
  DrapeReport report;  // times; counters are filled from st when read
  std::string last_divergence;

  // ---- scratch, reused from step to step and frame to frame ----
  std::vector<Vec3> x_prev;  // positions at the start of the step
  std::vector<Vec3> force, spring_force, hinge_force;
  std::vector<Vec3> push_start, push_delta, push_prev;  // push_cloth_off_body_features()
  std::vector<Vec3> self_start;  // answer_body_after_self(): before the final self pass
  std::vector<unsigned char> self_moved, faces_to_push;
  std::vector<Vec3> frame_start, carried;
  std::vector<double> lambda_spring, lambda_seam;
  std::vector<Vec3> lambda_bend;                       // isometric bending, per bend quad
  std::vector<std::array<double, 3>> lambda_triangle;  // triangle stretch: warp, weft, shear per face
  std::vector<unsigned char> moved, inside;
  std::vector<unsigned char>
      frictionless;  // per vertex: an end of an open seam pair, gravity on (seam_sewing.h)
  std::vector<unsigned char> body_held;  // per vertex: put at the thickness by the last body_response
  // The welded sets for the body's triangle pushes (seam_weld.h), made again
  // when the joined pairs change; welded_joined: the pairs they were made of.
  WeldedCopies welded;
  std::vector<unsigned char> welded_joined;
  bool welded_any = false;
  UnionFind welded_sets;
  std::vector<int> welded_rep;
  const WeldedCopies* welded_copies_now();
  SimulationState snapshot;  // the state at the start of the frame (rollback)
  CornerUntangler untangler;
  // untangle_from_body's storage: the cloth as a mesh, and the cloth and the
  // body as one mesh for the contour step.
  TriangleMesh body_untangle_cloth;
  std::unique_ptr<TriangleMeshBvh> body_untangle_tree;  // over body_untangle_cloth
  std::vector<Triangle> body_untangle_faces;
  std::vector<Vec3> body_untangle_x;
  std::vector<double> body_untangle_inv_mass;
  std::vector<std::pair<int, int>> body_untangle_pairs;
  std::vector<int> body_untangle_near;

  bool moving() const { return body && st.motion_done < motion.frames; }
  /// In a stall resew: zero gravity, no body friction (stall_resew.h).
  bool resewing() const { return st.frame < st.resew_end_frame; }
  double max_step() const { return settings.max_step_fraction * settings.thickness; }
  /// The body's sweep: always with the setting, else from the first frame of a motion that asks for it on.
  bool continuous() const {
    return body && (settings.continuous_collision || (motion.continuous_collision && motion.frames > 0));
  }
  /// The cap where only the body's answer needs one (continuous collision: the body's sweep rules out
  /// tunnelling).
  double body_max_step() const {
    return continuous() ? settings.continuous_max_step_fraction * settings.thickness : max_step();
  }
  /// Spring s's law at length L (spring_law.h): a stretch spring shorter than
  /// its rest length buckles (settings.compression_stiffness of its tensile
  /// stiffness), one past a knee of a non-linear fabric's curve takes that
  /// segment's stiffness and rest length; shear and bend springs resist both
  /// ways alike.
  SpringSegment spring_segment(std::size_t s, double L) const {
    return spring_segment_at(model, s, L, settings.compression_stiffness);
  }

  // cloth_integrators.cpp
  void spring_forces(bool with_damping);
  void hinge_forces();
  void gather_forces(bool include_springs);
  void project_springs(double dt2);
  void project_bending(double dt2);
  void project_triangles(double dt2);
  // strain_limit.cpp
  void limit_strain(const std::vector<unsigned char>* held = nullptr);
  bool strain_limit_acts() const;
  void step(double h);

  // collision_response.cpp
  void collide();  // self, step caps, body, self again (the order is the invariant)
  void body_response();
  void answer_body_contact(std::size_t i, bool ccd);
  void answer_body_after_self();
  // only_faces: when given, the cloth triangles to push (1), the rest left as they are.
  void push_cloth_off_body_features(const std::vector<unsigned char>* only_faces = nullptr);
  void cap_steps(double dmax);
  // Continuous collision of vertex i's step with the body (collision_response.cpp).
  void sweep_vertex_against_body(std::size_t i);
  void project_inside_vertices();

  // frame_advance.cpp
  bool advance_frame();
  void prepare_motion_frame();
  void place_body(double fraction);
  std::string divergence();
  void end_frame_seams();
  void update_corner_groups(bool run_ends = false);
  void untangle_released_garment();
  // body_untangle.cpp: cloth-body crossings held over frames, untangled.
  void untangle_from_body();
  void find_held_body_crossings();
  // Crossings are held that the untangle has not yet had its frames for: the
  // cloth is not at rest yet.
  bool body_untangle_pending() const;
  // Adds this frame's end positions to the rest rule's window (restarting it
  // when full): SimulationState::window_lo/hi.
  void advance_rest_window();
  bool all_joined() const;
  void update_gravity();
  // Starts a stall resew when the run has one left (stall_resew.h).
  bool begin_resew();
  // Puts the run back to `saved` (the garment of its first stall) when the
  // resewn garment `r` is not better; the report says which one it is.
  void keep_better_of_resew(SimulationState saved, double saved_moving_fraction, DrapeResult& r);
  DrapeResult run(const ClothProgressCallback& progress);

  // cloth_measures.cpp
  double kinetic() const;
  double seam_gap() const;
  bool open_seams_stopped_closing(int first_frame);
  bool fell_off_body() const;  // the garment dropped off the body (frame_advance.cpp)
  double potential() const;
  DrapeReport measure() const;
  DrapeResult result(bool equilibrium, bool stalled, double moving_fraction);
};

}  // namespace drape
