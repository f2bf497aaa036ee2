#pragma once
// Sewing and draping a garment on a static body (docs/METHODS.md "M1 Virtual dressing", steps 3-4, 9-11,
// 16-17).
//
//   ClothSimulation sim(garment, body, body_face_regions, fabric, settings);
//   DrapeResult r = sim.run([](const ClothProgress& p) { ... });
//
// Each frame (1/frame_rate s) is `substeps` steps of the chosen integrator;
// every step handles body and self collisions. The run stops at static
// equilibrium or at the frame limit and says which; divergence is rolled back
// and retried with half the step a bounded number of times, then reported as
// SolverError.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "drape/cloth/cloth_model.h"
#include "drape/cloth/drape_report.h"
#include "drape/cloth/fabric.h"
#include "drape/geometry/garment_mesh.h"
#include "drape/geometry/triangle_mesh.h"

namespace drape {

class Executor;
class TriangleMeshBvh;

enum class Integrator : std::uint8_t {
  /// Forward Euler: x(t+dt) = x(t) + dt v(t); v(t+dt) = v(t) + dt F(t)/m.
  explicit_euler,
  /// docs/METHODS.md "Forces and integration", step 4 exactly as written: a = F(t)/m; v(t+dt) = v(t) + dt a;
  /// x(t+dt) = x(t) + dt v(t+dt).
  /// (This order is the semi-implicit / symplectic Euler; see docs/CLOTH.md.)
  paper_euler,
  /// Symplectic (semi-implicit) Euler; the same update as paper_euler.
  symplectic_euler,
  /// Extended position-based dynamics (Macklin et al. 2016), small steps: the default.
  xpbd,
};

/// "explicit", "paper", "symplectic", "xpbd".
const char* integrator_name(Integrator integrator);
/// \throw InvalidInput for an unknown name.
Integrator parse_integrator(const std::string& name);

struct ClothSettings {
  Integrator integrator = Integrator::xpbd;
  ClothModelOptions model;
  /// Frames per simulated second and steps per frame (dt = 1 / (frame_rate * substeps)).
  double frame_rate = 60;
  int substeps = 10;
  /// XPBD constraint iterations per step once gravity is on (enough to hold a
  /// waistband over the hips; docs/CLOTH.md).
  int solver_iterations = 4;
  /// XPBD iterations per step while the seams close in zero gravity: a softer
  /// cloth lets panels stretch towards their partners (docs/CLOTH.md).
  int sewing_solver_iterations = 2;
  /// XPBD iterations per step once gravity is on and every seam pair of a
  /// garment with seams is joined (joined pairs never reopen, so a stiffer solve cannot hold a seam
  /// apart): Gauss-Seidel's few iterations leave the cloth softer than its
  /// fabric where the garment hangs (shoulders, hips); docs/CLOTH.md,
  /// "Corners and strain". 8 halves the 20 mm garments' strain but leaves the
  /// 10 mm shirt crossed at the frame limit, so the default stays 4.
  int closed_solver_iterations = 4;
  /// Buckling: the stiffness of a stretch edge while it is shorter than its
  /// rest length, as a fraction of its tensile stiffness (0 < f <= 1; 1 = a
  /// spring that resists compression as tension: the default). Real cloth
  /// buckles into wrinkles far finer than the mesh under almost no in-plane
  /// force; on the gathered corpus garments it helps little (docs/CLOTH.md,
  /// "Gathering and strain"). Shear and bend springs keep their stiffness.
  double compression_stiffness = 1.0;
  /// Strain limiting (Provot 1995, as CLO and Marvelous Designer do): once
  /// every seam pair of a garment with seams is joined (and gravity is on),
  /// after the XPBD iterations of every step, `strain_limit_iterations`
  /// Gauss-Seidel passes pull each edge spring longer than (1 + strain_limit)
  /// times its rest length back to that length (mass-weighted; joined seam
  /// pairs welded after each pass). A few XPBD iterations leave the cloth far
  /// softer than its fabric where a garment hangs; this caps what that
  /// softness can add (docs/CLOTH.md, "Strain limiting"). 0 = off.
  double strain_limit = 0;
  int strain_limit_iterations = 4;
  /// While the limit acts, rounds of (the limit's passes, the body's vertex
  /// response) after the step's body response: the body's push out to the
  /// thickness re-stretches edges the limit had shortened (cloth hanging on
  /// a shoulder), and each round pulls them back and puts the cloth outside
  /// again, the body's answer last (docs/CLOTH.md, "Strain limiting"). 0 = the
  /// limit before the collisions only.
  int strain_limit_body_rounds = 1;
  /// Frame limit, and the earliest frame at which equilibrium may end the run.
  int max_frames = 600;
  int min_frames = 5;
  /// Static but with seams still open, and no seam pair joined for this many
  /// frames: the run ends ("stalled_seams", not an equilibrium). Also while
  /// still moving, once gravity is on, when for this many frames no pair joined
  /// and the open pairs' summed gap did not shrink by 5 % (a garment the body
  /// holds open slides or swings and never rests). 0 = run to the frame limit.
  int stalled_seam_frames = 120;
  /// A run about to end "stalled_seams" sews again, up to this many times:
  /// resew_frames frames of zero gravity with no body friction (the first
  /// frames' conditions, on the cloth as it lies), then gravity, friction and
  /// the stall rules afresh. A tight garment lying on the body (a fitted
  /// dress over a large bust) is held there by friction and can no longer
  /// slide its shoulder seams shut once it hangs. A resew follows another only
  /// when the one before left fewer pairs open. Each resew adds resew_frames
  /// + stalled_seam_frames to the frame limit. The run's garment is the
  /// resewn one only when it has fewer open pairs (or the same pairs, less
  /// open) and no more crossings than the garment at the first stall;
  /// otherwise the run ends with that one (resewn_is_better;
  /// docs/CLOTH.md "Sewing again after a stall"). 0 = off.
  int stall_resews = 3;
  int resew_frames = 60;
  /// Air damping, 1/s, in place of the fabric's (Fabric::air_damping); < 0 =
  /// the fabric's. The rest a run reaches does not depend on it (the damping
  /// force vanishes at rest), only the way there: coarse-to-fine draping
  /// settles the fine mesh with more (DressJob::settle_air_damping).
  double air_damping = -1;
  /// Air damping, 1/s, once every seam pair is joined and gravity is on, in
  /// place of air_damping; < 0 = air_damping. Seams closing (in zero gravity,
  /// in a stall resew or under gravity) keep air_damping: damped more, the GPG
  /// trousers' crotch closed caught in a fold on MakeHuman, and on mean_female
  /// stayed 2.4 cm open. The dress job sets it (DressJob::drape_air_damping).
  double rest_air_damping = -1;
  /// Collision thickness (cloth-body offset and cloth-cloth distance), m.
  double thickness = 0.003;
  bool body_collision = true;
  bool self_collision = true;
  /// Continuous collision detection against the body (docs/CLOTH.md "No
  /// tunnelling"): each cloth vertex's path over a step is swept against the
  /// body's faces (moving with the body in a motion) and a vertex that would
  /// cross one is put back on the side it came from, at the thickness. The
  /// body then needs no step cap: the cap for the body's answer becomes
  /// continuous_max_step_fraction (self-collision keeps max_step_fraction
  /// before its pass). Off by default.
  bool continuous_collision = false;
  /// docs/METHODS.md "AABB trees", step 10: neighbouring triangles whose normals differ by less than this are
  /// not tested.
  double self_cone_angle_degrees = 20;
  Vec3 gravity{0, -9.81, 0};
  /// GarmentCode's trick: no gravity while the seams close, at most this many frames.
  int zero_gravity_frames = 30;
  /// A seam pair is joined (stiff zero-length constraint) once its gap is below this, m.
  double seam_join_distance = 0.001;
  /// After the zero-gravity phase, an open seam pair that stalls (its gap shrank
  /// by under 2 % in a frame) while the segment between its ends is clear of the
  /// body gets its sewing stiffness and force cap multiplied by this, per frame,
  /// up to seam_cap_max_scale: a garment tighter than the body still closes.
  double seam_cap_growth = 1.1;
  double seam_cap_max_scale = 30;
  /// A stalled open pair (as above) whose gap is under this, m, is joined: the
  /// two sides touch within the collision thickness, but a garment tighter than
  /// the body can hold them a little over seam_join_distance apart for good.
  /// 0 = off. The rules in full: include/drape/cloth/seam_sewing.h.
  double stalled_seam_join_distance = 0.003;
  /// Seam corners (a vertex in more than one seam pair, e.g. an armpit where
  /// sleeve and torso panels meet) and the cloth within this many rings of
  /// them pass through themselves while the corner's pairs are open: panels
  /// placed flat can start with another panel's corner between the two sides
  /// of a corner pair (include/drape/cloth/seam_corners.h). 0 = off.
  int corner_pass_through_rings = 3;
  /// A corner passes through itself at most until this frame, closed or not;
  /// then it is untangled as below.
  int corner_pass_through_frames = 120;
  /// A corner whose pairs are all joined is untangled by intersection contour
  /// minimisation, at most this many steps per frame, and self-collision takes
  /// it back once no triangle of it crosses another (docs/CLOTH.md).
  int untangle_iterations = 20;
  /// Equilibrium: at least `equilibrium_fraction` of vertices move less than
  /// `equilibrium_distance` (m) in one frame, and every seam is joined.
  double equilibrium_distance = 0.0005;
  double equilibrium_fraction = 0.99;
  /// A vertex that moves more than equilibrium_distance every frame but whose
  /// end-of-frame positions over the last 6 to 10 frames stay within a box
  /// this wide (m, its diagonal) is still too: a seam junction whose contacts
  /// switch on and off every few steps cycles in place for good (docs/CLOTH.md,
  /// "Rest with a vertex cycling in place"). 0 = off.
  double equilibrium_jitter = 0.002;
  /// Largest displacement of a vertex in one step when collisions are on, as a
  /// fraction of the thickness; < 0.5 makes tunnelling impossible (docs/CLOTH.md).
  double max_step_fraction = 0.45;
  /// With continuous_collision: the largest displacement of a vertex in one
  /// step, as a fraction of the thickness, where only the body's answer
  /// needs it (self-collision off, or after its pass).
  double continuous_max_step_fraction = 10;
  /// Divergence guard: a speed above this (m/s), a NaN/Inf, or kinetic energy
  /// growing for `divergence_growth_frames` frames by 10x each counts as diverged.
  double divergence_speed = 50;
  int divergence_growth_frames = 3;
  /// Roll back a diverged frame and halve the step at most this many times.
  int max_step_halvings = 3;
  /// Vertices held fixed.
  std::vector<int> pinned;
  /// A constant external force on each vertex, N (one per cloth vertex, or
  /// empty: none): a dead weight, such as the tensile test's moving clamp.
  /// Not counted in potential_energy().
  std::vector<Vec3> vertex_loads;
  /// Worker threads (0 = all, 1 = sequential); ignored when executor is set.
  int threads = 0;
  const Executor* executor = nullptr;
};

struct ClothProgress {
  std::string stage;  ///< "sewing" (zero gravity), "draping", "measuring"
  int frame = 0;
  int max_frames = 0;
  double steps_per_second = 0;
  double max_seam_gap = 0;
  double moving_fraction = 1;  ///< fraction of vertices that moved more than the equilibrium distance
};
using ClothProgressCallback = std::function<void(const ClothProgress&)>;

struct DrapeResult {
  /// The draped garment with seam pairs welded into shared vertices.
  TriangleMesh mesh;
  /// For each garment vertex, its vertex in `mesh`.
  std::vector<int> vertex_map;
  /// For each face of `mesh`, its garment face (faces collapsed by the weld are dropped).
  std::vector<int> face_map;
  /// Per vertex of `mesh`: the largest tension max(L/L0 - 1, 0) of its edges.
  std::vector<double> vertex_strain;
  DrapeReport report;
};

/// A body that moves during a run (a pose transition, an animation): the
/// body keeps its topology; frame f of the motion (1-based) ends with the body
/// at body_at(f), and each step inside the frame sees it interpolated linearly.
struct BodyMotion {
  int frames = 0;
  /// Body vertex positions (metres, one per body vertex) at the end of motion frame f.
  std::function<std::vector<Vec3>(int frame)> body_at;
  /// Optional kinematic carry: where the cloth's positions would go if they
  /// moved with the body during motion frame f (e.g. skinned by the transforms
  /// from frame f-1 to f). The displacement is applied in equal parts before
  /// each step of the frame, without adding velocity, so the cloth only has to
  /// absorb what the body does differently. Pinned vertices are not carried.
  std::function<void(int frame, std::vector<Vec3>& cloth_positions)> carry_cloth;
  /// Continuous collision with the body from this motion's first frame to
  /// the end of the run (as ClothSettings::continuous_collision, which stays
  /// as set before the motion): cloth pinched where the body folds (an armpit
  /// as the arm comes down) is swept against the body's move instead of being
  /// left behind a face that passed it, and once the body stops it is not
  /// handed to the discrete response, under which such cloth kept moving
  /// 3-8 mm a frame for hundreds of frames (docs/CLOTH.md "While the body
  /// moves into the pose"). Needs continuous_max_step_fraction >=
  /// max_step_fraction.
  bool continuous_collision = false;
};

class ClothSimulation {
 public:
  /// \param garment the placed panels with seams (GarmentMesh, metres).
  /// \param body the static body (metres); may be empty (no body).
  /// \param body_face_regions per body face its body_region bits, or empty: a
  ///        vertex of a panel with mask M only collides with faces whose bits meet M (docs/METHODS.md
  ///        "Patterns and placement", step 16).
  /// \throw InvalidInput for inconsistent garment/body/regions or settings.
  ClothSimulation(const GarmentMesh& garment, const TriangleMesh& body,
                  const std::vector<std::uint32_t>& body_face_regions, const Fabric& fabric,
                  const ClothSettings& settings);
  /// The same on a body tree shared with other users (make_shared_tree; the
  /// body is body_tree->mesh()): the body collider queries it instead of
  /// building its own (bvh/triangle_mesh_bvh.h). Null: no body.
  ClothSimulation(const GarmentMesh& garment, std::shared_ptr<const TriangleMeshBvh> body_tree,
                  const std::vector<std::uint32_t>& body_face_regions, const Fabric& fabric,
                  const ClothSettings& settings);
  ~ClothSimulation();
  ClothSimulation(const ClothSimulation&) = delete;
  ClothSimulation& operator=(const ClothSimulation&) = delete;

