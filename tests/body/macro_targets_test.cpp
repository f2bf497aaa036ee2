// The macro weighting rule against values worked out by hand from the
// targets' README, and applied targets against files parsed here by hand.

#include "drape/body/macro_targets.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "drape/body/morphed_obj.h"
#include "drape/core/exceptions.h"
#include "test_temp_dir.h"

namespace fs = std::filesystem;
using namespace drape;

namespace {

const fs::path kTargets = fs::path(DRAPE_DATA_DIR) / "bodies/makehuman/targets";
const fs::path kBase = fs::path(DRAPE_DATA_DIR) / "bodies/makehuman/base.obj";

std::map<std::string, double> as_map(const std::vector<TargetWeight>& v) {
  std::map<std::string, double> m;
  for (const auto& t : v) m[t.file] = t.weight;
  return m;
}

// The README's file format, read the plain way: '#' comments, "index dx dy dz".
std::map<int, Vec3> parse_by_hand(const std::string& name) {
  fs::path p = kTargets / name;
  if (!fs::exists(p)) {  // identical files are stored once: ALIASES.txt names the stored one
    std::ifstream a(kTargets / "ALIASES.txt");
    std::string line, up, stored;
    while (std::getline(a, line)) {
      std::istringstream ls(line);
      if (line[0] != '#' && ls >> up >> stored && up == name) p = kTargets / stored;
    }
  }
  std::ifstream in(p);
  EXPECT_TRUE(in.good()) << p;
  std::map<int, Vec3> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    int i;
    double x, y, z;
    if (ls >> i >> x >> y >> z) out[i] = out[i] + Vec3{x, y, z};
  }
  return out;
}

MorphableBody& base_body() {
  static MorphableBody b = load_morphable_body(kBase);
  return b;
}

// MakeHuman's height: 10 x the y-extent of body vertices 0..13379, in cm (README).
double makehuman_height_cm(const std::vector<Vec3>& all_m) {
  double lo = 1e9, hi = -1e9;
  for (int i = 0; i < 13380; ++i) {
    lo = std::min(lo, all_m[i].y);
    hi = std::max(hi, all_m[i].y);
  }
  return (hi - lo) * 100;
}

}  // namespace

TEST(BodyMacroWeights, DefaultsAreOneSixthOfEachYoungEthnicAndTheEmptyAverages) {
  const auto w = as_map(macro_target_weights(MacroValues{}));
  ASSERT_EQ(w.size(), 8u);
  for (const char* e : {"african", "asian", "caucasian"})
    for (const char* g : {"female", "male"})
      EXPECT_NEAR(w.at(std::string("macrodetails/") + e + "-" + g + "-young.target"), 1.0 / 6, 1e-12);
  EXPECT_NEAR(w.at("macrodetails/universal-female-young-averagemuscle-averageweight.target"), 0.5, 1e-12);
  EXPECT_NEAR(w.at("macrodetails/universal-male-young-averagemuscle-averageweight.target"), 0.5, 1e-12);
}

TEST(BodyMacroWeights, AGeneralSettingMatchesTheProductRule) {
  MacroValues v;
  v.gender = 0.3;        // female 0.7, male 0.3
  v.age = 0.75;          // old = 2*0.75 - 1 = 0.5, young 0.5
  v.muscle = 0.2;        // min 0.6, average 0.4
  v.weight = 0.9;        // max 0.8, average 0.2
  v.height = 0.6;        // max 0.2 (no file for average)
  v.proportions = 0.25;  // uncommon 0.5
  v.african = 0.5, v.asian = 0.2, v.caucasian = 0.3;
  const auto w = as_map(macro_target_weights(v));
  // 2 genders x 2 ages x (3 ethnic + 2 muscle x 2 weight x (universal + height + proportions)).
  EXPECT_EQ(w.size(), 2u * 2 * (3 + 2 * 2 * 3));
  EXPECT_NEAR(w.at("macrodetails/asian-male-old.target"), 0.2 * 0.3 * 0.5, 1e-12);
  EXPECT_NEAR(w.at("macrodetails/universal-female-young-minmuscle-maxweight.target"), 0.7 * 0.5 * 0.6 * 0.8,
              1e-12);
  EXPECT_NEAR(w.at("macrodetails/height/male-old-averagemuscle-averageweight-maxheight.target"),
              0.3 * 0.5 * 0.4 * 0.2 * 0.2, 1e-12);
  EXPECT_NEAR(w.at("macrodetails/proportions/female-old-minmuscle-averageweight-uncommonproportions.target"),
              0.7 * 0.5 * 0.6 * 0.2 * 0.5, 1e-12);
  double universal = 0;
  for (const auto& [f, x] : w)
    if (f.find("universal-") != std::string::npos) universal += x;
  EXPECT_NEAR(universal, 1.0, 1e-12);
}

