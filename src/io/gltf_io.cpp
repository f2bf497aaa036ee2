#include <tiny_gltf.h>

#include <cmath>
#include <optional>

#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"
#include "drape/core/mat3.h"
#include "drape/core/sha256.h"
#include "drape/core/strings.h"
#include "drape/io/gltf_accessor.h"
#include "drape/io/mesh_io.h"
#include "drape/io/mesh_limits.h"

namespace drape {

namespace {

struct Affine {
  double m[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
  Affine operator*(const Affine& o) const {
    Affine r;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        r.m[i][j] = 0;
        for (int k = 0; k < 4; ++k) r.m[i][j] += m[i][k] * o.m[k][j];
      }
    return r;
  }
  Vec3 apply(const Vec3& p) const {
    return {m[0][0] * p.x + m[0][1] * p.y + m[0][2] * p.z + m[0][3],
            m[1][0] * p.x + m[1][1] * p.y + m[1][2] * p.z + m[1][3],
            m[2][0] * p.x + m[2][1] * p.y + m[2][2] * p.z + m[2][3]};
  }
};

Affine node_local(const tinygltf::Node& n) {
  Affine a;
  if (n.matrix.size() == 16) {
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) a.m[r][c] = n.matrix[c * 4 + r];  // column-major
    return a;
  }
  Affine t, r, s;
  if (n.translation.size() == 3)
    for (int i = 0; i < 3; ++i) t.m[i][3] = n.translation[i];
  if (n.rotation.size() == 4) {
    const double x = n.rotation[0], y = n.rotation[1], z = n.rotation[2], w = n.rotation[3];
    r.m[0][0] = 1 - 2 * (y * y + z * z);
    r.m[0][1] = 2 * (x * y - z * w);
    r.m[0][2] = 2 * (x * z + y * w);
    r.m[1][0] = 2 * (x * y + z * w);
    r.m[1][1] = 1 - 2 * (x * x + z * z);
    r.m[1][2] = 2 * (y * z - x * w);
    r.m[2][0] = 2 * (x * z - y * w);
    r.m[2][1] = 2 * (y * z + x * w);
    r.m[2][2] = 1 - 2 * (x * x + y * y);
  }
  if (n.scale.size() == 3)
    for (int i = 0; i < 3; ++i) s.m[i][i] = n.scale[i];
  return t * r * s;
}

void append_primitive(const tinygltf::Model& model, const tinygltf::Primitive& prim, const Affine& xf,
                      TriangleMesh& out, const std::string& source) {
  if (prim.mode != TINYGLTF_MODE_TRIANGLES && prim.mode != -1) return;  // points/lines: skip
  auto it = prim.attributes.find("POSITION");
  if (it == prim.attributes.end()) throw InvalidInput(source, 0, "a mesh primitive has no POSITION");
  // Counts are checked against the limits before anything is allocated.
  const std::size_t claimed = GltfAccessor::find(model, it->second, source, "POSITION").count;
  if (claimed > kMaxMeshVertices - out.positions.size())
    throw InvalidInput(source, 0,
                       "POSITION accessor " + std::to_string(it->second) + " brings the mesh to more than " +
                           std::to_string(kMaxMeshVertices) + " vertices (the reader's limit)");
  if (prim.indices >= 0 && GltfAccessor::find(model, prim.indices, source, "indices").count / 3 >
                               kMaxMeshTriangles - out.faces.size())
    throw InvalidInput(source, 0,
                       "indices accessor " + std::to_string(prim.indices) + " brings the mesh to more than " +
                           std::to_string(kMaxMeshTriangles) + " triangles (the reader's limit)");
  const GltfAccessor pos(model, it->second, source, "POSITION", 3);
  const int base = static_cast<int>(out.positions.size());
  for (std::size_t i = 0; i < pos.count(); ++i)
    out.positions.push_back(xf.apply({pos.get(i, 0), pos.get(i, 1), pos.get(i, 2)}));
  if (prim.indices >= 0) {
    const GltfAccessor idx(model, prim.indices, source, "indices", 1);
    for (std::size_t i = 0; i + 2 < idx.count(); i += 3)
      out.faces.push_back({base + idx.index(i, 0, pos.count(), "vertices"),
                           base + idx.index(i + 1, 0, pos.count(), "vertices"),
                           base + idx.index(i + 2, 0, pos.count(), "vertices")});
  } else {
    const int n = static_cast<int>(pos.count());  // at most kMaxMeshVertices
    for (int i = 0; i + 2 < n; i += 3) out.faces.push_back({base + i, base + i + 1, base + i + 2});
  }
}

// World transform of every node reachable from the scene's roots, and the
// nodes in depth-first order (the order their meshes are read in). `seen`
// marks visited nodes: glTF node hierarchies are trees, and a node reached
// twice (a DAG) could multiply the work exponentially.
void visit(const tinygltf::Model& model, int node_index, const Affine& parent, const std::string& source,
           int depth, std::vector<char>& seen, std::vector<Affine>& world, std::vector<int>& order) {
  if (node_index < 0 || node_index >= static_cast<int>(model.nodes.size()) || depth > 256)
    throw InvalidInput(source, 0, "invalid node hierarchy");
  if (seen[node_index])
    throw InvalidInput(source, 0,
                       "node " + std::to_string(node_index) + " has more than one parent (not a tree)");
  seen[node_index] = 1;
  const tinygltf::Node& node = model.nodes[node_index];
  world[node_index] = parent * node_local(node);
  order.push_back(node_index);
  for (int c : node.children) visit(model, c, world[node_index], source, depth + 1, seen, world, order);
}

// Where a skinned mesh node's vertices are drawn in the file's default pose:
// a joint's world transform times its inverse bind matrix, for every joint
// (glTF 2.0 "Skins"; the skinned mesh node's own transform and its parents'
// do not count). When every joint gives the same transform, the default pose
// is the bind pose and that one transform places the raw vertices as the
// spec and Blender's importer do (often the identity: the inverse bind
// matrices cancel the rig's parent nodes). Otherwise (a file posed away from
// its bind pose) none is returned and the caller keeps the bind pose under
// the mesh node's transform (docs/BODY.md, known limits).
std::optional<Affine> skinned_placement(const tinygltf::Model& model, int skin_index,
                                        const std::vector<Affine>& world, const std::vector<char>& seen,
                                        const std::string& source) {
  if (skin_index < 0 || skin_index >= static_cast<int>(model.skins.size()))
    throw InvalidInput(source, 0, "node references a missing skin");
  const tinygltf::Skin& skin = model.skins[skin_index];
  if (skin.joints.empty()) return std::nullopt;
  std::optional<GltfAccessor> ibm;
  if (skin.inverseBindMatrices >= 0) {
    ibm.emplace(model, skin.inverseBindMatrices, source, "inverse bind matrices", 16);
    if (ibm->count() < skin.joints.size())
      throw InvalidInput(source, 0,
                         "skin " + std::to_string(skin_index) + ": " + std::to_string(ibm->count()) +
                             " inverse bind matrices for " + std::to_string(skin.joints.size()) + " joints");
  }
  std::optional<Affine> first;
  constexpr double kAgree = 1e-4;  // metres, and per entry of the rotation
  for (std::size_t j = 0; j < skin.joints.size(); ++j) {
    const int node = skin.joints[j];
    if (node < 0 || node >= static_cast<int>(model.nodes.size()))
      throw InvalidInput(source, 0, "skin " + std::to_string(skin_index) + " names a missing joint node");
    if (!seen[node]) return std::nullopt;  // a joint outside the scene: no world transform
    Affine inv;
    if (ibm)
      for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) inv.m[r][c] = ibm->matrix_entry(j, r, c);
    const Affine g = world[node] * inv;
    if (!first) {
      first = g;
      continue;
    }
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 4; ++c)
        if (!(std::abs(g.m[r][c] - first->m[r][c]) <= kAgree)) return std::nullopt;
  }
  return first;
}

}  // namespace

