#include "drape/body/macro_targets.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"

namespace drape {

namespace fs = std::filesystem;

namespace {

struct Named {
  const char* name;
  double MacroValues::*member;
};
constexpr Named kValues[] = {
    {"gender", &MacroValues::gender},       {"age", &MacroValues::age},
    {"muscle", &MacroValues::muscle},       {"weight", &MacroValues::weight},
    {"height", &MacroValues::height},       {"proportions", &MacroValues::proportions},
    {"african", &MacroValues::african},     {"asian", &MacroValues::asian},
    {"caucasian", &MacroValues::caucasian},
};

double MacroValues::*member_of(std::string_view name) {
  for (const Named& n : kValues)
    if (name == n.name) return n.member;
  std::string all;
  for (const Named& n : kValues) all += std::string(all.empty() ? "" : ", ") + n.name;
  throw InvalidInput("unknown macro value '" + std::string(name) + "' (expected one of " + all + ")");
}

// A category name and its weight; categories with weight 0 are left out.
using Categories = std::vector<std::pair<std::string, double>>;

Categories three_way(double x, const char* lo, const char* mid, const char* hi) {
  const CategorySplit s = split_macro_value(x);
  Categories c;
  if (s.min > 0) c.emplace_back(lo, s.min);
  if (s.average > 0 && mid) c.emplace_back(mid, s.average);
  if (s.max > 0) c.emplace_back(hi, s.max);
  return c;
}

Categories age_categories(double a) {
  Categories c;
  auto add = [&](const char* n, double w) {
    if (w > 0) c.emplace_back(n, w);
  };
  if (a >= 0.5) {
    const double old = 2 * a - 1;
    add("young", 1 - old);
    add("old", old);
  } else {
    const double young = std::max(0.0, (a - 0.1875) / 0.3125);
    add("baby", std::max(0.0, 1 - a / 0.1875));
    add("child", std::max(0.0, std::min(1.0, a / 0.1875) - young));
    add("young", young);
  }
  return c;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// "file:line: what" (built here: GCC 12 warns falsely on the header constructor inlined with a line number).
InvalidInput bad_line(const fs::path& file, std::size_t line, const std::string& what) {
  return InvalidInput(file.string() + ":" + std::to_string(line) + ": " + what);
}

// A number in its shortest round-trip form (1.5, not 1.500000).
std::string shortest(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.10g", x);
  return b;
}

bool parse_double(std::string_view f, double& out) {
  // from_chars takes "-.002" and ".5" (strtod's grammar without a leading '+').
  if (!f.empty() && f.front() == '+') f.remove_prefix(1);
  const auto r = std::from_chars(f.data(), f.data() + f.size(), out);
  return r.ec == std::errc() && r.ptr == f.data() + f.size();
}

}  // namespace

const std::vector<std::string>& macro_value_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const Named& n : kValues) v.emplace_back(n.name);
    return v;
  }();
  return names;
}

double& macro_value(MacroValues& values, std::string_view name) { return values.*member_of(name); }
double macro_value(const MacroValues& values, std::string_view name) { return values.*member_of(name); }

void validate_macro_values(const MacroValues& v, const std::string& source) {
  for (const Named& n : kValues) {
    const double x = v.*n.member;
    if (!(x >= 0 && x <= 1))
      throw InvalidInput(source + ": " + n.name + " = " + shortest(x) + " is outside 0..1");
  }
  const double eth = v.african + v.asian + v.caucasian;
  if (std::abs(eth - 1) > 1e-6)
    throw InvalidInput(source + ": the ethnic shares african + asian + caucasian sum to " + shortest(eth) +
                       ", not 1");
}

CategorySplit split_macro_value(double x) {
  CategorySplit s;
  s.min = std::max(0.0, 1 - 2 * x);
  s.max = std::max(0.0, 2 * x - 1);
  s.average = 1 - s.min - s.max;
  return s;
}

std::vector<TargetWeight> macro_target_weights(const MacroValues& v) {
  const Categories gender = [&] {
    Categories c;
    if (1 - v.gender > 0) c.emplace_back("female", 1 - v.gender);
    if (v.gender > 0) c.emplace_back("male", v.gender);
    return c;
  }();
  const Categories age = age_categories(v.age);
  const Categories muscle = three_way(v.muscle, "minmuscle", "averagemuscle", "maxmuscle");
  const Categories weight = three_way(v.weight, "minweight", "averageweight", "maxweight");
  // Height and proportions have no file for the middle category (the zero offset).
  const Categories height = three_way(v.height, "minheight", nullptr, "maxheight");
  const Categories prop = three_way(v.proportions, "uncommonproportions", nullptr, "idealproportions");
  const std::pair<const char*, double> ethnic[] = {
      {"african", v.african}, {"asian", v.asian}, {"caucasian", v.caucasian}};

  std::vector<TargetWeight> out;
  auto add = [&](std::string file, double w) {
    if (w > 0) out.push_back({"macrodetails/" + std::move(file) + ".target", w});
  };
  for (const auto& [g, wg] : gender)
    for (const auto& [a, wa] : age) {
      for (const auto& [e, we] : ethnic) add(std::string(e) + "-" + g + "-" + a, we * wg * wa);
      for (const auto& [m, wm] : muscle)
        for (const auto& [w, ww] : weight) {
          const std::string gamw = g + "-" + a + "-" + m + "-" + w;
          const double base = wg * wa * wm * ww;
          add("universal-" + gamw, base);
          for (const auto& [h, wh] : height) add("height/" + gamw + "-" + h, base * wh);
          for (const auto& [p, wp] : prop) add("proportions/" + gamw + "-" + p, base * wp);
        }
    }
  std::sort(out.begin(), out.end(),
            [](const TargetWeight& a, const TargetWeight& b) { return a.file < b.file; });
  return out;
}

