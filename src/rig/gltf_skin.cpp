// glTF skins through tinygltf (a shared library here: no TINYGLTF_IMPLEMENTATION).
#include "drape/rig/gltf_skin.h"

#include <tiny_gltf.h>

#include <cmath>
#include <optional>

#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"
#include "drape/io/gltf_accessor.h"
#include "drape/io/mesh_io.h"
#include "drape/rig/quaternion.h"

namespace drape {

void write_gltf_skin(const std::filesystem::path& path, const RiggedMesh& rig, LengthUnit unit,
                     const Mat3* scene_rotation) {
  const Skeleton& sk = rig.skeleton;
  if (sk.bones.empty()) throw InvalidInput(path.string(), 0, "glTF skin: the skeleton has no bones");
  const bool has_mesh = rig.mesh.vertex_count() > 0;
  if (has_mesh && rig.weights.size() != rig.mesh.vertex_count())
    throw InvalidInput(path.string(), 0,
                       "glTF skin: " + std::to_string(rig.weights.size()) + " weight rows for " +
                           std::to_string(rig.mesh.vertex_count()) + " vertices");
  GltfSkin skin;
  skin.name = sk.name.empty() ? "skeleton" : sk.name;
  for (std::size_t b = 0; b < sk.size(); ++b)  // bones come parents first, as glTF joints must here
    skin.joints.push_back({sk.bones[b].name, sk.bones[b].parent, sk.rest_frame(static_cast<int>(b))});
  std::vector<GltfMeshNode> nodes;
  if (has_mesh) {
    GltfMeshNode body;
    body.name = "body";
    body.mesh = &rig.mesh;
    body.joints.reserve(rig.weights.size());
    body.weights.reserve(rig.weights.size());
    for (const SkinWeights::Influences& in : rig.weights.vertices) {
      std::array<int, 4> j{-1, -1, -1, -1};
      std::array<float, 4> w{0, 0, 0, 0};
      for (int k = 0; k < SkinWeights::kMaxInfluences && k < 4; ++k) {
        j[k] = in.bone[k];
        w[k] = static_cast<float>(in.weight[k]);
      }
      body.joints.push_back(j);
      body.weights.push_back(w);
    }
    nodes.push_back(std::move(body));
  }
  write_gltf(path, nodes, unit, &skin, scene_rotation);
}

namespace {
RigidTransform node_transform(const tinygltf::Node& n) {
  RigidTransform t;
  if (n.matrix.size() == 16) {
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) t.rotation.m[r][c] = n.matrix[c * 4 + r];
      t.translation[r] = n.matrix[12 + r];
    }
    return t;
  }
  if (n.rotation.size() == 4)
    t.rotation = Quat{n.rotation[3], n.rotation[0], n.rotation[1], n.rotation[2]}.to_matrix();
  if (n.translation.size() == 3) t.translation = {n.translation[0], n.translation[1], n.translation[2]};
  return t;
}
}  // namespace

std::optional<RiggedMesh> read_gltf_skin_if_any(const std::filesystem::path& path) {
  return read_gltf_skin_if_any(path, read_file(path));
}