LoadedMesh read_gltf(const std::filesystem::path& path, const MeshReadOptions& options) {
  const std::string source = path.string();
  check_mesh_file_size(path);
  std::string bytes = read_file(path);
  tinygltf::TinyGLTF loader;
  tinygltf::Model model;
  std::string err, warn;
  const bool binary = bytes.size() >= 4 && bytes.compare(0, 4, "glTF") == 0;
  const std::string dir = path.parent_path().string();
  const bool ok = binary ? loader.LoadBinaryFromMemory(&model, &err, &warn,
                                                       reinterpret_cast<const unsigned char*>(bytes.data()),
                                                       static_cast<unsigned>(bytes.size()), dir)
                         : loader.LoadASCIIFromString(&model, &err, &warn, bytes.data(),
                                                      static_cast<unsigned>(bytes.size()), dir);
  if (!ok)
    throw InvalidInput(source, 0, "cannot parse glTF: " + (err.empty() ? std::string("unknown error") : err));

  LoadedMesh out;
  out.sha256 = sha256_hex(bytes);
  out.gltf_bytes = std::move(bytes);  // parsed: the model holds its own copies of the buffers
  TriangleMesh& m = out.mesh;
  const int scene = model.defaultScene >= 0 ? model.defaultScene : 0;
  if (scene < static_cast<int>(model.scenes.size())) {
    std::vector<char> seen(model.nodes.size(), 0);
    std::vector<Affine> world(model.nodes.size());
    std::vector<int> order;
    for (int n : model.scenes[scene].nodes) visit(model, n, Affine{}, source, 0, seen, world, order);
    for (int n : order) {
      const tinygltf::Node& node = model.nodes[n];
      if (node.mesh < 0) continue;
      if (node.mesh >= static_cast<int>(model.meshes.size()))
        throw InvalidInput(source, 0, "node references a missing mesh");
      std::optional<Affine> place;
      if (node.skin >= 0) place = skinned_placement(model, node.skin, world, seen, source);
      for (const auto& prim : model.meshes[node.mesh].primitives)
        append_primitive(model, prim, place ? *place : world[n], m, source);
    }
  } else {
    for (const auto& mesh : model.meshes)
      for (const auto& prim : mesh.primitives) append_primitive(model, prim, Affine{}, m, source);
  }
  if (m.faces.empty()) throw InvalidInput(source, 0, "no triangles in any mesh");
  m.source_vertex.resize(m.positions.size());
  for (std::size_t i = 0; i < m.positions.size(); ++i) m.source_vertex[i] = static_cast<int>(i);
  out.file_unit = options.unit.value_or(LengthUnit::metre);
  out.unit_detected = false;
  m.scale(metres_per_unit(out.file_unit));
  m.validate(source);
  return out;
}

