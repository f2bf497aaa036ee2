#include "drape/rig/makehuman.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"

namespace drape {

namespace {
using nlohmann::json;

json parse_json_file(const std::filesystem::path& path) {
  const std::string text = read_file(path);
  try {
    return json::parse(text);
  } catch (const json::exception& e) {
    throw InvalidInput(path.string(), 0, std::string("invalid JSON: ") + e.what());
  }
}

Vec3 centroid(const std::vector<int>& ids, const std::vector<Vec3>& verts, const std::string& source,
              const std::string& joint) {
  if (ids.empty()) throw InvalidInput(source, 0, "joint '" + joint + "' lists no vertices");
  Vec3 c;
  for (int id : ids) {
    if (id < 0 || id >= static_cast<int>(verts.size()))
      throw InvalidInput(source, 0,
                         "joint '" + joint + "' names vertex " + std::to_string(id) +
                             " but the base mesh has " + std::to_string(verts.size()));
    c += verts[id];
  }
  return c / static_cast<double>(ids.size());
}

std::vector<std::string> string_list(const json& j) {
  std::vector<std::string> out;
  if (j.is_string()) out.push_back(j.get<std::string>());
  if (j.is_array())
    for (const json& e : j)
      if (e.is_string()) out.push_back(e.get<std::string>());
  return out;
}
}  // namespace

MakeHumanSkeleton read_mhskel(const std::filesystem::path& path, const std::vector<Vec3>& base_vertices) {
  return parse_mhskel(read_file(path), path, base_vertices);
}

MakeHumanSkeleton parse_mhskel(const std::string& text, const std::filesystem::path& path,
                               const std::vector<Vec3>& base_vertices) {
  const std::string src = path.string();
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    throw InvalidInput(src, 0, std::string("invalid JSON: ") + e.what());
  }
  if (!j.is_object() || !j.contains("bones") || !j["bones"].is_object())
    throw InvalidInput(src, 0, "not a MakeHuman skeleton: no \"bones\" object");
  if (!j.contains("joints") || !j["joints"].is_object())
    throw InvalidInput(src, 0, "not a MakeHuman skeleton: no \"joints\" object");
  MakeHumanSkeleton mh;
  mh.skeleton.name = j.value("name", path.stem().string());
  if (j.contains("weights_file") && j["weights_file"].is_string()) mh.weights_file = j["weights_file"];
  for (const auto& [name, ids] : j["joints"].items()) {
    if (!ids.is_array()) throw InvalidInput(src, 0, "joint '" + name + "' is not a list of vertex ids");
    std::vector<int> v;
    for (const json& id : ids) {
      if (!id.is_number_integer())
        throw InvalidInput(src, 0, "joint '" + name + "' has a non-integer vertex id");
      v.push_back(id.get<int>());
    }
    mh.joints[name] = std::move(v);
  }
  auto joint_pos = [&](const std::string& joint, const std::string& bone) {
    const auto it = mh.joints.find(joint);
    if (it == mh.joints.end())
      throw InvalidInput(src, 0, "bone '" + bone + "' names unknown joint '" + joint + "'");
    return centroid(it->second, base_vertices, src, joint);
  };
  // First pass: names in file order, so parents can be resolved.
  std::vector<std::string> names;
  for (const auto& [name, b] : j["bones"].items()) names.push_back(name);
  auto index_of = [&](const std::string& n) {
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == n) return static_cast<int>(i);
    return -1;
  };
  struct Extra {
    std::string head, tail;
    std::vector<std::string> wref;
  };
  std::vector<Extra> extra;
  for (const auto& [name, b] : j["bones"].items()) {
    if (!b.is_object()) throw InvalidInput(src, 0, "bone '" + name + "' is not an object");
    for (const char* key : {"head", "tail"})
      if (!b.contains(key) || !b[key].is_string())
        throw InvalidInput(src, 0, "bone '" + name + "' has no \"" + key + "\" joint name");
    Bone bone;
    bone.name = name;
    if (b.contains("parent") && !b["parent"].is_null()) {
      if (!b["parent"].is_string()) throw InvalidInput(src, 0, "bone '" + name + "' has a non-string parent");
      bone.parent = index_of(b["parent"]);
      if (bone.parent < 0)
        throw InvalidInput(
            src, 0, "bone '" + name + "' names unknown parent '" + b["parent"].get<std::string>() + "'");
    }
    Extra e{b["head"], b["tail"], {}};
    bone.head = joint_pos(e.head, name);
    bone.tail = joint_pos(e.tail, name);
    if (b.contains("roll") && b["roll"].is_number()) {
      bone.roll = b["roll"].get<double>();
    } else if (b.contains("rotation_plane") && b["rotation_plane"].is_string() && j.contains("planes")) {
      // The plane's normal gives the bone's z axis.
      const std::string plane = b["rotation_plane"];
      const json& planes = j["planes"];
      if (!planes.contains(plane) || !planes[plane].is_array() || planes[plane].size() != 3)
        throw InvalidInput(src, 0, "bone '" + name + "' names a missing or malformed plane '" + plane + "'");
      const Vec3 p0 = joint_pos(planes[plane][0], name), p1 = joint_pos(planes[plane][1], name),
                 p2 = joint_pos(planes[plane][2], name);
      const Vec3 normal = cross(p1 - p0, p2 - p1);
      if (norm(normal) > 0 && norm(bone.tail - bone.head) > 0)
        bone.roll = roll_from_z_axis(bone.tail - bone.head, normalized(normal));
    }
    if (b.contains("weights_reference")) e.wref = string_list(b["weights_reference"]);
    if (e.wref.empty() && b.contains("reference")) e.wref = string_list(b["reference"]);
    mh.skeleton.bones.push_back(std::move(bone));
    extra.push_back(std::move(e));
  }
  if (mh.skeleton.bones.empty()) throw InvalidInput(src, 0, "the skeleton has no bones");
  // Sort parents first, carrying the per-bone extras along by name.
  mh.skeleton.sort_parents_first(src);
  for (const Bone& b : mh.skeleton.bones) {
    const Extra& e = extra[index_of(b.name)];
    mh.head_joint.push_back(e.head);
    mh.tail_joint.push_back(e.tail);
    mh.weights_reference.push_back(e.wref);
  }
  mh.skeleton.validate(src);
  return mh;
}