TEST(BodyMacroWeights, YoungAgesNameChildAndBabyFilesWhichAreNotBundled) {
  MacroValues v;
  v.age = 0.25;  // young = (0.25 - 0.1875)/0.3125 = 0.2, child = 1 - 0.2 = 0.8
  const auto w = as_map(macro_target_weights(v));
  EXPECT_NEAR(w.at("macrodetails/caucasian-female-child.target"), 0.5 / 3 * 0.8, 1e-12);
  EXPECT_NEAR(w.at("macrodetails/caucasian-female-young.target"), 0.5 / 3 * 0.2, 1e-12);
  MacroTargets t(kTargets, base_body().base.size(), 0.1);
  try {
    t.apply(base_body().base, v);
    FAIL() << "no child targets are bundled";
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("child"), std::string::npos) << e.what();
  }
}

TEST(BodyMacroValues, NamesAndRanges) {
  MacroValues v;
  macro_value(v, "muscle") = 0.9;
  EXPECT_EQ(v.muscle, 0.9);
  EXPECT_THROW(macro_value(v, "shoulders"), InvalidInput);
  v.weight = 1.2;
  EXPECT_THROW(validate_macro_values(v), InvalidInput);
  v.weight = 1;
  v.asian = 0.5;
  EXPECT_THROW(validate_macro_values(v), InvalidInput);  // ethnic shares sum to 1.17
}

TEST(BodyReadTarget, FormatAndErrors) {
  const fs::path p = drape::test::test_temp_dir() / "drape_body_test.target";
  {
    std::ofstream o(p);
    o << "# comment\n3 .032 -.113 2\n4 1 2\n  5\t-1.5e-1 0 0.25  \n7 1 2 3 4\n";
  }
  const Target t = read_target(p, 10);
  ASSERT_EQ(t.index.size(), 2u);  // the 3- and 5-field lines are skipped, as MakeHuman does
  EXPECT_EQ(t.index[0], 3);
  EXPECT_DOUBLE_EQ(t.offset[0].x, 0.032);
  EXPECT_DOUBLE_EQ(t.offset[0].y, -0.113);
  EXPECT_DOUBLE_EQ(t.offset[1].x, -0.15);
  EXPECT_THROW(read_target(p, 5), InvalidInput);  // index 5 out of range
  {
    std::ofstream o(p);
    o << "1 0 x 0\n";
  }
  EXPECT_THROW(read_target(p, 10), InvalidInput);
  EXPECT_THROW(MacroTargets("/nonexistent/targets", 10), InvalidInput);
}

TEST(BodyMacroTargets, ApplyMatchesFilesParsedByHand) {
  MorphableBody& mb = base_body();
  MacroTargets t(kTargets, mb.base.size(), 0.1);
  MacroValues v;
  v.gender = 1;    // male
  v.muscle = 1;    // maxmuscle; weight average; age young
  v.height = 0.8;  // maxheight 0.6 (an aliased file)
  v.african = 0, v.asian = 0, v.caucasian = 1;
  const std::vector<Vec3> got = t.apply(mb.base, v);
  std::vector<Vec3> want = mb.base;
  auto add = [&](const std::string& name, double w) {
    for (const auto& [i, d] : parse_by_hand(name)) want[i] += d * (w * 0.1);  // decimetres -> metres
  };
  add("macrodetails/caucasian-male-young.target", 1);
  add("macrodetails/universal-male-young-maxmuscle-averageweight.target", 1);
  add("macrodetails/height/male-young-maxmuscle-averageweight-maxheight.target", 0.6);
  double worst = 0, moved = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    worst = std::max(worst, norm(got[i] - want[i]));
    moved = std::max(moved, norm(got[i] - mb.base[i]));
  }
  EXPECT_LT(worst, 1e-12);
  EXPECT_GT(moved, 0.05);  // the body did change (metres)
}

TEST(BodyMacroTargets, HeightsMatchTheReadmesCheckValues) {
  MorphableBody& mb = base_body();
  MacroTargets t(kTargets, mb.base.size(), 0.1);
  struct Case {
    double g, h, cm;
  };
  // README "Check values" (MakeHuman's height of these bodies).
  for (const Case c :
       {Case{0.5, 0.5, 165.9}, Case{0, 0, 122.3}, Case{0, 1, 231.2}, Case{1, 0, 136.4}, Case{1, 1, 245.3}}) {
    MacroValues v;
    v.gender = c.g;
    v.height = c.h;
    const double got = makehuman_height_cm(t.apply(mb.base, v));
    EXPECT_NEAR(got, c.cm, 0.01 * c.cm) << "G=" << c.g << " H=" << c.h;
    EXPECT_NEAR(got, c.cm, 0.06) << "G=" << c.g << " H=" << c.h;
  }
}
