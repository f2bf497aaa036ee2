// Every flag the README's command table shows for a `drape` command is one
// that command accepts: the flags of each row's first cell against the
// command's own `--help` (a flag documented but never registered was once
// refused with exit 2 by `drape dress`).

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

const std::string kDrape = std::string(DRAPE_BINARY_DIR) + "/apps/drape/drape";
const std::string kReadme = std::string(DRAPE_DATA_DIR) + "/../README.md";

// stdout and stderr of a shell command.
std::string capture(const std::string& cmd) {
  std::string out;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return out;
  std::array<char, 4096> buf{};
  while (std::size_t n = std::fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  pclose(p);
  return out;
}

struct Row {
  std::vector<std::string> commands;  ///< "dress", "pattern info", ... (alternatives of one row)
  std::set<std::string> flags;        ///< "--out", ...
};

// The table rows whose first cell starts with `drape WORD`: the command words
// (a word with `\|` gives alternatives: `pattern info\|mesh\|svg`) and every
// `--flag` of the cell.
std::vector<Row> readme_rows() {
  std::ifstream in(kReadme);
  std::vector<Row> rows;
  std::string line;
  const std::regex flag_re("--[a-z][a-z0-9-]*");
  while (std::getline(in, line)) {
    if (line.rfind("| `drape ", 0) != 0) continue;
    const std::size_t end = line.find('`', 3);
    if (end == std::string::npos) continue;
    const std::string cell = line.substr(3, end - 3);  // "drape dress --body B ..."
    std::istringstream words(cell.substr(6));
    std::string word, prefix;
    std::vector<std::string> alternatives;
    while (words >> word) {
      if (word[0] == '-' || word[0] == '[' || word == "..." ||
          !std::islower(static_cast<unsigned char>(word[0])))
        break;
      if (word.find("\\|") != std::string::npos) {
        std::size_t from = 0, bar;
        while ((bar = word.find("\\|", from)) != std::string::npos) {
          alternatives.push_back(word.substr(from, bar - from));
          from = bar + 2;
        }
        alternatives.push_back(word.substr(from));
        break;
      }
      prefix += (prefix.empty() ? "" : " ") + word;
    }
    Row row;
    if (alternatives.empty()) row.commands.push_back(prefix);
    for (const std::string& a : alternatives) row.commands.push_back(prefix + " " + a);
    for (std::sregex_iterator it(cell.begin(), cell.end(), flag_re), e; it != e; ++it)
      row.flags.insert(it->str());
    rows.push_back(row);
  }
  return rows;
}

TEST(ReadmeFlags, EveryDocumentedFlagIsAccepted) {
  const std::vector<Row> rows = readme_rows();
  ASSERT_GE(rows.size(), 10u) << "the README's command table was not found in " << kReadme;
  int checked = 0;
  for (const Row& row : rows) {
    std::string help;
    for (const std::string& c : row.commands) help += capture(kDrape + " " + c + " --help");
    // A command this build lacks (the sanitizer build has no Python package,
    // which `drape batch` runs) says so instead of its help: not checked here.
    if (help.find("is not built") != std::string::npos) {
      std::printf("skipped `drape %s`: %s", row.commands.front().c_str(), help.c_str());
      continue;
    }
    for (const std::string& f : row.flags) {
      if (f == "--help") continue;
      // A flag is present when it appears in the help followed by a non-name character.
      const std::regex present(f + "([^a-z0-9-]|$)");
      EXPECT_TRUE(std::regex_search(help, present)) << "README documents `drape " << row.commands.front()
                                                    << " " << f << "` but its --help does not list it";
      ++checked;
    }
  }
  EXPECT_GE(checked, 40);
}

}  // namespace