Skeleton place_mhskel(const MakeHumanSkeleton& mh, const std::vector<Vec3>& verts) {
  Skeleton s = mh.skeleton;
  for (std::size_t b = 0; b < s.size(); ++b) {
    s.bones[b].head = centroid(mh.joints.at(mh.head_joint[b]), verts, "place_mhskel", mh.head_joint[b]);
    s.bones[b].tail = centroid(mh.joints.at(mh.tail_joint[b]), verts, "place_mhskel", mh.tail_joint[b]);
  }
  return s;
}

MakeHumanWeights read_mhw(const std::filesystem::path& path) {
  const std::string src = path.string();
  const json j = parse_json_file(path);
  if (!j.is_object() || !j.contains("weights") || !j["weights"].is_object())
    throw InvalidInput(src, 0, "not a MakeHuman weights file: no \"weights\" object");
  MakeHumanWeights w;
  for (const auto& [bone, list] : j["weights"].items()) {
    if (!list.is_array()) throw InvalidInput(src, 0, "bone '" + bone + "': weights are not a list");
    auto& out = w.bones[bone];
    for (const json& pair : list) {
      if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number_integer() || !pair[1].is_number())
        throw InvalidInput(src, 0, "bone '" + bone + "': an entry is not [vertex, weight]");
      const int v = pair[0].get<int>();
      const double x = pair[1].get<double>();
      if (v < 0) throw InvalidInput(src, 0, "bone '" + bone + "': negative vertex id " + std::to_string(v));
      if (!std::isfinite(x) || x < 0)
        throw InvalidInput(
            src, 0,
            "bone '" + bone + "': weight of vertex " + std::to_string(v) + " is negative or not finite");
      out.push_back({v, x});
    }
  }
  return w;
}

SkinWeights makehuman_skin_weights(const MakeHumanSkeleton& mh, const MakeHumanWeights& weights,
                                   const std::vector<int>& vertex_ids, int k,
                                   const Skeleton* weights_skeleton) {
  int max_id = -1;
  for (int id : vertex_ids) max_id = std::max(max_id, id);
  // Row of every file vertex id that is wanted (-1 = not wanted).
  std::vector<int> row(max_id + 1, -1);
  for (std::size_t i = 0; i < vertex_ids.size(); ++i)
    if (vertex_ids[i] >= 0) row[vertex_ids[i]] = static_cast<int>(i);
  // Weight-file bone -> bone of mh that takes its weights (a reference listed twice counts once).
  std::map<std::string, int> taker;
  for (std::size_t b = 0; b < mh.skeleton.size(); ++b) {
    std::vector<std::string> refs = mh.weights_reference[b];
    if (refs.empty()) refs.push_back(mh.skeleton.bones[b].name);
    for (const std::string& r : refs) taker.try_emplace(r, static_cast<int>(b));
  }
  if (weights_skeleton) {
    for (const Bone& wb : weights_skeleton->bones) {
      if (taker.count(wb.name)) continue;
      for (int p = wb.parent; p >= 0; p = weights_skeleton->bones[p].parent) {
        const auto it = taker.find(weights_skeleton->bones[p].name);
        if (it != taker.end()) {
          taker[wb.name] = it->second;
          break;
        }
      }
    }
  }
  std::vector<std::vector<std::pair<int, double>>> lists(vertex_ids.size());
  for (const auto& [bone, list] : weights.bones) {
    const auto it = taker.find(bone);
    if (it == taker.end()) continue;
    for (const auto& [v, w] : list)
      if (v <= max_id && row[v] >= 0) lists[row[v]].push_back({it->second, w});
  }
  return SkinWeights::from_lists(lists, k);
}

}  // namespace drape
