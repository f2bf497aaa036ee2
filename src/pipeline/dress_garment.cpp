// Prepare-garment stage of `drape dress`: body landmarks and regions, mesh,
// place, fit check, grading (dress_stages.h).

#include <chrono>

#include "drape/body/body_grading.h"
#include "drape/body/body_measurements.h"
#include "drape/core/exceptions.h"
#include "drape/core/timing.h"
#include "drape/pattern/alias.h"
#include "drape/pattern/placement.h"
#include "drape/pipeline/dress_stages.h"

namespace drape {
namespace {

// A fit problem as a warning: "garment too small at the waist: ...",
// "garment too loose to stay up: ...".
std::string fit_warning(const std::string& problem, const std::string& what) {
  if (problem.rfind("too loose", 0) == 0) return what + " " + problem;
  return what + " too small at the " + problem;
}

}  // namespace

PreparedGarment prepare_garment(const DressJob& job, const Pattern& pattern, const TriangleMeshBvh& body_tree,
                                const std::string& body_source, const StageStarted& started,
                                const TriangleMesh* measured_body) {
  using clock = std::chrono::steady_clock;
  auto start = [&](const std::string& stage) {
    if (started) started(stage);
  };
  const TriangleMesh& body = body_tree.mesh();
  PreparedGarment g;
  g.pattern = pattern;
  if (job.grain_angle_deg)
    for (Panel& p : g.pattern.panels) p.grain_deg = *job.grain_angle_deg;
  for (const auto& [name, deg] : job.panel_grain_deg) {
    bool found = false;
    for (Panel& p : g.pattern.panels)
      if (p.name == name) {
        p.grain_deg = deg;
        found = true;
      }
    if (!found) throw InvalidInput("--grain-angle: the pattern has no panel '" + name + "'");
  }

  // Body landmarks and regions (docs/METHODS.md "Patterns and placement", steps 15-16).
  auto t0 = clock::now();
  g.frame = analyse_body(body, body_source);
  g.regions = label_body_regions(body, g.frame);

  // Mesh and place.
  start("mesh");
  const MeshingOptions mo = meshing_options(job, job.particle_distance);
  g.mesh = mesh_pattern(g.pattern, mo);
  add_warnings(g.warnings, g.mesh.warnings);
  g.times.emplace_back("mesh", seconds_since(t0));
  start("place");
  t0 = clock::now();
  add_warnings(g.warnings, place_on_body(g.pattern, g.mesh, body_tree, g.frame).warnings);
  g.times.emplace_back("place", seconds_since(t0));

  // Fit: a garment shorter than the body where it must go round cannot close
  // its seams; say where and by how much before simulating.
  std::optional<BodyMeasurements> bm;
  try {
    // The limb measures (thigh, upper arm) only for garments with legs,
    // sleeves or a torso (its armholes go round the arms): they make
    // measuring about three times slower.
    bool limbs = false;
    for (const Panel& p : g.pattern.panels) {
      const AliasPart part = parse_alias(p.alias).part;
      limbs = limbs || part == AliasPart::leg || part == AliasPart::sleeve || part == AliasPart::torso;
    }
    // Girths of the body as it stands (raised arms pull at the chest's skin).
    bm = measured_body
             ? measure_body(*measured_body, analyse_body(*measured_body, body_source), body_source, limbs)
             : measure_body(body, g.frame, body_source, limbs);
    g.fit = check_fit(g.pattern, g.mesh, *bm);
  } catch (const InvalidInput& e) {
    add_warnings(g.warnings, {std::string("fit check skipped: ") + e.what()});
  }
  if (g.fit)
    for (const std::string& p : g.fit->problems) add_warnings(g.warnings, {fit_warning(p, "garment")});

  // Grading: widen the pattern where it is too small, then mesh and place it again.
  if (g.fit && !g.fit->fits && job.grade) {
    start("grade");
    t0 = clock::now();
    const BodyGrading graded = grade_to_body(g.pattern, body_tree, *bm, job.particle_distance,
                                             GradingOptions{.ease = job.grade_ease}, &g.frame);
    add_warnings(g.warnings, graded.grading.warnings);
    // Nothing graded (every level out of range, or the grading undone): the
    // garment as meshed and placed above, and no grading in the report.
    if (graded.grading.graded) {
      g.grading = graded.grading;
      g.pattern = g.grading->pattern;
      g.mesh = mesh_pattern(g.pattern, mo);
      add_warnings(g.warnings, g.mesh.warnings);
      add_warnings(g.warnings, place_on_body(g.pattern, g.mesh, body_tree, g.frame).warnings);
      g.fit_before_grading = g.fit;
      g.fit = check_fit(g.pattern, g.mesh, *bm);
      for (const std::string& p : g.fit->problems)
        add_warnings(g.warnings, {fit_warning(p, "graded garment")});
    }
    g.times.emplace_back("grade", seconds_since(t0));
  }
  if (g.fit && !g.fit->fits && job.strict)
    throw SolverError(
        "the garment cannot close on this body (--strict): " + g.fit->problems.front() +
        (g.fit->problems.size() > 1 ? " and " + std::to_string(g.fit->problems.size() - 1) + " more" : ""));
  return g;
}

}  // namespace drape
