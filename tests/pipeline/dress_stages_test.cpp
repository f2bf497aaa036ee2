// The stages of `drape dress` run alone (pipeline/dress_stages.h): the load
// stage's one body tree, and the prepare-garment stage on a small two-panel
// pattern, checked against answers computed here by brute force.

#include "drape/pipeline/dress_stages.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <utility>

#include "drape/core/atomic_file.h"
#include "drape/geometry/triangle_queries.h"
#include "drape/pattern/placement.h"
#include "test_temp_dir.h"

using namespace drape;
namespace fs = std::filesystem;

namespace {

// Two 50 x 60 cm rectangles, front and back, sewn at both sides: a tube skirt.
constexpr double kWidth = 0.5, kHeight = 0.6;
constexpr const char* kTube = R"({
  "properties": {"units_in_meter": 100, "curvature_coords": "relative"},
  "pattern": {
    "panels": {
      "front": {"alias": "front", "vertices": [[-25, 0], [25, 0], [25, 60], [-25, 60]],
                "edges": [{"endpoints": [0, 1]}, {"endpoints": [1, 2]}, {"endpoints": [2, 3]}, {"endpoints": [3, 0]}]},
      "back": {"alias": "back", "vertices": [[-25, 0], [25, 0], [25, 60], [-25, 60]],
               "edges": [{"endpoints": [0, 1]}, {"endpoints": [1, 2]}, {"endpoints": [2, 3]}, {"endpoints": [3, 0]}]}
    },
    "stitches": [[{"panel": "front", "edge": 1}, {"panel": "back", "edge": 3}],
                 [{"panel": "front", "edge": 3}, {"panel": "back", "edge": 1}]]
  }
})";

DressJob tube_job() {
  const fs::path dir = drape::test::test_temp_dir() / "dress_stages";
  fs::create_directories(dir);
  write_file_atomically(dir / "tube.json", kTube);
  DressJob job;
  job.body_path = fs::path(DRAPE_DATA_DIR) / "bodies/makehuman/base.obj";
  job.pattern_path = dir / "tube.json";
  job.particle_distance = 0.04;
  return job;
}

// Brute force over every body triangle: the distance from p to the body.
double distance_to_body(const TriangleMesh& body, const Vec3& p) {
  double best = std::numeric_limits<double>::infinity();
  for (const Triangle& f : body.faces) {
    const ClosestPoint c =
        closest_point_on_triangle(p, body.positions[f[0]], body.positions[f[1]], body.positions[f[2]]);
    best = std::min(best, norm(p - c.point));
  }
  return best;
}

}  // namespace

TEST(DressStages, LoadBuildsOneTreeOverTheBodyAsLoaded) {
  const DressJob job = tube_job();
  const DressInputs in = load_dress_inputs(job);
  ASSERT_TRUE(in.body_tree);
  // The tree holds its own copy of the body, equal to the loaded one, every face.
  EXPECT_NE(&in.body_tree->mesh(), &in.body.mesh);
  EXPECT_EQ(in.body_tree->mesh().positions, in.body.mesh.positions);
  EXPECT_EQ(in.body_tree->mesh().faces, in.body.mesh.faces);
  EXPECT_EQ(in.body_tree->face_count(), in.body.mesh.face_count());
  EXPECT_EQ(in.pattern.panels.size(), 2u);
  // Each input hashed once, by its loader: the hash is the file's.
  EXPECT_EQ(in.hashes.of(job.pattern_path), in.pattern.sha256);
  EXPECT_EQ(in.hashes.of(job.body_path), in.body.sha256);
}

