#include "drape/fabric_lab/specimen.h"

#include <algorithm>
#include <cmath>

#include "drape/core/exceptions.h"

namespace drape {

GarmentMesh strip_specimen(double x0, double length, double width, int nx, int ny) {
  if (nx < 1 || ny < 1 || !(length > 0) || !(width > 0)) throw InvalidInput("strip specimen: empty strip");
  GarmentMesh g;
  const double hx = length / nx, hy = width / ny;
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) {
      const double x = x0 + i * hx, z = j * hy;
      g.mesh.positions.push_back({x, 0, z});
      g.rest.push_back({x, z});
    }
  auto id = [nx](int i, int j) { return j * (nx + 1) + i; };
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const int a = id(i, j), b = id(i + 1, j), c = id(i + 1, j + 1), d = id(i, j + 1);
      // Counter-clockwise seen from +y is clockwise in (x, z): the orientation does not matter here.
      if ((i + j) % 2) {
        g.mesh.faces.push_back({a, b, d});
        g.mesh.faces.push_back({b, c, d});
      } else {
        g.mesh.faces.push_back({a, b, c});
        g.mesh.faces.push_back({a, c, d});
      }
    }
  g.panel_of_vertex.assign(g.mesh.positions.size(), 0);
  g.panel_names = {"specimen"};
  g.panel_regions = {body_region::all};
  return g;
}

GarmentMesh equilateral_strip_specimen(double length, int nx, int rows) {
  if (nx < 2 || rows < 1 || !(length > 0)) throw InvalidInput("strip specimen: empty strip");
  GarmentMesh g;
  const double h = length / nx, hy = h * std::sqrt(3.0) / 2;
  // Even rows: x = i h, i = 0..nx. Odd rows: 0, h/2, 3h/2, ..., length (nx + 2 vertices).
  std::vector<int> start;
  for (int j = 0; j <= rows; ++j) {
    start.push_back(static_cast<int>(g.rest.size()));
    std::vector<double> xs;
    if (j % 2 == 0) {
      for (int i = 0; i <= nx; ++i) xs.push_back(i * h);
    } else {
      xs.push_back(0);
      for (int i = 0; i < nx; ++i) xs.push_back((i + 0.5) * h);
      xs.push_back(length);
    }
    for (double x : xs) {
      g.rest.push_back({x, j * hy});
      g.mesh.positions.push_back({x, 0, j * hy});
    }
  }
  start.push_back(static_cast<int>(g.rest.size()));
  // Between two rows: merge by x like a zipper.
  for (int j = 0; j < rows; ++j) {
    int a = start[j], b = start[j + 1];
    const int a_end = start[j + 1], b_end = start[j + 2];
    while (a + 1 < a_end || b + 1 < b_end) {
      // Advance the row whose next vertex comes first; at the strip's end (both
      // next at x = length) the one that lags, so that no edge spans a whole spacing.
      const bool step_b =
          a + 1 >= a_end ||
          (b + 1 < b_end && (g.rest[b + 1].x < g.rest[a + 1].x ||
                             (g.rest[b + 1].x == g.rest[a + 1].x && g.rest[b].x < g.rest[a].x)));
      if (step_b) {
        g.mesh.faces.push_back({a, b + 1, b});
        ++b;
      } else {
        g.mesh.faces.push_back({a, a + 1, b});
        ++a;
      }
    }
  }
  g.panel_of_vertex.assign(g.mesh.positions.size(), 0);
  g.panel_names = {"specimen"};
  g.panel_regions = {body_region::all};
  return g;
}

GarmentMesh disc_specimen(double radius, int rings) {
  if (rings < 1 || !(radius > 0)) throw InvalidInput("disc specimen: empty disc");
  GarmentMesh g;
  const double pi = 3.14159265358979323846;
  std::vector<int> first(rings + 1);
  g.mesh.positions.push_back({0, 0, 0});
  g.rest.push_back({0, 0});
  first[0] = 0;
  for (int k = 1; k <= rings; ++k) {
    first[k] = static_cast<int>(g.mesh.positions.size());
    const double r = radius * k / rings;
    for (int i = 0; i < 6 * k; ++i) {
      const double a = 2 * pi * i / (6 * k);
      g.mesh.positions.push_back({r * std::cos(a), 0, r * std::sin(a)});
      g.rest.push_back({r * std::cos(a), r * std::sin(a)});
    }
  }
  for (int o = 0; o < 6; ++o) g.mesh.faces.push_back({0, first[1] + o, first[1] + (o + 1) % 6});
  // Between ring k-1 and ring k: merge the two rings by angle (both start at angle 0).
  for (int k = 2; k <= rings; ++k) {
    const int n_in = 6 * (k - 1), n_out = 6 * k;
    int i = 0, o = 0;
    while (i < n_in || o < n_out) {
      const int vin = first[k - 1] + i % n_in, vout = first[k] + o % n_out;
      const bool outer = o < n_out && (i >= n_in || (o + 1) * n_in <= (i + 1) * n_out);
      if (outer) {
        g.mesh.faces.push_back({vin, vout, first[k] + (o + 1) % n_out});
        ++o;
      } else {
        g.mesh.faces.push_back({vin, vout, first[k - 1] + (i + 1) % n_in});
        ++i;
      }
    }
  }
  g.panel_of_vertex.assign(g.mesh.positions.size(), 0);
  g.panel_names = {"specimen"};
  g.panel_regions = {body_region::all};
  return g;
}

ClothSettings lab_settings(int iterations, bool self_collision) {
  ClothSettings s;
  s.model.bending = BendingModel::isometric;
  s.model.use_grid_springs = false;
  s.model.stretch = StretchMapping::uniaxial;
  s.solver_iterations = iterations;
  s.closed_solver_iterations = iterations;
  s.sewing_solver_iterations = iterations;
  s.zero_gravity_frames = 0;
  s.body_collision = false;
  s.self_collision = self_collision;
  s.threads = 1;
  return s;
}

Fabric lab_fabric(const Fabric& fabric) {
  Fabric f = fabric;
  f.air_damping = std::max(f.air_damping, 8.0);
  return f;
}

int settle(ClothSimulation& sim, int max_frames, double tolerance) {
  std::vector<Vec3> before = sim.positions();
  for (int frame = 1; frame <= max_frames; ++frame) {
    if (!sim.advance_frame()) throw SolverError("fabric lab: the specimen diverged");
    const std::vector<Vec3>& x = sim.positions();
    double moved = 0;
    for (std::size_t i = 0; i < x.size(); ++i) moved = std::max(moved, norm(x[i] - before[i]));
    before = x;
    if (frame >= 10 && moved < tolerance) return frame;
  }
  return max_frames;
}

}  // namespace drape
