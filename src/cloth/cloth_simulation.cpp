// ClothSimulation: construction, the public accessors and checkpoints. The
// simulation itself is spread over the files listed in simulation_impl.h.
#include "drape/cloth/cloth_simulation.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <string>

#include "drape/core/exceptions.h"
#include "drape/core/union_find.h"
#include "simulation_impl.h"

namespace drape {
namespace {

constexpr char kStateMagic[8] = {'D', 'R', 'P', 'S', 'T', 'A', 'T', '9'};

// A fingerprint of the model, so that a state is only loaded into the cloth it was saved from.
double model_fingerprint(const ClothModel& m) {
  double f = 0;
  for (std::size_t k = 0; k < m.spring_rest.size(); ++k)
    f += m.spring_rest[k] * static_cast<double>(k % 97 + 1);
  for (std::size_t i = 0; i < m.mass.size(); ++i) f += m.mass[i] * static_cast<double>(i % 89 + 1);
  for (std::size_t k = 0; k < m.spring_knees.size(); ++k)
    f += m.spring_knees[k].stiffness * static_cast<double>(k % 83 + 1);
  return f;
}

// Continuous collision (the settings' or a motion's) lifts the body's step
// cap to continuous_max_step_fraction, which must not undercut max_step_fraction.
void check_continuous_cap(const ClothSettings& s, const std::string& who) {
  if (!(s.continuous_max_step_fraction >= s.max_step_fraction))
    throw InvalidInput(who + ": continuous_max_step_fraction must be at least max_step_fraction");
}

void check_settings(const ClothSettings& s) {
  if (!(s.frame_rate > 0) || s.substeps < 1 || s.solver_iterations < 1 || s.sewing_solver_iterations < 1 ||
      s.closed_solver_iterations < 1 || !(s.seam_cap_growth >= 1) || !(s.seam_cap_max_scale >= 1) ||
      !(s.stalled_seam_join_distance >= 0) || s.corner_pass_through_rings < 0 ||
      s.corner_pass_through_frames < 0 || s.untangle_iterations < 0 || s.max_frames < 1 ||
      s.stall_resews < 0 || s.resew_frames < 1 || !(s.thickness > 0) || s.max_step_halvings < 0 ||
      !(s.max_step_fraction > 0))
    throw InvalidInput(
        "cloth settings: frame_rate, substeps, solver_iterations, max_frames, resew_frames, thickness and "
        "max_step_fraction must be positive");
  if (s.continuous_collision) check_continuous_cap(s, "cloth settings");
  if (!(s.compression_stiffness > 0 && s.compression_stiffness <= 1))
    throw InvalidInput("cloth settings: compression_stiffness must be in (0, 1]");
  if (!(s.strain_limit >= 0 && s.strain_limit <= 10) || s.strain_limit_iterations < 0)
    throw InvalidInput(
        "cloth settings: strain_limit must be in [0, 10] and strain_limit_iterations 0 or more");
  if (s.model.bending == BendingModel::isometric && s.integrator != Integrator::xpbd)
    throw InvalidInput("cloth settings: isometric bending is an XPBD constraint (integrator xpbd)");
}

}  // namespace

const char* integrator_name(Integrator i) {
  switch (i) {
    case Integrator::explicit_euler:
      return "explicit";
    case Integrator::paper_euler:
      return "paper";
    case Integrator::symplectic_euler:
      return "symplectic";
    case Integrator::xpbd:
      return "xpbd";
  }
  return "?";
}

Integrator parse_integrator(const std::string& name) {
  if (name == "explicit") return Integrator::explicit_euler;
  if (name == "paper") return Integrator::paper_euler;
  if (name == "symplectic") return Integrator::symplectic_euler;
  if (name == "xpbd") return Integrator::xpbd;
  throw InvalidInput("unknown integrator '" + name + "' (known: explicit, paper, symplectic, xpbd)");
}

ClothSimulation::ClothSimulation(const GarmentMesh& garment, const TriangleMesh& body,
                                 const std::vector<std::uint32_t>& body_face_regions, const Fabric& fabric,
                                 const ClothSettings& settings)
    : ClothSimulation(garment, &body, nullptr, body_face_regions, fabric, settings) {}

ClothSimulation::ClothSimulation(const GarmentMesh& garment, std::shared_ptr<const TriangleMeshBvh> body_tree,
                                 const std::vector<std::uint32_t>& body_face_regions, const Fabric& fabric,
                                 const ClothSettings& settings)
    : ClothSimulation(garment, body_tree ? &body_tree->mesh() : nullptr, body_tree, body_face_regions, fabric,
                      settings) {}

ClothSimulation::ClothSimulation(const GarmentMesh& garment, const TriangleMesh* body_mesh,
                                 std::shared_ptr<const TriangleMeshBvh> body_tree,
                                 const std::vector<std::uint32_t>& body_face_regions, const Fabric& fabric,
                                 const ClothSettings& settings)
    : impl_(std::make_unique<Impl>()) {
  static const TriangleMesh kNoBody;
  const TriangleMesh& body = body_mesh ? *body_mesh : kNoBody;
  Impl& s = *impl_;
  check_settings(settings);
  s.settings = settings;
  s.fabric = fabric;
  s.self_cone_angle = settings.self_cone_angle_degrees * std::numbers::pi / 180;
  if (settings.executor) {
    s.ex = settings.executor;
  } else {
    s.own_executor = std::make_unique<Executor>(settings.threads);
    s.ex = s.own_executor.get();
  }
  // The triangle stretch model is refused under another integrator.
  ClothModelOptions model_options = settings.model;
  model_options.stretch_model = resolve_stretch_model(garment, fabric, settings.model.stretch_model,
                                                      settings.integrator == Integrator::xpbd);
  s.model = build_cloth_model(garment, fabric, model_options);
  for (int p : settings.pinned) pin_vertex(s.model, p);
  if (!settings.vertex_loads.empty() && settings.vertex_loads.size() != s.model.vertex_count)
    throw InvalidInput("cloth settings: vertex_loads has " + std::to_string(settings.vertex_loads.size()) +
                       " entries for " + std::to_string(s.model.vertex_count) + " vertices");
  const std::size_t n = s.model.vertex_count;
  const std::size_t pairs = s.model.seam_a.size();
  SimulationState& st = s.st;
  st.x = garment.mesh.positions;
  s.start_top_y = cloth_top(st.x);
  s.start_middle_y = cloth_middle(st.x);
  st.v.assign(n, {});
  st.seam_joined.assign(pairs, 0);
  st.seam_cap_scale.assign(pairs, 1.0);
  st.seam_gap_prev.assign(pairs, std::numeric_limits<double>::infinity());
  st.substeps = settings.substeps;
  st.dt = 1 / (settings.frame_rate * settings.substeps);
  s.x_prev = st.x;
  s.force.assign(n, {});
  s.spring_force.assign(s.model.spring_a.size(), {});
  s.hinge_force.assign(4 * s.model.hinges.size(), {});
  s.lambda_spring.assign(s.model.spring_a.size(), 0.0);
  s.lambda_bend.assign(s.model.bend_quads.size(), Vec3{});
  s.lambda_triangle.assign(s.model.tri_weights.size(), {});
  s.lambda_seam.assign(pairs, 0.0);
  s.moved.assign(n, 0);
  // Stalled pairs this close to a seam corner (pulled from several sides) are
  // left to the sewing force, never snapped (seam_sewing.h).
  s.near_seam_corner = near_seam_corners(s.model, 2);
  s.report.integrator = integrator_name(settings.integrator);
  s.report.vertices = n;
  s.report.triangles = s.model.faces.size();
  s.report.seam_pairs = pairs;

  if (settings.body_collision && body.face_count() > 0) {
    s.body = body_tree ? std::make_unique<BodyCollider>(std::move(body_tree), body_face_regions, *s.ex)
                       : std::make_unique<BodyCollider>(body, body_face_regions, *s.ex);
    st.body = s.body->mesh().positions;
    const Aabb bounds = s.body->mesh().bounds();
    s.rest_body_height = bounds.max.y - bounds.min.y;
    s.vertex_group.resize(n);
    for (std::size_t i = 0; i < n; ++i) s.vertex_group[i] = s.body->group_for_mask(s.model.vertex_regions[i]);
    s.face_masks.resize(s.model.faces.size());
    for (std::size_t f = 0; f < s.model.faces.size(); ++f)
      s.face_masks[f] = s.model.vertex_regions[s.model.faces[f][0]];
    // Cloth placed inside the body (deeper than any step could reach) is put
    // back on the surface once, before the first step.
    s.project_inside_vertices();
  }
  if (settings.self_collision && !s.model.faces.empty()) {
    // The two sides of a seam count as one vertex for self-collision adjacency.
    UnionFind sides(n);
    for (std::size_t k = 0; k < pairs; ++k) sides.unite(s.model.seam_a[k], s.model.seam_b[k]);
    s.self = std::make_unique<SelfCollider>(s.model.faces, st.x, settings.thickness, s.self_cone_angle,
                                            sides.representatives());
    if (settings.corner_pass_through_rings > 0) {
      st.corner_group = corner_pass_through_groups(s.model, settings.corner_pass_through_rings);
      s.self->set_exempt_groups(st.corner_group);
    }
  }
  s.collisions = s.body || s.self;
  st.gravity_scale = 1;
  if (pairs > 0 && settings.zero_gravity_frames > 0) {
    st.gravity_scale = 0;
  } else {
    st.gravity_on_frame = 0;
  }
}

ClothSimulation::~ClothSimulation() = default;

DrapeResult ClothSimulation::run(const ClothProgressCallback& progress) { return impl_->run(progress); }
bool ClothSimulation::advance_frame() { return impl_->advance_frame(); }
void ClothSimulation::step(double dt) { impl_->step(dt); }
const std::vector<Vec3>& ClothSimulation::positions() const { return impl_->st.x; }
const std::vector<Vec3>& ClothSimulation::velocities() const { return impl_->st.v; }
void ClothSimulation::set_positions(const std::vector<Vec3>& x) {
  if (x.size() != impl_->st.x.size()) throw InvalidInput("set_positions: wrong vertex count");
  impl_->st.x = x;
}
void ClothSimulation::set_velocities(const std::vector<Vec3>& v) {
  if (v.size() != impl_->st.v.size()) throw InvalidInput("set_velocities: wrong vertex count");
  impl_->st.v = v;
}
const ClothModel& ClothSimulation::model() const { return impl_->model; }
double ClothSimulation::kinetic_energy() const { return impl_->kinetic(); }
double ClothSimulation::potential_energy() const { return impl_->potential(); }
double ClothSimulation::max_seam_gap() const { return impl_->seam_gap(); }
DrapeReport ClothSimulation::measure() const { return impl_->measure(); }
double ClothSimulation::step_size() const { return impl_->st.dt; }

void ClothSimulation::set_frame_stepping(double frame_seconds, int substeps) {
  if (!(frame_seconds > 0) || !std::isfinite(frame_seconds) || substeps < 1 || substeps > 100000)
    throw InvalidInput("frame stepping: needs a frame time > 0 and 1..100000 steps per frame");
  impl_->st.substeps = substeps;
  impl_->st.dt = frame_seconds / substeps;
}
void ClothSimulation::set_motion_untangle_iterations(int iterations) {
  if (iterations < 0) throw InvalidInput("motion untangling: iterations must be 0 or more");
  impl_->motion_untangle_iterations = iterations;
}
void ClothSimulation::set_strain_limit(double limit) {
  if (!(limit >= 0 && limit <= 10)) throw InvalidInput("strain limit must be in [0, 10]");
  impl_->settings.strain_limit = limit;
}
void ClothSimulation::set_stall_resews(int resews) {
  if (resews < 0) throw InvalidInput("stall resews must not be negative");
  impl_->settings.stall_resews = resews;
}
void ClothSimulation::set_rest_air_damping(double per_second) {
  if (!std::isfinite(per_second) || per_second > 1000)
    throw InvalidInput("air damping must be finite and at most 1000 per second");
  impl_->settings.rest_air_damping = per_second;
}
bool ClothSimulation::body_moving() const { return impl_->moving(); }

const DrapeReport& ClothSimulation::running_report() const {
  Impl& s = *impl_;
  s.report.steps = s.st.steps;
  s.report.step_halvings = s.st.step_halvings;
  s.report.self_searches = s.self ? s.self->searches() : 0;
  return s.report;
}

const TriangleMesh& ClothSimulation::body() const {
  static const TriangleMesh kNone;
  return impl_->body ? impl_->body->mesh() : kNone;
}

void ClothSimulation::set_body_motion(BodyMotion motion) {
  Impl& s = *impl_;
  if (!s.body) throw InvalidInput("body motion: the simulation has no body");
  if (motion.frames < 1 || !motion.body_at) throw InvalidInput("body motion: needs frames >= 1 and body_at");
  if (motion.continuous_collision) check_continuous_cap(s.settings, "body motion");
  s.motion = std::move(motion);
  s.st.motion_done = 0;
  s.motion_frame_ready = false;
  s.anchor_fall_off();
}

void ClothSimulation::start_sewn() {
  Impl& s = *impl_;
  SimulationState& st = s.st;
  std::fill(st.seam_joined.begin(), st.seam_joined.end(), 1);
  std::fill(st.seam_gap_prev.begin(), st.seam_gap_prev.end(), 0.0);
  std::fill(st.v.begin(), st.v.end(), Vec3{});
  st.gravity_scale = 1;
  st.gravity_on_frame = st.frame;
  st.last_join_frame = st.frame;
  // No corner passes through itself: its pairs are joined and its sides in
  // place already (the pass-through is for panels placed flat, whose corner
  // pairs start with cloth between them). Kept, the exempt corners crossed
  // themselves in the settle (10 mm trousers carried from 20 mm: 3 crossing pairs
  // at the crotch, left after untangling; without: 0).
  st.corner_group.clear();
  if (s.self) s.self->set_exempt_groups(st.corner_group);
}

// The bytes: magic, the model's face count and fingerprint, then the state.
std::string ClothSimulation::save_state() const {
  const Impl& s = *impl_;
  std::string out(kStateMagic, sizeof(kStateMagic));
  const std::uint64_t faces = s.model.faces.size();
  const double fingerprint = model_fingerprint(s.model);
  out.append(reinterpret_cast<const char*>(&faces), sizeof(faces));
  out.append(reinterpret_cast<const char*>(&fingerprint), sizeof(fingerprint));
  write_simulation_state(s.st, out);
  return out;
}

void ClothSimulation::load_state(const std::string& bytes, const std::string& source) {
  Impl& s = *impl_;
  constexpr std::size_t kHeader = sizeof(kStateMagic) + sizeof(std::uint64_t) + sizeof(double);
  if (bytes.size() < sizeof(kStateMagic) ||
      bytes.compare(0, sizeof(kStateMagic), kStateMagic, sizeof(kStateMagic)))
    throw InvalidInput(source, 0, "not a drape checkpoint state");
  if (bytes.size() < kHeader) throw InvalidInput(source, 0, "checkpoint state is truncated");
  std::uint64_t faces = 0;
  double fingerprint = 0;
  std::memcpy(&faces, bytes.data() + sizeof(kStateMagic), sizeof(faces));
  std::memcpy(&fingerprint, bytes.data() + sizeof(kStateMagic) + sizeof(faces), sizeof(fingerprint));
  if (faces != s.model.faces.size() || fingerprint != model_fingerprint(s.model))
    throw InvalidInput(source, 0, "checkpoint state belongs to another garment or mesh settings");
  SimulationStateShape shape;
  shape.vertices = s.model.vertex_count;
  shape.seam_pairs = s.model.seam_a.size();
  shape.body_vertices = s.body ? s.body->mesh().vertex_count() : 0;
  shape.motion_frames = s.motion.frames;
  std::size_t at = kHeader;
  s.st = read_simulation_state(bytes, at, shape, source);
  s.resume_first_frame = s.st.run_first_frame;
  s.motion_frame_ready = false;
  s.x_prev = s.st.x;
  if (s.self) s.self->set_exempt_groups(s.st.corner_group);
  if (s.body) s.body->move_vertices(s.st.body);
  if (s.self) s.self->update_curvature(s.st.x, *s.ex);
}

}  // namespace drape