  /// Runs to equilibrium or the frame limit (max_frames more frames), then
  /// measures. May be called again (e.g. after set_body_motion) to go on from
  /// the current state. Equilibrium is not declared while the body moves.
  /// \throw SolverError when the simulation diverges even after step halvings.
  DrapeResult run(const ClothProgressCallback& progress = {});

  /// Moves the body over the next motion.frames frames (see BodyMotion).
  /// \throw InvalidInput when there is no body, frames < 1 or body_at is empty.
  void set_body_motion(BodyMotion motion);
  /// Sets the length of the following frames and the steps in each
  /// (dt = frame_seconds / substeps): an animation advances the cloth one
  /// motion frame at a time, with as many steps as the motion's speed needs.
  /// \throw InvalidInput for frame_seconds <= 0 or substeps outside 1..100000.
  void set_frame_stepping(double frame_seconds, int substeps);
  /// After every frame of a body motion, crossings anywhere on the cloth are
  /// untangled (CornerUntangler::untangle_everywhere, up to `iterations`
  /// contour minimisation steps of a quarter thickness; 0 = off, the
  /// default). Proximity self-collision keeps each point on the side it came
  /// from, so a crossing the motion forces (cloth pinched where the posed
  /// body meets itself) is otherwise kept for the rest of the motion.
  /// \throw InvalidInput for iterations < 0.
  void set_motion_untangle_iterations(int iterations);
  /// Changes ClothSettings::strain_limit from the next step on (0 = off).
  /// \throw InvalidInput outside [0, 10].
  void set_strain_limit(double limit);
  /// Changes ClothSettings::rest_air_damping (1/s; < 0 = air_damping) from
  /// the next step on. \throw InvalidInput for a value that is not finite or > 1000.
  void set_rest_air_damping(double per_second);
  /// Changes ClothSettings::stall_resews for the next run(). \throw InvalidInput when negative.
  void set_stall_resews(int resews);
  /// True while a body motion has frames left.
  bool body_moving() const;
  /// The body as it is now (metres); empty when the simulation has no body.
  const TriangleMesh& body() const;

