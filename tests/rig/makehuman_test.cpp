#include "drape/rig/makehuman.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "drape/core/exceptions.h"
#include "rig_test_data.h"

using namespace drape;
using namespace drape::test;

namespace {
// Independent ground truth: base.obj 'v' lines parsed by hand (decimetres -> metres).
std::vector<Vec3> obj_vertices_by_hand() {
  std::ifstream in(data("bodies/makehuman/base.obj"));
  std::vector<Vec3> v;
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("v ", 0) == 0) {
      std::istringstream ss(line.substr(2));
      Vec3 p;
      ss >> p.x >> p.y >> p.z;
      v.push_back(p * 0.1);
    }
  return v;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(MakeHuman, JointsAreCentroidsOfListedBaseVertices) {
  const std::vector<Vec3> verts = obj_vertices_by_hand();
  ASSERT_EQ(verts.size(), base_vertices().size());
  for (const std::string name : {"default", "game_engine", "cmu_mb"}) {
    std::ifstream in(data("bodies/makehuman/" + name + ".mhskel"));
    const nlohmann::json j = nlohmann::json::parse(in);
    const MakeHumanSkeleton& mh = mh_skeleton(name);
    ASSERT_EQ(mh.skeleton.size(), j["bones"].size()) << name;
    int helper_vertices_used = 0;
    for (const auto& [bone, b] : j["bones"].items()) {
      const int i = mh.skeleton.find(bone);
      ASSERT_GE(i, 0) << bone;
      for (const char* end : {"head", "tail"}) {
        Vec3 c;
        const auto& ids = j["joints"][b[end].get<std::string>()];
        for (int id : ids) {
          c += verts[id];
          helper_vertices_used += id > 13379;
        }
        c /= static_cast<double>(ids.size());
        const Vec3 got = std::string(end) == "head" ? mh.skeleton.bones[i].head : mh.skeleton.bones[i].tail;
        EXPECT_LT(norm(got - c), 1e-9) << name << " " << bone << " " << end;
      }
      const std::string parent = b["parent"].is_null() ? "" : b["parent"].get<std::string>();
      const int p = mh.skeleton.bones[i].parent;
      EXPECT_EQ(p < 0 ? std::string() : mh.skeleton.bones[p].name, parent);
      EXPECT_LT(p, i);  // parents first
    }
    EXPECT_GT(helper_vertices_used, 0) << "helper-geometry ids must be resolved too";
  }
  EXPECT_EQ(mh_skeleton("default").skeleton.size(), 163u);
  EXPECT_EQ(mh_skeleton("game_engine").skeleton.size(), 53u);
  EXPECT_EQ(mh_skeleton("cmu_mb").skeleton.size(), 31u);
}

TEST(MakeHuman, RollsComeFromTheFileOrTheRotationPlane) {
  // cmu_mb stores rolls: LeftShoulder has roll pi.
  const Skeleton& cmu = mh_skeleton("cmu_mb").skeleton;
  EXPECT_NEAR(cmu.bones[cmu.find("LeftShoulder")].roll, 3.1415927410125732, 1e-12);
  // default uses rotation planes: the bone's z axis is the plane normal (projected).
  std::ifstream in(data("bodies/makehuman/default.mhskel"));
  const nlohmann::json j = nlohmann::json::parse(in);
  const MakeHumanSkeleton& mh = mh_skeleton("default");
  const int b = mh.skeleton.find("lowerarm01.L");
  const auto& plane = j["planes"][j["bones"]["lowerarm01.L"]["rotation_plane"].get<std::string>()];
  auto pos = [&](const std::string& joint) {
    Vec3 c;
    for (int id : mh.joints.at(joint)) c += base_vertices()[id];
    return c / static_cast<double>(mh.joints.at(joint).size());
  };
  const Vec3 p0 = pos(plane[0]), p1 = pos(plane[1]), p2 = pos(plane[2]);
  const Vec3 normal = normalized(cross(p1 - p0, p2 - p1));
  const Mat3 r = mh.skeleton.rest_rotation(b);
  const Vec3 z{r(0, 2), r(1, 2), r(2, 2)};
  const Vec3 y{r(0, 1), r(1, 1), r(2, 1)};
  EXPECT_NEAR(dot(z, normalized(normal - y * dot(normal, y))), 1, 1e-9);
}

TEST(MakeHuman, WeightsAreNormalisedTopFourAndCoverTheBody) {
  const TriangleMesh& m = body();
  for (const std::string name : {"default", "cmu_mb", "game_engine"}) {
    const SkinWeights w =
        makehuman_skin_weights(mh_skeleton(name), mh_weights(), m.source_vertex, SkinWeights::kMaxInfluences,
                               &mh_skeleton("default").skeleton);
    ASSERT_EQ(w.size(), m.vertex_count());
    EXPECT_LT(w.max_normalisation_error(), 1e-12) << name;
    EXPECT_EQ(w.unweighted_count(), 0u) << name;
    for (const auto& in : w.vertices)
      for (int s = 1; s < SkinWeights::kMaxInfluences; ++s) EXPECT_LE(in.weight[s], in.weight[s - 1]);
  }
  // cmu_mb's LeftArm takes upperarm01.L + upperarm02.L: a vertex weighted only to those is fully LeftArm.
  const MakeHumanSkeleton& cmu = mh_skeleton("cmu_mb");
  const SkinWeights w = makehuman_skin_weights(cmu, mh_weights(), m.source_vertex);
  // Without the default skeleton, weights of unreferenced bones (face, toes...) are dropped.
  EXPECT_GT(w.unweighted_count(), 0u);
  const auto& ua1 = mh_weights().bones.at("upperarm01.L");
  std::map<int, double> other;
  for (const auto& [bone, list] : mh_weights().bones)
    if (bone != "upperarm01.L" && bone != "upperarm02.L")
      for (const auto& [v, x] : list) other[v] += x;
  int checked = 0;
  for (const auto& [v, x] : ua1)
    if (v < 13380 && other[v] == 0 && x > 0) {
      EXPECT_EQ(w.vertices[v].bone[0], cmu.skeleton.find("LeftArm"));
      EXPECT_DOUBLE_EQ(w.vertices[v].weight[0], 1.0);
      ++checked;
    }
  EXPECT_GT(checked, 10);
}

TEST(MakeHuman, TopKKeepsLargestAndNormalises) {
  const SkinWeights w =
      SkinWeights::from_lists({{{3, 0.1}, {1, 0.5}, {2, 0.2}, {1, 0.1}, {5, 0.05}, {7, 0.3}}}, 2);
  EXPECT_EQ(w.vertices[0].bone[0], 1);  // 0.5 + 0.1 merged
  EXPECT_EQ(w.vertices[0].bone[1], 7);
  EXPECT_EQ(w.vertices[0].bone[2], -1);
  EXPECT_NEAR(w.vertices[0].weight[0], 0.6 / 0.9, 1e-15);
  EXPECT_NEAR(w.vertices[0].weight[1], 0.3 / 0.9, 1e-15);
}

TEST(MakeHuman, MalformedFilesNameFileAndProblem) {
  const std::vector<Vec3> v(10);
  std::string e = error_of([&] { read_mhskel(test_data("bad_parent.mhskel"), v); });
  EXPECT_NE(e.find("bad_parent.mhskel"), std::string::npos) << e;
  EXPECT_NE(e.find("nosuchbone"), std::string::npos) << e;
  e = error_of([&] { read_mhskel(test_data("bad_vertex.mhskel"), v); });
  EXPECT_NE(e.find("99999999"), std::string::npos) << e;
  e = error_of([&] { read_mhskel(test_data("bad_json.mhskel"), v); });
  EXPECT_NE(e.find("bad_json.mhskel"), std::string::npos) << e;
  EXPECT_NE(e.find("invalid JSON"), std::string::npos) << e;
  e = error_of([&] { read_mhw(test_data("bad_weights.mhw")); });
  EXPECT_NE(e.find("bad_weights.mhw"), std::string::npos) << e;
  EXPECT_NE(e.find("negative"), std::string::npos) << e;
}
