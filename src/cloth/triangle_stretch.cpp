// StretchModel::triangle: Baraff and Witkin's stretch and shear conditions in
// the grain frame of each triangle's flat rest (docs/FABRICS.md, "Warp, weft
// and bias").
#include "triangle_stretch.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <string>

#include "drape/cloth/orthotropic.h"
#include "drape/cloth/stretch_curve.h"
#include "drape/core/exceptions.h"

namespace drape {
namespace {

std::string shortest(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

}  // namespace

const char* stretch_model_name(StretchModel model) {
  switch (model) {
    case StretchModel::triangle:
      return "triangle";
    case StretchModel::springs:
      break;
  }
  return "springs";
}

StretchModel parse_stretch_model(const std::string& name) {
  if (name == "springs") return StretchModel::springs;
  if (name == "triangle") return StretchModel::triangle;
  throw InvalidInput("unknown stretch model '" + name + "' (known: springs, triangle)");
}

StretchModel resolve_stretch_model(const GarmentMesh& garment, const Fabric& fabric, StretchModel requested,
                                   bool xpbd) {
  const std::string where = fabric.source.empty() ? "the fabric '" + fabric.name + "'" : fabric.source;
  if (requested == StretchModel::springs) {
    // The springs' Y(theta) (fabric_stretch_at) must stay positive in every
    // direction; a stretch curve's segments are checked when the file is read.
    if (fabric_stretch_linear(fabric) && !fabric_stretch_isotropic(fabric) &&
        !(DirectionalStretch(fabric.stretch, fabric_stretch_weft(fabric), fabric_stretch_bias(fabric))
              .minimum() > 0))
      throw InvalidInput(where + ": key 'stretch_bias_N_m' (" + shortest(fabric_stretch_bias(fabric)) +
                         " N/m) is too small for the warp and weft under --stretch-model springs (the edge "
                         "springs' stretch modulus would be <= 0 in some direction): use --stretch-model "
                         "triangle");
    return requested;
  }
  const bool linear = fabric_stretch_linear(fabric);
  const bool shear = fabric_orthotropic_shear_modulus(fabric) > 0;
  const bool flat = !garment.rest.empty();
  if (!xpbd)
    throw InvalidInput(
        "--stretch-model triangle needs --integrator xpbd (the other integrators have springs only)");
  if (!linear)
    throw InvalidInput("--stretch-model triangle: " + where +
                       " has a stretch curve (stretch_curve_*_N_m); the triangle model is linear: use "
                       "--stretch-model springs");
  if (!shear)
    throw InvalidInput("--stretch-model triangle: " + where +
                       " has a bias (stretch_bias_N_m) at least 4 warp weft / (warp + weft): no orthotropic "
                       "sheet has it (its shear modulus would be <= 0 or infinite)");
  if (!flat)
    throw InvalidInput("--stretch-model triangle: the garment has no flat rest shape (no grain frame)");
  return requested;
}

void build_triangle_stretch(ClothModel& m, const GarmentMesh& g, const Fabric& fabric,
                            const std::vector<double>& face_area) {
  const double warp = fabric.stretch, weft = fabric_stretch_weft(fabric);
  const double shear = fabric_orthotropic_shear_modulus(fabric);
  if (!(shear > 0)) throw InvalidInput("triangle stretch model: no shear modulus gives the fabric's bias");
  const std::size_t faces = g.mesh.face_count();
  m.stretch_triangles = true;
  m.tri_weights.resize(faces);
  m.tri_stiffness.resize(faces);
  for (std::size_t f = 0; f < faces; ++f) {
    const Triangle& t = g.mesh.faces[f];
    const int panel = g.panel_of_vertex.empty() ? 0 : g.panel_of_vertex[t[0]];
    const double grain = panel < static_cast<int>(g.panel_grain.size()) ? g.panel_grain[panel] : 0.0;
    // The warp u is the grain, +y of the panel turned `grain` counter-clockwise;
    // the weft v is u turned -90 degrees. Rest coordinates in that frame.
    const Vec2 u{-std::sin(grain), std::cos(grain)}, v{u.y, -u.x};
    double a[3][2];
    for (int i = 0; i < 3; ++i) {
      const Vec2 p = g.rest[t[i]];
      a[i][0] = p.x * u.x + p.y * u.y;
      a[i][1] = p.x * v.x + p.y * v.y;
    }
    // D = [a1 - a0, a2 - a0] (columns); F = [x1 - x0, x2 - x0] D^-1, so
    // F u = sum_i b_i x_i with b = (-(M00 + M10), M00, M10), M = D^-1, and
    // F v likewise with M's second column.
    const double d00 = a[1][0] - a[0][0], d01 = a[2][0] - a[0][0];
    const double d10 = a[1][1] - a[0][1], d11 = a[2][1] - a[0][1];
    const double det = d00 * d11 - d01 * d10;
    const double m00 = d11 / det, m01 = -d01 / det, m10 = -d10 / det, m11 = d00 / det;
    m.tri_weights[f] = {-(m00 + m10), m00, m10, -(m01 + m11), m01, m11};
    m.tri_stiffness[f] = {warp * face_area[f], weft * face_area[f], shear * face_area[f]};
  }
  // Greedy colouring: no two faces of a colour share a vertex.
  std::vector<std::uint64_t> used(m.vertex_count, 0);
  std::vector<int> colour(faces, 0);
  int colours = 0;
  for (std::size_t f = 0; f < faces; ++f) {
    std::uint64_t taken = 0;
    for (int x : g.mesh.faces[f]) taken |= used[x];
    const int c = ~taken != 0 ? std::countr_one(taken) : 64 + static_cast<int>(f);
    colour[f] = c;
    if (c < 64)
      for (int x : g.mesh.faces[f]) used[x] |= 1ull << c;
    colours = std::max(colours, c + 1);
  }
  std::vector<int> count(colours + 1, 0);
  for (int c : colour) ++count[c + 1];
  std::vector<int> remap(colours, -1);
  m.tri_colour_offsets.assign(1, 0);
  for (int c = 0; c < colours; ++c)
    if (count[c + 1]) {
      remap[c] = static_cast<int>(m.tri_colour_offsets.size()) - 1;
      m.tri_colour_offsets.push_back(m.tri_colour_offsets.back() + count[c + 1]);
    }
  m.tri_colour_faces.assign(faces, 0);
  std::vector<int> fill(m.tri_colour_offsets.begin(), m.tri_colour_offsets.end() - 1);
  for (std::size_t f = 0; f < faces; ++f) m.tri_colour_faces[fill[remap[colour[f]]]++] = static_cast<int>(f);
}

}  // namespace drape
