#include "scene_fixture.h"

#include <cmath>
#include <map>

#include "drape/io/mesh_io.h"
#include "drape/render/colormap.h"

namespace drape::test {

TriangleMesh load_reference_body() {
  MeshReadOptions o;
  o.group = "body";
  return read_obj(std::filesystem::path(DRAPE_DATA_DIR) / "bodies/makehuman/base.obj", o).mesh;
}

ShirtLike make_shirt_like(const TriangleMesh& body, double offset, double y_min, double y_max,
                          double half_width) {
  const std::vector<Vec3> normals = body.vertex_normals();
  ShirtLike out;
  std::map<int, int> remap;  // ordered: deterministic vertex order
  for (std::size_t f = 0; f < body.face_count(); ++f) {
    const Vec3 c = body.face_centroid(f);
    if (c.y < y_min || c.y > y_max || std::abs(c.x) > half_width) continue;
    Triangle t;
    for (int k = 0; k < 3; ++k) {
      const int v = body.faces[f][k];
      auto [it, inserted] = remap.try_emplace(v, static_cast<int>(out.mesh.positions.size()));
      if (inserted) out.mesh.positions.push_back(body.positions[v] + normals[v] * offset);
      t[k] = it->second;
    }
    out.mesh.faces.push_back(t);
  }
  std::vector<int> original(out.mesh.positions.size());
  for (auto [from, to] : remap) original[to] = from;
  std::vector<double> sum(out.mesh.positions.size(), 0.0);
  std::vector<int> count(sum.size(), 0);
  for (const Triangle& t : out.mesh.faces)
    for (int k = 0; k < 3; ++k) {
      const int a = t[k], b = t[(k + 1) % 3];
      const double rest = norm(body.positions[original[a]] - body.positions[original[b]]);
      const double now = norm(out.mesh.positions[a] - out.mesh.positions[b]);
      if (rest <= 0) continue;
      for (int v : {a, b}) {
        sum[v] += now / rest - 1.0;
        ++count[v];
      }
    }
  out.strain.resize(sum.size());
  for (std::size_t i = 0; i < sum.size(); ++i) out.strain[i] = count[i] ? sum[i] / count[i] : 0.0;
  return out;
}

std::vector<Vec3> strain_colors(const std::vector<double>& strain) {
  const StrainRange range = auto_strain_range(strain);
  std::vector<Vec3> c;
  for (double s : strain) c.push_back(srgb_to_linear(strain_color(s, range)));
  return c;
}

}  // namespace drape::test