Target read_target(const fs::path& path, std::size_t vertex_count) {
  const std::string text = read_file(path);
  Target t;
  std::size_t pos = 0, line_no = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string_view line = trim(std::string_view(text).substr(pos, end - pos));
    pos = end + 1;
    ++line_no;
    if (line.empty() || line.front() == '#') continue;
    std::string_view f[5];
    int n = 0;
    for (std::size_t i = 0; i < line.size() && n < 5;) {
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
      if (i >= line.size()) break;
      std::size_t j = i;
      while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
      f[n++] = line.substr(i, j - i);
      i = j;
    }
    if (n != 4) continue;  // MakeHuman skips lines that are not exactly four fields
    long long index = -1;
    const auto r = std::from_chars(f[0].data(), f[0].data() + f[0].size(), index);
    if (r.ec != std::errc() || r.ptr != f[0].data() + f[0].size())
      throw bad_line(path, line_no, "vertex index '" + std::string(f[0]) + "' is not an integer");
    if (index < 0 || static_cast<std::size_t>(index) >= vertex_count)
      throw bad_line(
          path, line_no,
          "vertex index " + std::to_string(index) + " outside 0.." + std::to_string(vertex_count - 1));
    double d[3];
    for (int k = 0; k < 3; ++k)
      if (!parse_double(f[k + 1], d[k]) || !std::isfinite(d[k]))
        throw bad_line(path, line_no, "offset '" + std::string(f[k + 1]) + "' is not a finite number");
    t.index.push_back(static_cast<int>(index));
    t.offset.push_back({d[0], d[1], d[2]});
  }
  return t;
}

MacroTargets::MacroTargets(fs::path dir, std::size_t vertex_count, double metres_per_unit)
    : dir_(std::move(dir)), vertex_count_(vertex_count), metres_per_unit_(metres_per_unit) {
  if (!fs::is_directory(dir_ / "macrodetails"))
    throw InvalidInput(dir_.string() + ": " +
                       "not a MakeHuman targets folder (no macrodetails/ in it; the bundled one is "
                       "data/bodies/makehuman/targets)");
  const fs::path aliases = dir_ / "ALIASES.txt";
  if (fs::exists(aliases)) {
    std::istringstream in(read_file(aliases));
    std::string line;
    std::size_t line_no = 0;
    while (std::getline(in, line)) {
      ++line_no;
      const std::string_view l = trim(line);
      if (l.empty() || l.front() == '#') continue;
      std::istringstream ls{std::string(l)};
      std::string name, stored;
      if (!(ls >> name >> stored))
        throw bad_line(aliases, line_no, "expected '<upstream name> <stored name> [sha1]'");
      aliases_[name] = stored;
    }
  }
}

const Target& MacroTargets::target(const std::string& file) {
  if (const auto it = loaded_.find(file); it != loaded_.end()) return it->second;
  fs::path p = dir_ / file;
  if (!fs::exists(p)) {
    const auto a = aliases_.find(file);
    if (a == aliases_.end() || !fs::exists(dir_ / a->second))
      throw InvalidInput(dir_.string() + ": " + "target '" + file +
                         "' is missing (neither stored nor listed in ALIASES.txt" +
                         (file.find("child") != std::string::npos || file.find("baby") != std::string::npos
                              ? "; ages below 0.5 need MakeHuman's child and baby targets, not bundled"
                              : "") +
                         ")");
    p = dir_ / a->second;
  }
  return loaded_.emplace(file, read_target(p, vertex_count_)).first->second;
}

std::vector<Vec3> MacroTargets::apply(const std::vector<Vec3>& base, const MacroValues& values) {
  if (base.size() != vertex_count_)
    throw InvalidInput("macro targets: the base mesh has " + std::to_string(base.size()) +
                       " vertices, the targets expect " + std::to_string(vertex_count_));
  validate_macro_values(values);
  std::vector<Vec3> out = base;
  for (const TargetWeight& tw : macro_target_weights(values)) {
    const Target& t = target(tw.file);
    const double s = tw.weight * metres_per_unit_;
    for (std::size_t i = 0; i < t.index.size(); ++i) out[t.index[i]] += t.offset[i] * s;
  }
  return out;
}

}  // namespace drape