namespace {

int add_buffer_view(tinygltf::Model& model, const void* data, std::size_t bytes, int target) {
  auto& buf = model.buffers[0].data;
  while (buf.size() % 4) buf.push_back(0);
  tinygltf::BufferView view;
  view.buffer = 0;
  view.byteOffset = buf.size();
  view.byteLength = bytes;
  view.target = target;
  const auto* p = static_cast<const unsigned char*>(data);
  buf.insert(buf.end(), p, p + bytes);
  model.bufferViews.push_back(view);
  return static_cast<int>(model.bufferViews.size() - 1);
}

int add_accessor(tinygltf::Model& model, int view, int component, int type, std::size_t count,
                 std::vector<double> minv = {}, std::vector<double> maxv = {}) {
  tinygltf::Accessor a;
  a.bufferView = view;
  a.componentType = component;
  a.type = type;
  a.count = count;
  a.minValues = std::move(minv);
  a.maxValues = std::move(maxv);
  model.accessors.push_back(a);
  return static_cast<int>(model.accessors.size() - 1);
}

// Per-frame positions as morph targets of `prim` (target k = frames[k] - base,
// scaled by s) and the mesh's default weights showing frame 0.
void add_frame_targets(tinygltf::Model& model, const std::filesystem::path& path, const GltfMeshNode& node,
                       double s, tinygltf::Primitive& prim, tinygltf::Mesh& gm) {
  const TriangleMesh& mesh = *node.mesh;
  if (!(node.frame_seconds > 0))
    throw InvalidInput(path.string(), 0, "mesh '" + node.name + "': frame time must be > 0");
  for (std::size_t k = 0; k < node.frames.size(); ++k) {
    const std::vector<Vec3>& f = node.frames[k];
    if (f.size() != mesh.vertex_count())
      throw InvalidInput(path.string(), 0,
                         "mesh '" + node.name + "': frame " + std::to_string(k) + " has " +
                             std::to_string(f.size()) + " positions for " +
                             std::to_string(mesh.vertex_count()) + " vertices");
    std::vector<float> d;
    d.reserve(3 * f.size());
    std::vector<double> lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300};
    for (std::size_t v = 0; v < f.size(); ++v)
      for (int a = 0; a < 3; ++a) {
        const float x = static_cast<float>(f[v][a] * s) - static_cast<float>(mesh.positions[v][a] * s);
        d.push_back(x);
        lo[a] = std::min(lo[a], static_cast<double>(x));
        hi[a] = std::max(hi[a], static_cast<double>(x));
      }
    prim.targets.push_back(
        {{"POSITION",
          add_accessor(model, add_buffer_view(model, d.data(), d.size() * 4, TINYGLTF_TARGET_ARRAY_BUFFER),
                       TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3, f.size(), lo, hi)}});
  }
  gm.weights.assign(node.frames.size(), 0.0);
  gm.weights[0] = 1.0;
}

