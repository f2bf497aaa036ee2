// `drape sweep` on two small patterns and a broken one, on the MakeHuman body,
// checked against independent answers: `drape check` on each row's
// garment.obj, each pair's own report.json, the PNG header of the contact
// sheet against the grid its documented layout implies, and the bad inputs.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "drape/core/atomic_file.h"
#include "test_temp_dir.h"

namespace fs = std::filesystem;

namespace {

const std::string kDrape = std::string(DRAPE_BINARY_DIR) + "/apps/drape/drape";
const std::string kBody = std::string(DRAPE_DATA_DIR) + "/bodies/makehuman/base.obj";
const std::string kPatterns = std::string(DRAPE_TEST_DATA_DIR) + "/patterns";

// Runs a shell command; its exit code.
int run(const std::string& cmd) {
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// A CSV line split at commas outside quotes (RFC 4180).
std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        out.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

// PNG width and height from the IHDR chunk (big-endian at bytes 16 and 20).
std::pair<int, int> png_size(const fs::path& p) {
  const std::string b = drape::read_file(p);
  EXPECT_GE(b.size(), 24u);
  EXPECT_EQ(b.substr(1, 3), "PNG");
  auto be32 = [&](std::size_t at) {
    return (static_cast<unsigned char>(b[at]) << 24) | (static_cast<unsigned char>(b[at + 1]) << 16) |
           (static_cast<unsigned char>(b[at + 2]) << 8) | static_cast<unsigned char>(b[at + 3]);
  };
  return {static_cast<int>(be32(16)), static_cast<int>(be32(20))};
}

class SweepCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = drape::test::test_temp_dir() / ("drape_sweep_cli_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(SweepCli, TableMatchesCheckAndReportsAndTheSheetIsTheGrid) {
  const fs::path out = dir_ / "sweep";
  // Two small patterns and a broken one (not JSON): 3 pairs on one body, sewn
  // as the body stands (so that the frame limit bounds the whole run).
  const std::string cmd = kDrape + " --threads 2 sweep '" + kPatterns + "/tube.json' '" + kPatterns +
                          "/tee.svg' '" + kPatterns + "/bad_not_json.json' --bodies '" + kBody + "' --out '" +
                          out.string() + "' --particle-distance 40 --max-frames 60 --arms-as-they-stand > '" +
                          (dir_ / "stdout.txt").string() + "' 2>&1";
  ASSERT_EQ(run(cmd), 0) << drape::read_file(dir_ / "stdout.txt");

  // sweep.csv: a header and one row per pair, in argument order.
  std::istringstream csv(drape::read_file(out / "sweep.csv"));
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(csv, line);) rows.push_back(split_csv(line));
  ASSERT_EQ(rows.size(), 4u);
  const std::vector<std::string>& head = rows[0];
  auto col = [&](const std::string& name) {
    const auto it = std::find(head.begin(), head.end(), name);
    EXPECT_NE(it, head.end()) << name;
    return static_cast<std::size_t>(it - head.begin());
  };
  const std::vector<std::string> names{"tube", "tee", "bad_not_json"};
  for (std::size_t i = 0; i < 3; ++i) {
    const auto& r = rows[i + 1];
    ASSERT_EQ(r.size(), head.size());
    EXPECT_EQ(r[col("pattern")], names[i]);
    EXPECT_EQ(r[col("body")], "base");
  }

  // The two pairs that ran: every measure against an independent source.
  for (std::size_t i = 0; i < 2; ++i) {
    const auto& r = rows[i + 1];
    const fs::path pair = out / (names[i] + "__base");
    const fs::path check_json = dir_ / ("check_" + names[i] + ".json");
    ASSERT_EQ(run(kDrape + " check --body '" + kBody + "' --garment '" + (pair / "garment.obj").string() +
                  "' --json > '" + check_json.string() + "'"),
              0);
    const auto check = nlohmann::json::parse(drape::read_file(check_json));
    EXPECT_EQ(r[col("vertices inside")], std::to_string(check["vertices_inside_body"].get<long>()));
    EXPECT_EQ(r[col("body crossings")], std::to_string(check["body_crossing_pairs"].get<long>()));
    EXPECT_EQ(r[col("self crossings")], std::to_string(check["self_crossing_pairs"].get<long>()));

    const auto report = nlohmann::json::parse(drape::read_file(pair / "report.json"));
    const auto& d = report["result"];
    EXPECT_EQ(r[col("stop")], d["stop_reason"].get<std::string>());
    // The fit cell says what report.json's fit check says (no --grade here).
    ASSERT_TRUE(report.contains("fit"));
    if (report["fit"]["fits"].get<bool>())
      EXPECT_EQ(r[col("fit")], "fits");
    else
      EXPECT_EQ(r[col("fit")].rfind("short: ", 0), 0u) << r[col("fit")];
    EXPECT_EQ(r[col("seams joined/total")], std::to_string(d["seams"]["joined"].get<long>()) + "/" +
                                                std::to_string(d["seams"]["pairs"].get<long>()));
    EXPECT_EQ(r[col("frames")], std::to_string(d["frames"].get<long>()));
    EXPECT_LE(std::stoi(r[col("frames")]), 60);
    EXPECT_NEAR(std::stod(r[col("strain max %")]), d["strain"]["max"].get<double>() * 100, 0.051);
    EXPECT_NEAR(std::stod(r[col("strain p99 %")]), d["strain"]["p99"].get<double>() * 100, 0.051);
    EXPECT_LE(d["strain"]["p99"].get<double>(), d["strain"]["max"].get<double>());
    EXPECT_TRUE(fs::exists(pair / "render.png"));
    const bool clean = d["stop_reason"] == "equilibrium" && d["seams"]["joined"] == d["seams"]["pairs"] &&
                       check["clean"].get<bool>();
    EXPECT_EQ(r[col("clean")], clean ? "yes" : "no");
  }

  // The broken pattern: its row carries the error naming the file; nothing written for it.
  const auto& bad = rows[3];
  EXPECT_EQ(bad[col("stop")].rfind("error: ", 0), 0u) << bad[col("stop")];
  EXPECT_NE(bad[col("stop")].find("bad_not_json.json"), std::string::npos) << bad[col("stop")];
  EXPECT_EQ(bad[col("clean")], "no");
  EXPECT_FALSE(fs::exists(out / "bad_not_json__base" / "garment.obj"));

  // sweep.md: the same rows (header, rule, 3 rows).
  std::istringstream md(drape::read_file(out / "sweep.md"));
  int table_lines = 0;
  for (std::string line; std::getline(md, line);) table_lines += line.rfind("|", 0) == 0 ? 1 : 0;
  EXPECT_EQ(table_lines, 5);

  // Contact sheet: 3 cells of the documented 200 x 360 px in one row (6 columns at most).
  const auto [w, h] = png_size(out / "contact_sheet.png");
  EXPECT_EQ(w, 3 * 200);
  EXPECT_EQ(h, 1 * 360);
}

TEST_F(SweepCli, APairPastTheTimeLimitIsAnErrorRow) {
  const fs::path out = dir_ / "sweep";
  // A frame cap far beyond what 0.2 s can simulate: the limit stops the drape.
  ASSERT_EQ(run(kDrape + " sweep '" + kPatterns + "/tube.json' --bodies '" + kBody + "' --out '" +
                out.string() + "' --particle-distance 40 --max-frames 100000 --max-seconds 0.2 > /dev/null"),
            0);
  std::istringstream csv(drape::read_file(out / "sweep.csv"));
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(csv, line);) rows.push_back(split_csv(line));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1][3].rfind("error: time limit of 0.2 s", 0), 0u) << rows[1][3];
  EXPECT_FALSE(fs::exists(out / "tube__base" / "garment.obj"));
  EXPECT_FALSE(fs::exists(out / "tube__base" / "checkpoint"));
}

TEST_F(SweepCli, BadSweepInputExitsTwoNamingIt) {
  const fs::path err = dir_ / "err.txt";
  const std::string missing = (dir_ / "nope.json").string();
  EXPECT_EQ(run(kDrape + " sweep '" + missing + "' --bodies '" + kBody + "' --out '" + (dir_ / "o").string() +
                "' > /dev/null 2> '" + err.string() + "'"),
            2);
  EXPECT_NE(drape::read_file(err).find("nope.json"), std::string::npos) << drape::read_file(err);
  // A missing body.
  EXPECT_EQ(run(kDrape + " sweep '" + kPatterns + "/tube.json' --bodies '" + (dir_ / "nobody.obj").string() +
                "' --out '" + (dir_ / "o").string() + "' > /dev/null 2> '" + err.string() + "'"),
            2);
  EXPECT_NE(drape::read_file(err).find("nobody.obj"), std::string::npos) << drape::read_file(err);
  // No patterns at all.
  EXPECT_EQ(run(kDrape + " sweep --bodies '" + kBody + "' --out '" + (dir_ / "o").string() +
                "' > /dev/null 2> '" + err.string() + "'"),
            2);
}

}  // namespace