std::optional<RiggedMesh> read_gltf_skin_if_any(const std::filesystem::path& path, const std::string& bytes) {
  const std::string src = path.string();
  tinygltf::Model m;
  tinygltf::TinyGLTF loader;
  std::string err, warn;
  const std::string dir = path.parent_path().string();
  const bool binary = bytes.size() >= 4 && bytes.compare(0, 4, "glTF") == 0;
  const bool ok = binary ? loader.LoadBinaryFromMemory(&m, &err, &warn,
                                                       reinterpret_cast<const unsigned char*>(bytes.data()),
                                                       static_cast<unsigned>(bytes.size()), dir)
                         : loader.LoadASCIIFromString(&m, &err, &warn, bytes.data(),
                                                      static_cast<unsigned>(bytes.size()), dir);
  if (!ok) throw InvalidInput(src, 0, "invalid glTF: " + (err.empty() ? std::string("unreadable") : err));
  if (m.skins.empty()) return std::nullopt;
  const tinygltf::Skin& skin = m.skins[0];
  const int nn = static_cast<int>(m.nodes.size());
  if (skin.joints.empty()) throw InvalidInput(src, 0, "glTF skin 0 has no joints");
  for (int j : skin.joints)
    if (j < 0 || j >= nn)
      throw InvalidInput(src, 0,
                         "glTF skin 0 names joint node " + std::to_string(j) + " of " + std::to_string(nn));
  // Node parents, with cycle / multi-parent checks.
  std::vector<int> parent(nn, -1);
  for (int i = 0; i < nn; ++i)
    for (int c : m.nodes[i].children) {
      if (c < 0 || c >= nn)
        throw InvalidInput(
            src, 0, "glTF node " + std::to_string(i) + " has child " + std::to_string(c) + " out of range");
      if (parent[c] >= 0) throw InvalidInput(src, 0, "glTF node " + std::to_string(c) + " has two parents");
      parent[c] = i;
    }
  for (int i = 0; i < nn; ++i) {
    int k = i, steps = 0;
    while (k >= 0 && steps <= nn) {
      k = parent[k];
      ++steps;
    }
    if (steps > nn)
      throw InvalidInput(src, 0, "glTF node hierarchy has a cycle at node " + std::to_string(i));
  }
  const std::size_t nj = skin.joints.size();
  std::vector<int> joint_of_node(nn, -1);
  for (std::size_t j = 0; j < nj; ++j) joint_of_node[skin.joints[j]] = static_cast<int>(j);
  // Rest frames: inverse of the inverse bind matrices, else the node world transforms.
  std::vector<RigidTransform> frame(nj);
  if (skin.inverseBindMatrices >= 0) {
    const GltfAccessor r(m, skin.inverseBindMatrices, src, "inverse bind matrices", 16);
    if (r.count() != nj)
      throw InvalidInput(src, 0,
                         "glTF skin 0: " + std::to_string(r.count()) + " inverse bind matrices for " +
                             std::to_string(nj) + " joints");
    for (std::size_t j = 0; j < nj; ++j) {
      RigidTransform ibm;
      for (int row = 0; row < 3; ++row) {
        for (int c = 0; c < 3; ++c) ibm.rotation.m[row][c] = r.matrix_entry(j, row, c);
        ibm.translation[row] = r.matrix_entry(j, row, 3);
      }
      const Mat3 rtr = ibm.rotation.transposed() * ibm.rotation;
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b)
          if (std::abs(rtr(a, b) - (a == b)) > 1e-3)
            throw InvalidInput(src, 0,
                               "glTF skin 0: inverse bind matrix " + std::to_string(j) + " is not rigid");
      frame[j] = inverse(ibm);
    }
  } else {
    for (std::size_t j = 0; j < nj; ++j) {
      RigidTransform w;
      for (int k = skin.joints[j]; k >= 0; k = parent[k]) w = compose(node_transform(m.nodes[k]), w);
      frame[j] = w;
    }
  }
  RiggedMesh out;
  out.skeleton.name = skin.name;
  for (std::size_t j = 0; j < nj; ++j) {
    Bone b;
    const int node = skin.joints[j];
    b.name = m.nodes[node].name.empty() ? "joint" + std::to_string(j) : m.nodes[node].name;
    for (int k = parent[node]; k >= 0; k = parent[k])
      if (joint_of_node[k] >= 0) {
        b.parent = joint_of_node[k];
        break;
      }
    b.head = frame[j].translation;
    out.skeleton.bones.push_back(b);
  }
  const auto& bones = out.skeleton.bones;
  for (std::size_t j = 0; j < nj; ++j) {
    const Vec3 y{frame[j].rotation(0, 1), frame[j].rotation(1, 1), frame[j].rotation(2, 1)};
    double len = -1;
    for (int c : m.nodes[skin.joints[j]].children)
      if (joint_of_node[c] >= 0) {
        const Vec3 d = bones[joint_of_node[c]].head - bones[j].head;
        if (norm(d) > 1e-9) {
          len = dot(d, y) > 0 ? norm(d) : len;
          break;
        }
      }
    if (len <= 0)
      len = bones[j].parent >= 0
                ? std::max(norm(bones[bones[j].parent].tail - bones[bones[j].parent].head), 1e-3)
                : 0.1;
    // The tail lies along the frame's y axis (the rest frame is kept exactly).
    out.skeleton.bones[j].tail = bones[j].head + y * len;
    const Vec3 x{frame[j].rotation(0, 0), frame[j].rotation(1, 0), frame[j].rotation(2, 0)};
    out.skeleton.bones[j].roll = roll_from_x_axis(y, x);
  }
  out.skeleton.sort_parents_first(src);
  // Map old joint indices to sorted bone indices for the weights.
  std::vector<int> bone_of_joint(nj);
  for (std::size_t j = 0; j < nj; ++j) {
    const std::string name =
        m.nodes[skin.joints[j]].name.empty() ? "joint" + std::to_string(j) : m.nodes[skin.joints[j]].name;
    bone_of_joint[j] = out.skeleton.find(name);
  }
  out.skeleton.validate(src);
  // Every triangle primitive of every mesh node using skin 0, as one mesh
  // (a character is often several primitives: body, eyes, joints).
  std::vector<std::vector<std::pair<int, double>>> lists;
  bool any_weights = false;
  for (const tinygltf::Node& n : m.nodes) {
    if (n.skin != 0 || n.mesh < 0 || n.mesh >= static_cast<int>(m.meshes.size())) continue;
    if (m.meshes[n.mesh].primitives.empty()) throw InvalidInput(src, 0, "glTF skinned mesh has no primitive");
    for (const tinygltf::Primitive& p : m.meshes[n.mesh].primitives) {
      if (p.mode >= 0 && p.mode != TINYGLTF_MODE_TRIANGLES) continue;
      const auto pa = p.attributes.find("POSITION");
      if (pa == p.attributes.end()) throw InvalidInput(src, 0, "glTF skinned primitive has no POSITION");
      const GltfAccessor pos(m, pa->second, src, "POSITION", 3);
      const std::size_t nv = pos.count();
      const int base = static_cast<int>(out.mesh.positions.size());
      for (std::size_t v = 0; v < nv; ++v)
        out.mesh.positions.push_back({pos.get(v, 0), pos.get(v, 1), pos.get(v, 2)});
      if (p.indices >= 0) {
        const GltfAccessor idx(m, p.indices, src, "indices", 1);
        for (std::size_t i = 0; i + 2 < idx.count(); i += 3)
          out.mesh.faces.push_back({base + idx.index(i, 0, nv, "vertices"),
                                    base + idx.index(i + 1, 0, nv, "vertices"),
                                    base + idx.index(i + 2, 0, nv, "vertices")});
      }
      lists.resize(out.mesh.positions.size());
      const auto ja = p.attributes.find("JOINTS_0"), wa = p.attributes.find("WEIGHTS_0");
      if (ja == p.attributes.end() || wa == p.attributes.end()) continue;
      const GltfAccessor jr(m, ja->second, src, "JOINTS_0", 4), wr(m, wa->second, src, "WEIGHTS_0", 4);
      if (jr.count() != nv || wr.count() != nv)
        throw InvalidInput(src, 0,
                           "glTF JOINTS_0 / WEIGHTS_0 counts (" + std::to_string(jr.count()) + ", " +
                               std::to_string(wr.count()) + ") differ from POSITION's (" +
                               std::to_string(nv) + ")");
      any_weights = true;
      for (std::size_t v = 0; v < nv; ++v)
        for (int k = 0; k < 4; ++k) {
          const int j = jr.index(v, k, nj, "joints");  // the joint of vertex v's k-th influence
          const double w = wr.get(v, k);
          if (w > 0) lists[base + v].push_back({bone_of_joint[j], w});
        }
    }
  }
  if (!out.mesh.positions.empty()) out.mesh.validate(src);
  if (any_weights) out.weights = SkinWeights::from_lists(lists);
  return out;
}

RiggedMesh read_gltf_skin(const std::filesystem::path& path) {
  std::optional<RiggedMesh> rm = read_gltf_skin_if_any(path);
  if (!rm) throw InvalidInput(path.string(), 0, "glTF has no skin");
  return std::move(*rm);
}

}  // namespace drape