// The weights animation of a node with `frames` morph targets: at time
// k * frame_seconds, target k alone (STEP).
void add_frame_animation(tinygltf::Model& model, tinygltf::Animation& anim, int node_index,
                         std::size_t frames, double frame_seconds) {
  std::vector<float> times(frames), weights(frames * frames, 0.0f);
  for (std::size_t k = 0; k < frames; ++k) {
    times[k] = static_cast<float>(static_cast<double>(k) * frame_seconds);
    weights[k * frames + k] = 1.0f;
  }
  tinygltf::AnimationSampler sampler;
  sampler.input = add_accessor(model, add_buffer_view(model, times.data(), times.size() * 4, 0),
                               TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_SCALAR, frames,
                               {static_cast<double>(times.front())}, {static_cast<double>(times.back())});
  sampler.output = add_accessor(model, add_buffer_view(model, weights.data(), weights.size() * 4, 0),
                                TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_SCALAR, weights.size());
  sampler.interpolation = "STEP";
  anim.samplers.push_back(sampler);
  tinygltf::AnimationChannel channel;
  channel.sampler = static_cast<int>(anim.samplers.size() - 1);
  channel.target_node = node_index;
  channel.target_path = "weights";
  anim.channels.push_back(channel);
}

}  // namespace

namespace {

void check_skin(const std::filesystem::path& path, const std::vector<GltfMeshNode>& nodes,
                const GltfSkin* skin) {
  const int nj = skin ? static_cast<int>(skin->joints.size()) : 0;
  if (skin) {
    if (nj == 0 || nj > 65535) throw InvalidInput(path.string(), 0, "glTF skin: needs 1 to 65535 joints");
    for (int j = 0; j < nj; ++j)
      if (skin->joints[j].parent >= j || skin->joints[j].parent < -1)
        throw InvalidInput(path.string(), 0,
                           "glTF skin: joint '" + skin->joints[j].name + "' must come after its parent");
  }
  for (const GltfMeshNode& node : nodes) {
    if (node.joints.empty() && node.weights.empty()) continue;
    const std::size_t nv = node.mesh ? node.mesh->vertex_count() : 0;
    if (!skin) throw InvalidInput(path.string(), 0, "mesh '" + node.name + "' has skin weights but no skin");
    if (node.joints.size() != nv || node.weights.size() != nv)
      throw InvalidInput(path.string(), 0,
                         "mesh '" + node.name + "': skin data for " + std::to_string(node.joints.size()) +
                             " vertices, mesh has " + std::to_string(nv));
    for (const auto& js : node.joints)
      for (int j : js)
        if (j < -1 || j >= nj)
          throw InvalidInput(path.string(), 0,
                             "mesh '" + node.name + "': joint index " + std::to_string(j) + " out of range");
  }
}

}  // namespace

