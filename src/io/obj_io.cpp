#include <tiny_obj_loader.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"
#include "drape/core/sha256.h"
#include "drape/core/strings.h"
#include "drape/io/mesh_io.h"
#include "drape/io/mesh_limits.h"

namespace drape {

namespace {

// tinyobjloader accepts some malformed input silently (a "nan" coordinate
// becomes 0, an index past the end is not always caught), and reports no line
// numbers. This pass checks what it does not, so errors name file and line.
void validate_obj_text(const std::string& text, const std::string& source) {
  std::istringstream in(text);
  std::string line;
  std::size_t line_no = 0;
  long long vertex_count = 0, texcoord_count = 0, normal_count = 0, triangle_count = 0;
  while (std::getline(in, line)) {
    ++line_no;
    std::size_t i = line.find_first_not_of(" \t");
    if (i == std::string::npos || line[i] == '#') continue;
    if (line.compare(i, 2, "v ") == 0 || line.compare(i, 2, "v\t") == 0) {
      if (++vertex_count > static_cast<long long>(kMaxMeshVertices))
        throw InvalidInput(
            source, line_no,
            "more than " + std::to_string(kMaxMeshVertices) + " vertices (the reader's limit)");
      std::istringstream ls(line.substr(i + 2));
      std::string tok;
      int n = 0;
      while (ls >> tok && n < 3) {
        char* end = nullptr;
        const double v = std::strtod(tok.c_str(), &end);
        if (end == tok.c_str() || *end != '\0')
          throw InvalidInput(source, line_no, "vertex coordinate '" + tok + "' is not a number");
        if (!std::isfinite(v)) throw InvalidInput(source, line_no, "vertex coordinate is NaN or infinite");
        ++n;
      }
      if (n < 3) throw InvalidInput(source, line_no, "vertex has fewer than 3 coordinates");
    } else if (line.compare(i, 3, "vt ") == 0 || line.compare(i, 3, "vt\t") == 0) {
      ++texcoord_count;
    } else if (line.compare(i, 3, "vn ") == 0 || line.compare(i, 3, "vn\t") == 0) {
      ++normal_count;
    } else if (line.compare(i, 2, "f ") == 0 || line.compare(i, 2, "f\t") == 0) {
      std::istringstream ls(line.substr(i + 2));
      std::string tok;
      int n = 0;
      while (ls >> tok) {
        // v, v/vt, v//vn or v/vt/vn: each present index must be in range.
        std::size_t start = 0;
        for (int part = 0; part < 3 && start <= tok.size(); ++part) {
          const std::size_t slash = std::min(tok.find('/', start), tok.size());
          const std::string field = tok.substr(start, slash - start);
          start = slash + 1;
          if (field.empty()) {
            if (part == 0)
              throw InvalidInput(source, line_no, "face vertex '" + tok + "' has no position index");
            if (slash == tok.size()) break;
            continue;
          }
          long long idx = 0;
          auto [p, ec] = std::from_chars(field.data(), field.data() + field.size(), idx);
          if (ec != std::errc() || p != field.data() + field.size())
            throw InvalidInput(source, line_no, "face index '" + tok + "' is not an integer");
          const long long count = part == 0 ? vertex_count : (part == 1 ? texcoord_count : normal_count);
          const char* what = part == 0 ? "vertices" : (part == 1 ? "texture coordinates" : "normals");
          const long long resolved = idx < 0 ? count + idx : idx - 1;
          if (idx == 0 || resolved < 0 || resolved >= count)
            throw InvalidInput(source, line_no,
                               "face index " + std::to_string(idx) + " out of range (" +
                                   std::to_string(count) + " " + what + " defined so far)");
          if (slash == tok.size()) break;
        }
        ++n;
      }
      if (n < 3) throw InvalidInput(source, line_no, "face has fewer than 3 vertices");
      if (n > kMaxObjFaceCorners)
        throw InvalidInput(source, line_no,
                           "face has " + std::to_string(n) + " vertices (at most " +
                               std::to_string(kMaxObjFaceCorners) + ")");
      triangle_count += n - 2;
      if (triangle_count > static_cast<long long>(kMaxMeshTriangles))
        throw InvalidInput(
            source, line_no,
            "more than " + std::to_string(kMaxMeshTriangles) + " triangles (the reader's limit)");
    }
  }
}

}  // namespace

void check_mesh_file_size(const std::filesystem::path& path) {
  std::error_code ec;
  const std::uintmax_t bytes = std::filesystem::file_size(path, ec);
  if (!ec && bytes > kMaxMeshFileBytes)
    throw InvalidInput(path.string(), 0,
                       "file is " + std::to_string(bytes) + " bytes, more than the limit of " +
                           std::to_string(kMaxMeshFileBytes));
}

LoadedMesh read_obj(const std::filesystem::path& path, const MeshReadOptions& options) {
  const std::string source = path.string();
  check_mesh_file_size(path);
  const std::string text = read_file(path);
  validate_obj_text(text, source);

  tinyobj::ObjReaderConfig config;
  config.triangulate = false;  // we fan-triangulate ourselves to keep winding explicit
  config.vertex_color = false;
  tinyobj::ObjReader reader;
  if (!reader.ParseFromString(text, "", config))
    throw InvalidInput(source, 0, "cannot parse OBJ: " + reader.Error());
  const auto& attrib = reader.GetAttrib();
  const auto& shapes = reader.GetShapes();

  LoadedMesh out;
  out.sha256 = sha256_hex(text);
  for (const auto& s : shapes)
    if (std::find(out.groups.begin(), out.groups.end(), s.name) == out.groups.end())
      out.groups.push_back(s.name);
  const bool have_group = std::find(out.groups.begin(), out.groups.end(), options.group) != out.groups.end();
  out.group = have_group ? options.group : std::string();
  if (!options.group.empty() && !have_group && !options.group_optional) {
    std::string names;
    for (const auto& g : out.groups) names += (names.empty() ? "" : ", ") + g;
    throw InvalidInput(source, 0, "no group named '" + options.group + "' (groups: " + names + ")");
  }

  const std::size_t nv = attrib.vertices.size() / 3;
  const bool has_uv = !attrib.texcoords.empty();
  std::vector<Triangle> faces;
  std::vector<int> uv_of_vertex(has_uv ? nv : 0, -1);
  for (const auto& s : shapes) {
    if (!out.group.empty() && s.name != out.group) continue;
    std::size_t offset = 0;
    for (unsigned char count : s.mesh.num_face_vertices) {
      for (unsigned k = 1; k + 1 < count; ++k) {
        const auto& a = s.mesh.indices[offset];
        const auto& b = s.mesh.indices[offset + k];
        const auto& c = s.mesh.indices[offset + k + 1];
        for (const auto* ix : {&a, &b, &c})
          if (ix->vertex_index < 0 || static_cast<std::size_t>(ix->vertex_index) >= nv)
            throw InvalidInput(source, 0, "face index out of range");
        faces.push_back({a.vertex_index, b.vertex_index, c.vertex_index});
      }
      if (has_uv)
        for (unsigned k = 0; k < count; ++k) {
          const auto& ix = s.mesh.indices[offset + k];
          if (ix.texcoord_index >= 0 && static_cast<std::size_t>(ix.vertex_index) < nv &&
              2 * static_cast<std::size_t>(ix.texcoord_index) + 1 < attrib.texcoords.size())
            uv_of_vertex[ix.vertex_index] = ix.texcoord_index;
        }
      offset += count;
    }
  }
  if (faces.empty())
    throw InvalidInput(source, 0,
                       "no faces" + (out.group.empty() ? std::string() : " in group '" + out.group + "'"));

  TriangleMesh& m = out.mesh;
  m.positions.reserve(nv);
  m.source_vertex.reserve(nv);
  for (std::size_t v = 0; v < nv; ++v) {
    m.positions.push_back({attrib.vertices[3 * v], attrib.vertices[3 * v + 1], attrib.vertices[3 * v + 2]});
    m.source_vertex.push_back(static_cast<int>(v));
  }
  m.faces = std::move(faces);
  if (has_uv) {
    m.uvs.resize(nv);
    for (std::size_t v = 0; v < nv; ++v) {
      const int t = uv_of_vertex[v];
      if (t >= 0) m.uvs[v] = {attrib.texcoords[2 * t], attrib.texcoords[2 * t + 1]};
    }
  }
  if (options.drop_unused_vertices) m = drop_unused_vertices(m);

  const Aabb b = m.bounds();
  const Vec3 e = b.extent();
  if (options.unit) {
    out.file_unit = *options.unit;
  } else {
    out.file_unit = detect_unit_from_height(std::max({e.x, e.y, e.z}));
    out.unit_detected = true;
  }
  m.scale(metres_per_unit(out.file_unit));
  m.validate(source);
  return out;
}

ObjFaceGroups panel_face_groups(const GarmentMesh& garment, const std::vector<int>* face_map) {
  ObjFaceGroups g;
  g.names = garment.panel_names;
  const std::size_t n = face_map ? face_map->size() : garment.mesh.faces.size();
  g.group_of_face.reserve(n);
  for (std::size_t f = 0; f < n; ++f) {
    const std::size_t source = face_map ? static_cast<std::size_t>(face_map->at(f)) : f;
    const Triangle& t = garment.mesh.faces.at(source);
    g.group_of_face.push_back(garment.panel_of_vertex.at(static_cast<std::size_t>(t[0])));
  }
  return g;
}

void write_obj(const std::filesystem::path& path, const TriangleMesh& mesh, LengthUnit unit,
               bool with_normals, const ObjFaceGroups* groups) {
  if (groups) {
    if (groups->group_of_face.size() != mesh.faces.size())
      throw InvalidInput(path.string() + ": " + std::to_string(groups->group_of_face.size()) +
                         " face groups for " + std::to_string(mesh.faces.size()) + " faces");
    for (int g : groups->group_of_face)
      if (g < 0 || static_cast<std::size_t>(g) >= groups->names.size())
        throw InvalidInput(path.string() + ": face group " + std::to_string(g) + " out of range");
  }
  const double s = 1.0 / metres_per_unit(unit);
  const std::vector<Vec3> normals = with_normals ? mesh.vertex_normals() : std::vector<Vec3>{};
  const bool uv = mesh.uvs.size() == mesh.positions.size() && !mesh.uvs.empty();
  write_file_atomically(path, [&](std::ostream& out) {
    out << "# drape garment mesh, unit: " << unit_name(unit) << "\n";
    out << std::setprecision(9);
    for (const Vec3& p : mesh.positions) out << "v " << p.x * s << ' ' << p.y * s << ' ' << p.z * s << '\n';
    if (uv)
      for (const Vec2& t : mesh.uvs) out << "vt " << t.x << ' ' << t.y << '\n';
    for (const Vec3& n : normals) out << "vn " << n.x << ' ' << n.y << ' ' << n.z << '\n';
    int group = -1;
    for (std::size_t f = 0; f < mesh.faces.size(); ++f) {
      const Triangle& t = mesh.faces[f];
      if (groups && groups->group_of_face[f] != group) {
        group = groups->group_of_face[f];
        std::string name = groups->names[static_cast<std::size_t>(group)];
        for (char& c : name)  // an OBJ group name is one word
          if (std::isspace(static_cast<unsigned char>(c))) c = '_';
        out << "g " << (name.empty() ? "group" + std::to_string(group) : name) << '\n';
      }
      out << 'f';
      for (int v : t) {
        out << ' ' << v + 1;
        if (uv || with_normals) out << '/';
        if (uv) out << v + 1;
        if (with_normals) out << '/' << v + 1;
      }
      out << '\n';
    }
  });
}

LoadedMesh read_mesh(const std::filesystem::path& path, const MeshReadOptions& options) {
  const std::string ext = lower_extension(path);
  if (ext == ".obj") return read_obj(path, options);
  if (ext == ".gltf" || ext == ".glb") return read_gltf(path, options);
  throw InvalidInput(path.string(), 0, "unknown mesh format '" + ext + "' (expected .obj, .gltf or .glb)");
}

}  // namespace drape