  /// Starts the run with every seam pair joined and gravity on: for a cloth
  /// whose positions were carried from a drape of the same garment at another
  /// particle distance, its seams already closed (the seam pairs' sides should
  /// start coincident: close_seams in geometry/garment_transfer.h). Velocities
  /// are zero; no seam corner passes through itself (its sides are in place
  /// already). Call before the first frame.
  void start_sewn();

  /// The whole dynamic state (SimulationState, simulation_state.h: the same
  /// struct a diverged frame is rolled back to) as bytes: loading them into a
  /// simulation built from the same garment, body and settings continues the
  /// run exactly where it was (checkpoints). Taken between frames.
  std::string save_state() const;
  /// \throw InvalidInput naming `source` when the bytes are not a state of
  ///        this simulation (format, vertex/seam/face/body counts, model).
  void load_state(const std::string& bytes, const std::string& source);

  // Lower-level access (tests, benchmarks).
  /// Advances one frame (substeps steps); returns false when it diverged (state rolled back).
  bool advance_frame();
  /// Advances one step of dt (no divergence handling).
  void step(double dt);
  const std::vector<Vec3>& positions() const;
  const std::vector<Vec3>& velocities() const;
  void set_positions(const std::vector<Vec3>& x);
  void set_velocities(const std::vector<Vec3>& v);
  const ClothModel& model() const;
  double kinetic_energy() const;
  /// Spring + sewing + gravity potential energy (gravity relative to y = 0).
  double potential_energy() const;
  double max_seam_gap() const;
  /// Measures the current state (intersections, strain, seams) into a report.
  DrapeReport measure() const;
  /// Current per-stage timings and counters.
  const DrapeReport& running_report() const;
  /// Step size of the next frame, s.
  double step_size() const;

 private:
  // Both public constructors: the body mesh (null: none) and, when shared, its tree.
  ClothSimulation(const GarmentMesh& garment, const TriangleMesh* body_mesh,
                  std::shared_ptr<const TriangleMeshBvh> body_tree,
                  const std::vector<std::uint32_t>& body_face_regions, const Fabric& fabric,
                  const ClothSettings& settings);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace drape