void write_gltf(const std::filesystem::path& path, const std::vector<GltfMeshNode>& nodes, LengthUnit unit,
                const GltfSkin* skin, const Mat3* scene_rotation) {
  if (nodes.empty() && !skin) throw InvalidInput(path.string(), 0, "nothing to write");
  check_skin(path, nodes, skin);
  const double s = 1.0 / metres_per_unit(unit);
  tinygltf::Model model;
  model.asset.version = "2.0";
  model.asset.generator = "drape";
  model.buffers.resize(1);
  tinygltf::Scene scene;
  tinygltf::Animation animation;
  animation.name = "frames";
  for (const GltfMeshNode& node : nodes) {
    if (!node.mesh || node.mesh->faces.empty())
      throw InvalidInput(path.string(), 0, "mesh '" + node.name + "' is empty");
    const TriangleMesh& mesh = *node.mesh;
    std::vector<float> pos, nrm;
    std::vector<double> lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300};
    for (const Vec3& p : mesh.positions)
      for (int a = 0; a < 3; ++a) {
        const float v = static_cast<float>(p[a] * s);
        pos.push_back(v);
        lo[a] = std::min(lo[a], static_cast<double>(v));
        hi[a] = std::max(hi[a], static_cast<double>(v));
      }
    for (const Vec3& n : mesh.vertex_normals())
      for (int a = 0; a < 3; ++a) nrm.push_back(static_cast<float>(n[a]));
    std::vector<uint32_t> idx;
    for (const Triangle& t : mesh.faces)
      for (int v : t) idx.push_back(static_cast<uint32_t>(v));

    tinygltf::Primitive prim;
    prim.mode = TINYGLTF_MODE_TRIANGLES;
    const std::size_t nv = mesh.positions.size();
    prim.attributes["POSITION"] =
        add_accessor(model, add_buffer_view(model, pos.data(), pos.size() * 4, TINYGLTF_TARGET_ARRAY_BUFFER),
                     TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3, nv, lo, hi);
    prim.attributes["NORMAL"] =
        add_accessor(model, add_buffer_view(model, nrm.data(), nrm.size() * 4, TINYGLTF_TARGET_ARRAY_BUFFER),
                     TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3, nv);
    if (node.colors.size() == nv) {
      std::vector<float> col;
      for (const Vec3& c : node.colors)
        for (int a = 0; a < 3; ++a) col.push_back(static_cast<float>(std::clamp(c[a], 0.0, 1.0)));
      prim.attributes["COLOR_0"] = add_accessor(
          model, add_buffer_view(model, col.data(), col.size() * 4, TINYGLTF_TARGET_ARRAY_BUFFER),
          TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3, nv);
    }
    if (node.scalar.size() == nv) {
      prim.attributes["_" + node.scalar_name] = add_accessor(
          model,
          add_buffer_view(model, node.scalar.data(), node.scalar.size() * 4, TINYGLTF_TARGET_ARRAY_BUFFER),
          TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_SCALAR, nv);
    }
    const bool skinned = skin && !node.joints.empty();
    if (skinned) {
      std::vector<std::uint16_t> jts;
      std::vector<float> wts;
      jts.reserve(4 * nv);
      wts.reserve(4 * nv);
      for (std::size_t v = 0; v < nv; ++v) {
        float sum = 0;
        for (int k = 0; k < 4; ++k) {
          const bool used = node.joints[v][k] >= 0 && node.weights[v][k] > 0;
          jts.push_back(static_cast<std::uint16_t>(used ? node.joints[v][k] : 0));
          wts.push_back(used ? node.weights[v][k] : 0.0f);
          sum += wts.back();
        }
        // glTF wants weights that sum to 1: normalise; an unweighted vertex follows joint 0.
        if (sum > 0)
          for (int k = 0; k < 4; ++k) wts[wts.size() - 4 + k] /= sum;
        else
          wts[wts.size() - 4] = 1.0f;
      }
      prim.attributes["JOINTS_0"] = add_accessor(
          model, add_buffer_view(model, jts.data(), jts.size() * 2, TINYGLTF_TARGET_ARRAY_BUFFER),
          TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT, TINYGLTF_TYPE_VEC4, nv);
      prim.attributes["WEIGHTS_0"] = add_accessor(
          model, add_buffer_view(model, wts.data(), wts.size() * 4, TINYGLTF_TARGET_ARRAY_BUFFER),
          TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC4, nv);
    }
    prim.indices = add_accessor(
        model, add_buffer_view(model, idx.data(), idx.size() * 4, TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER),
        TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT, TINYGLTF_TYPE_SCALAR, idx.size());

    tinygltf::Material mat;
    mat.name = node.name + "_material";
    mat.pbrMetallicRoughness.baseColorFactor = {node.base_color.x, node.base_color.y, node.base_color.z, 1.0};
    mat.pbrMetallicRoughness.metallicFactor = 0.0;
    mat.pbrMetallicRoughness.roughnessFactor = 0.9;
    mat.doubleSided = node.double_sided;
    model.materials.push_back(mat);
    prim.material = static_cast<int>(model.materials.size() - 1);

    tinygltf::Mesh gm;
    gm.name = node.name;
    if (!node.frames.empty()) add_frame_targets(model, path, node, s, prim, gm);
    gm.primitives.push_back(prim);
    model.meshes.push_back(gm);
    tinygltf::Node gn;
    gn.name = node.name;
    gn.mesh = static_cast<int>(model.meshes.size() - 1);
    if (skinned) gn.skin = 0;
    model.nodes.push_back(gn);
    scene.nodes.push_back(static_cast<int>(model.nodes.size() - 1));
    if (!node.frames.empty())
      add_frame_animation(model, animation, static_cast<int>(model.nodes.size() - 1), node.frames.size(),
                          node.frame_seconds);
  }
  if (!animation.channels.empty()) model.animations.push_back(animation);
  if (skin) {
    // Joint nodes: local transform relative to the parent joint; inverse bind
    // matrices from the bind frames (so the meshes show as written).
    const int first = static_cast<int>(model.nodes.size());
    tinygltf::Skin gs;
    gs.name = skin->name;
    std::vector<float> ibm;
    for (std::size_t j = 0; j < skin->joints.size(); ++j) {
      const GltfSkin::Joint& joint = skin->joints[j];
      const RigidTransform local =
          joint.parent < 0 ? joint.bind : compose(inverse(skin->joints[joint.parent].bind), joint.bind);
      tinygltf::Node n;
      n.name = joint.name;
      const auto matrix = column_major(local, s);
      n.matrix.assign(matrix.begin(), matrix.end());
      model.nodes.push_back(n);
      if (joint.parent < 0)
        scene.nodes.push_back(first + static_cast<int>(j));
      else
        model.nodes[first + joint.parent].children.push_back(first + static_cast<int>(j));
      gs.joints.push_back(first + static_cast<int>(j));
      for (double x : column_major(inverse(joint.bind), s)) ibm.push_back(static_cast<float>(x));
    }
    gs.inverseBindMatrices =
        add_accessor(model, add_buffer_view(model, ibm.data(), ibm.size() * 4, 0),
                     TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_MAT4, skin->joints.size());
    model.skins.push_back(gs);
  }
  if (scene_rotation) {
    // One root node turns the whole scene (skinned meshes follow through their joints).
    tinygltf::Node root;
    root.name = "file_frame";
    const auto matrix = column_major(RigidTransform{*scene_rotation, {0, 0, 0}});
    root.matrix.assign(matrix.begin(), matrix.end());
    root.children = scene.nodes;
    model.nodes.push_back(root);
    scene.nodes = {static_cast<int>(model.nodes.size() - 1)};
  }
  model.scenes.push_back(scene);
  model.defaultScene = 0;

  const bool binary = lower_extension(path) == ".glb";
  write_file_atomically(path, [&](std::ostream& out) {
    tinygltf::TinyGLTF writer;
    if (!writer.WriteGltfSceneToStream(&model, out, !binary, binary))
      throw IoError(path.string() + ": glTF serialisation failed");
  });
}

}  // namespace drape