TEST(DressStages, PrepareGarmentMeshesAndPlacesTheTubeAroundTheBody) {
  const DressJob job = tube_job();
  const DressInputs in = load_dress_inputs(job);
  const PreparedGarment g = prepare_garment(job, in.pattern, *in.body_tree, job.body_path.string());
  const TriangleMesh& body = in.body.mesh;

  // The body's frame: its height is the extent of its vertices in y.
  double ymin = 1e300, ymax = -1e300, zmin = 1e300, zmax = -1e300;
  for (const Vec3& p : body.positions) {
    ymin = std::min(ymin, p.y), ymax = std::max(ymax, p.y);
    zmin = std::min(zmin, p.z), zmax = std::max(zmax, p.z);
  }
  EXPECT_NEAR(g.frame.height, ymax - ymin, 1e-12);
  EXPECT_EQ(g.regions.size(), body.face_count());

  // The mesh covers each rectangle exactly: its rest triangles' areas sum to 50 x 60 cm.
  const GarmentMesh& gm = g.mesh.garment;
  ASSERT_EQ(g.mesh.panels.size(), 2u);
  for (const PanelMeshRange& pr : g.mesh.panels) {
    double area = 0;
    for (int f = pr.first_face; f < pr.first_face + pr.face_count; ++f) {
      const Triangle& t = gm.mesh.faces[static_cast<std::size_t>(f)];
      const Vec2 a = gm.rest[t[0]], b = gm.rest[t[1]], c = gm.rest[t[2]];
      area += std::abs(cross(b - a, c - a)) / 2;
    }
    EXPECT_NEAR(area, kWidth * kHeight, 1e-9);
  }

  // Placed by alias: the front panel in front of the body's middle, the back
  // panel behind it, every vertex outside the body's surface yet near it.
  const double zmid = (zmin + zmax) / 2;
  double z_front = 0, z_back = 0;
  for (std::size_t v = 0; v < gm.mesh.vertex_count(); ++v) {
    const Vec3& p = gm.mesh.positions[v];
    (gm.panel_names[static_cast<std::size_t>(gm.panel_of_vertex[v])] == "front" ? z_front : z_back) += p.z;
    const double d = distance_to_body(body, p);
    EXPECT_GT(d, 0.0) << "vertex " << v;
    EXPECT_LT(d, 0.3) << "vertex " << v;
    EXPECT_GT(p.y, ymin);
    EXPECT_LT(p.y, ymax);
  }
  const double per_panel = static_cast<double>(gm.mesh.vertex_count()) / 2;
  EXPECT_GT(z_front / per_panel, zmid);
  EXPECT_LT(z_back / per_panel, zmid);

  // The shared tree changes nothing: placing with a tree of its own gives the same garment.
  PatternMesh again = mesh_pattern(in.pattern, MeshingOptions{.particle_distance = job.particle_distance});
  place_on_body(in.pattern, again, body, g.frame);
  EXPECT_EQ(again.garment.mesh.positions, gm.mesh.positions);
}

// A garment held up by a ring round the body (the fit check finds its
// opening: a skirt) gets the job's stiffer closed solve, the larger of the
// two settings; one the shoulders hold (a shirt) keeps the cloth's. With 4
// iterations a skirt's waist stretches over hips 6 % larger than it and the
// skirt slides off (docs/CLOTH.md, "Garments held by a ring").
TEST(DressStages, AGarmentHeldByItsOpeningGetsTheStifferClosedSolve) {
  for (const auto& [file, held] : {std::pair{"flare_skirt_specification.json", true},
                                   std::pair{"shirt_mean_specification.json", false}}) {
    DressJob job;
    job.body_path = fs::path(DRAPE_DATA_DIR) / "bodies/makehuman/base.obj";
    job.pattern_path = fs::path(DRAPE_DATA_DIR) / "patterns/garmentcode" / file;
    job.particle_distance = 0.04;
    const DressInputs in = load_dress_inputs(job);
    const PreparedGarment g = prepare_garment(job, in.pattern, *in.body_tree, job.body_path.string());
    ASSERT_TRUE(g.fit.has_value()) << file;
    EXPECT_EQ(g.fit->opening.has_value(), held) << file;
    ASSERT_GT(job.ring_held_closed_iterations, job.cloth.closed_solver_iterations);
    const DressSimulation stiff(job, in, g, nullptr);
    EXPECT_EQ(stiff.settings().closed_solver_iterations,
              held ? job.ring_held_closed_iterations : job.cloth.closed_solver_iterations)
        << file;
    job.ring_held_closed_iterations = 0;  // never lowers the cloth's own setting
    const DressSimulation plain(job, in, g, nullptr);
    EXPECT_EQ(plain.settings().closed_solver_iterations, job.cloth.closed_solver_iterations) << file;
  }
}
