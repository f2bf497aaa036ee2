// GarmentCode / Garment-Pattern-Generator JSON: reading, writing, loading by extension.

#include <cmath>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"
#include "drape/core/sha256.h"
#include "drape/core/strings.h"
#include "drape/pattern/alias.h"
#include "drape/pattern/pattern_io.h"

namespace drape {
namespace {

using ojson = nlohmann::ordered_json;
constexpr const char* kNanMarker = "__drape_non_finite__";

// Python's json writes NaN / Infinity tokens that JSON forbids: turn them into
// a marker string so the error can name the panel and edge holding them.
std::string mark_non_finite(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size())
        out += text[++i];
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
      out += c;
      continue;
    }
    for (const char* tok : {"-Infinity", "Infinity", "NaN"}) {
      const std::size_t n = std::char_traits<char>::length(tok);
      if (text.compare(i, n, tok) == 0) {
        out += std::string("\"") + kNanMarker + "\"";
        i += n - 1;
        goto next;
      }
    }
    out += c;
  next:;
  }
  return out;
}

struct Ctx {
  std::string src;
  std::string where;  // "panel 'x' edge 3"
  [[noreturn]] void fail(const std::string& what) const {
    throw InvalidInput(src + ": " + (where.empty() ? "" : where + ": ") + what);
  }
  double number(const ojson& j, const std::string& what) const {
    if (j.is_string() && j.get<std::string>() == kNanMarker) fail(what + " is NaN or infinite");
    if (!j.is_number()) fail(what + " must be a number, got " + std::string(j.type_name()));
    const double v = j.get<double>();
    if (!std::isfinite(v)) fail(what + " is NaN or infinite");
    return v;
  }
  Vec2 vec2(const ojson& j, const std::string& what) const {
    if (!j.is_array() || j.size() != 2) fail(what + " must be an array of 2 numbers");
    return {number(j[0], what), number(j[1], what)};
  }
  Vec3 vec3(const ojson& j, const std::string& what) const {
    if (!j.is_array() || j.size() != 3) fail(what + " must be an array of 3 numbers");
    return {number(j[0], what), number(j[1], what), number(j[2], what)};
  }
  int index(const ojson& j, const std::string& what) const {
    const double v = number(j, what);
    if (v != std::floor(v)) fail(what + " must be an integer");
    return static_cast<int>(v);
  }
};

Vec2 rel_to_abs(Vec2 s, Vec2 e, Vec2 uv) { return s + (e - s) * uv.x + perp(e - s) * uv.y; }
Vec2 abs_to_rel(Vec2 s, Vec2 e, Vec2 p) {
  const Vec2 d = e - s;
  const double l2 = dot(d, d);
  return {dot(p - s, d) / l2, dot(p - s, perp(d)) / l2};
}

}  // namespace

namespace {

// Seen in the file's own placement, the two edges of a stitch sewn with the
// default pairing (the end of one meets the start of the other) run opposite
// ways along the seam, and those of a right_wrong stitch the same way (every
// shared pattern does so, GarmentCode's crossing armpit edges included). A
// stitch that does not is sewn with a half twist, which no simulation can
// undo: warn, naming it, since the file (not the reader) has to say which.
void warn_twisted_stitches(Pattern& pat) {
  for (std::size_t s = 0; s < pat.stitches.size(); ++s) {
    const Stitch& st = pat.stitches[s];
    const Panel& pa = pat.panels[st.a.panel];
    const Panel& pb = pat.panels[st.b.panel];
    if (!pa.has_placement || !pb.has_placement) continue;
    auto direction = [](const Panel& p, int e) {
      const Vec2 d = p.vertices[p.edges[e].end] - p.vertices[p.edges[e].start];
      return p.rotation() * Vec3{d.x, d.y, 0};
    };
    const Vec3 da = direction(pa, st.a.edge), db = direction(pb, st.b.edge);
    const double len = norm(da) * norm(db);
    if (!(len > 0)) continue;
    const double c = dot(da, db) / len;
    if (st.right_wrong ? c > -0.5 : c < 0.5) continue;
    std::ostringstream w;
    w << "stitch " << s << " (panel '" << pa.name << "' edge " << st.a.edge << " - panel '" << pb.name
      << "' edge " << st.b.edge << "): in the file's placement both edges run "
      << (st.right_wrong ? "opposite ways" : "the same way") << " (cosine " << std::fixed
      << std::setprecision(2) << c << "), so "
      << (st.right_wrong ? "right_wrong (start to start)" : "the default pairing (end to start)")
      << " sews it with a half twist; " << (st.right_wrong ? "drop" : "add")
      << " \"right_wrong\" if that is not meant";
    pat.warnings.push_back(w.str());
  }
}

}  // namespace

Pattern parse_garmentcode(const std::string& text, const std::string& source) {
  ojson root;
  try {
    root = ojson::parse(mark_non_finite(text), nullptr, true, /*ignore_comments=*/true);
  } catch (const ojson::exception& e) {
    throw InvalidInput(source + ": not valid JSON: " + e.what());
  }
  Ctx cx{source, ""};
  if (!root.is_object()) cx.fail("the top level must be a JSON object");
  Pattern pat;
  pat.source = source;
  double upm = 100;
  bool absolute = false;
  if (root.contains("properties")) {
    const ojson& pr = root["properties"];
    if (!pr.is_object()) cx.fail("'properties' must be an object");
    if (pr.contains("units_in_meter"))
      upm = cx.number(pr["units_in_meter"], "properties.units_in_meter");
    else
      pat.warnings.push_back("no properties.units_in_meter: assuming 100 (centimetres)");
    if (pr.contains("curvature_coords")) {
      if (!pr["curvature_coords"].is_string()) cx.fail("properties.curvature_coords must be a string");
      const std::string cc = pr["curvature_coords"].get<std::string>();
      if (cc == "absolute")
        absolute = true;
      else if (cc != "relative")
        cx.fail("properties.curvature_coords must be 'relative' or 'absolute', got '" + cc + "'");
    }
  } else {
    pat.warnings.push_back("no 'properties': assuming units_in_meter 100, relative curvature");
  }
  if (!(upm > 0)) cx.fail("properties.units_in_meter must be positive");
  pat.units_in_meter = upm;
  const double k = 1.0 / upm;  // file units -> metres

  const ojson* spec = &root;
  if (root.contains("pattern")) spec = &root["pattern"];
  if (!spec->is_object()) cx.fail("'pattern' must be an object");
  if (!spec->contains("panels")) cx.fail("no 'pattern.panels'");
  const ojson& panels = (*spec)["panels"];
  if (!panels.is_object()) cx.fail("'pattern.panels' must be an object of named panels");
  for (const auto& [name, pj] : panels.items()) {
    Ctx pc{source, "panel '" + name + "'"};
    if (!pj.is_object()) pc.fail("must be an object");
    Panel p;
    p.name = name;
    if (!pj.contains("vertices") || !pj["vertices"].is_array()) pc.fail("'vertices' must be an array");
    for (std::size_t v = 0; v < pj["vertices"].size(); ++v)
      p.vertices.push_back(pc.vec2(pj["vertices"][v], "vertex " + std::to_string(v)) * k);
    if (!pj.contains("edges") || !pj["edges"].is_array()) pc.fail("'edges' must be an array");
    const int nv = static_cast<int>(p.vertices.size());
    for (std::size_t e = 0; e < pj["edges"].size(); ++e) {
      Ctx ec{source, "panel '" + name + "' edge " + std::to_string(e)};
      const ojson& ej = pj["edges"][e];
      if (!ej.is_object()) ec.fail("must be an object");
      PanelEdge ed;
      if (!ej.contains("endpoints")) ec.fail("has no 'endpoints'");
      const ojson& ep = ej["endpoints"];
      if (!ep.is_array() || ep.size() != 2) ec.fail("'endpoints' must be an array of 2 vertex ids");
      ed.start = ec.index(ep[0], "endpoint");
      ed.end = ec.index(ep[1], "endpoint");
      if (ed.start < 0 || ed.start >= nv || ed.end < 0 || ed.end >= nv)
        ec.fail("endpoint index out of range (panel has " + std::to_string(nv) + " vertices)");
      const Vec2 s = p.vertices[ed.start], t = p.vertices[ed.end];
      auto ctrl = [&](const ojson& j) {
        const Vec2 c = ec.vec2(j, "control point");
        return absolute ? c * k : rel_to_abs(s, t, c);
      };
      if (ej.contains("curvature") && !ej["curvature"].is_null()) {
        const ojson& c = ej["curvature"];
        if (c.is_array()) {  // bare [u, v]: quadratic
          ed.curve = EdgeCurve::quadratic;
          ed.c1 = ctrl(c);
        } else if (c.is_object()) {
          if (!c.contains("type") || !c["type"].is_string()) ec.fail("curvature has no 'type' string");
          const std::string type = c["type"].get<std::string>();
          if (!c.contains("params") || !c["params"].is_array()) ec.fail("curvature has no 'params' array");
          const ojson& pr = c["params"];
          if (type == "quadratic") {
            ed.curve = EdgeCurve::quadratic;
            if (pr.size() == 1 && pr[0].is_array())
              ed.c1 = ctrl(pr[0]);
            else
              ed.c1 = ctrl(pr);
          } else if (type == "cubic") {
            ed.curve = EdgeCurve::cubic;
            if (pr.size() != 2) ec.fail("cubic curvature needs 2 control points");
            ed.c1 = ctrl(pr[0]);
            ed.c2 = ctrl(pr[1]);
          } else if (type == "circle") {
            ed.curve = EdgeCurve::arc;
            if (pr.size() != 3) ec.fail("circle curvature needs [radius, large_arc, right]");
            ed.radius = ec.number(pr[0], "circle radius") * k;
            auto flag = [&](const ojson& j, const char* what) {
              if (j.is_boolean()) return j.get<bool>();
              return ec.number(j, what) != 0;
            };
            ed.large_arc = flag(pr[1], "circle large_arc flag");
            ed.right = flag(pr[2], "circle right flag");
            if (!(ed.radius > 0)) ec.fail("circle radius must be positive");
          } else {
            ec.fail("unknown curvature type '" + type + "' (expected quadratic, cubic or circle)");
          }
        } else {
          ec.fail("'curvature' must be [u, v] or {type, params}");
        }
      }
      if (ej.contains("label") && ej["label"].is_string()) ed.label = ej["label"].get<std::string>();
      p.edges.push_back(ed);
    }
    if (pj.contains("translation") || pj.contains("rotation")) {
      p.has_placement = true;
      if (pj.contains("translation")) p.translation = pc.vec3(pj["translation"], "translation") * k;
      if (pj.contains("rotation")) p.rotation_deg = pc.vec3(pj["rotation"], "rotation");
    }
    if (pj.contains("label") && pj["label"].is_string()) p.label = pj["label"].get<std::string>();
    if (pj.contains("alias") && pj["alias"].is_string()) p.alias = pj["alias"].get<std::string>();
    if (pj.contains("material") && pj["material"].is_string()) p.material = pj["material"].get<std::string>();
    pat.panels.push_back(std::move(p));
  }
  if (spec->contains("stitches")) {
    const ojson& st = (*spec)["stitches"];
    if (!st.is_array()) cx.fail("'pattern.stitches' must be an array");
    for (std::size_t s = 0; s < st.size(); ++s) {
      Ctx sc{source, "stitch " + std::to_string(s)};
      const ojson& sj = st[s];
      if (!sj.is_array()) sc.fail("must be an array [{panel, edge}, {panel, edge}, \"right_wrong\"?]");
      Stitch stitch;
      int sides = 0;
      for (const ojson& item : sj) {
        if (item.is_string()) {
          if (item.get<std::string>() == "right_wrong")
            stitch.right_wrong = true;
          else
            sc.fail("unknown stitch flag '" + item.get<std::string>() + "'");
          continue;
        }
        if (!item.is_object()) sc.fail("each side must be {panel, edge}");
        if (!item.contains("panel") || !item["panel"].is_string()) sc.fail("side has no 'panel' name");
        if (!item.contains("edge")) sc.fail("side has no 'edge'");
        const std::string pn = item["panel"].get<std::string>();
        const int pi = pat.find_panel(pn);
        if (pi < 0) sc.fail("names a missing panel '" + pn + "'");
        const int e = sc.index(item["edge"], "edge id");
        if (e < 0 || e >= static_cast<int>(pat.panels[pi].edges.size()))
          sc.fail("panel '" + pn + "' edge " + std::to_string(e) + " does not exist (panel has " +
                  std::to_string(pat.panels[pi].edges.size()) + " edges)");
        if (sides >= 2) sc.fail("more than two sides (only 1-to-1 stitches are supported)");
        (sides == 0 ? stitch.a : stitch.b) = {pi, e};
        ++sides;
      }
      if (sides != 2) sc.fail("needs exactly two sides");
      pat.stitches.push_back(stitch);
    }
  }
  warn_twisted_stitches(pat);
  return pat;
}

std::string garmentcode_json(const Pattern& pat) {
  ojson root;
  root["properties"] = {{"curvature_coords", "relative"},
                        {"normalize_panel_translation", false},
                        {"normalized_edge_loops", true},
                        {"units_in_meter", 100}};
  ojson panels = ojson::object();
  const double k = 100.0;
  for (const Panel& p : pat.panels) {
    ojson pj;
    ojson verts = ojson::array();
    for (const Vec2& v : p.vertices) verts.push_back({v.x * k, v.y * k});
    pj["vertices"] = verts;
    ojson edges = ojson::array();
    for (const PanelEdge& e : p.edges) {
      ojson ej;
      ej["endpoints"] = {e.start, e.end};
      const Vec2 s = p.vertices[e.start], t = p.vertices[e.end];
      if (e.curve == EdgeCurve::quadratic) {
        const Vec2 c = abs_to_rel(s, t, e.c1);
        ej["curvature"] = {{"type", "quadratic"}, {"params", {{c.x, c.y}}}};
      } else if (e.curve == EdgeCurve::cubic) {
        const Vec2 a = abs_to_rel(s, t, e.c1), b = abs_to_rel(s, t, e.c2);
        ej["curvature"] = {{"type", "cubic"}, {"params", {{a.x, a.y}, {b.x, b.y}}}};
      } else if (e.curve == EdgeCurve::arc) {
        ej["curvature"] = {{"type", "circle"},
                           {"params", {e.radius * k, e.large_arc ? 1 : 0, e.right ? 1 : 0}}};
      }
      if (!e.label.empty()) ej["label"] = e.label;
      edges.push_back(ej);
    }
    pj["edges"] = edges;
    if (p.has_placement) {
      pj["translation"] = {p.translation.x * k, p.translation.y * k, p.translation.z * k};
      pj["rotation"] = {p.rotation_deg.x, p.rotation_deg.y, p.rotation_deg.z};
    }
    if (!p.label.empty()) pj["label"] = p.label;
    if (!p.alias.empty() && !p.alias_inferred) pj["alias"] = p.alias;
    if (!p.material.empty()) pj["material"] = p.material;
    panels[p.name] = pj;
  }
  ojson stitches = ojson::array();
  for (const Stitch& s : pat.stitches) {
    ojson sj = ojson::array();
    sj.push_back({{"panel", pat.panels[s.a.panel].name}, {"edge", s.a.edge}});
    sj.push_back({{"panel", pat.panels[s.b.panel].name}, {"edge", s.b.edge}});
    if (s.right_wrong) sj.push_back("right_wrong");
    stitches.push_back(sj);
  }
  ojson order = ojson::array();
  for (const Panel& p : pat.panels) order.push_back(p.name);
  root["pattern"] = {{"panels", panels}, {"stitches", stitches}, {"panel_order", order}};
  return root.dump(2) + "\n";
}

void write_garmentcode(const std::filesystem::path& path, const Pattern& pat) {
  write_file_atomically(path, garmentcode_json(pat));
}

void assign_aliases(Pattern& pat, const std::map<std::string, std::string>& overrides) {
  const std::vector<std::string> inferred = infer_aliases(pat);
  for (std::size_t i = 0; i < pat.panels.size(); ++i) {
    Panel& p = pat.panels[i];
    if (!p.alias.empty()) {
      if (parse_alias(p.alias).part == AliasPart::unknown)
        pat.warnings.push_back("panel '" + p.name + "': unknown alias '" + p.alias +
                               "' (regions unrestricted)");
      continue;
    }
    p.alias = inferred[i];
    p.alias_inferred = true;
    if (p.alias.empty())
      pat.warnings.push_back("panel '" + p.name +
                             "': no alias could be inferred; it is placed from the file's own placement "
                             "(override with --alias " +
                             p.name + "=ALIAS)");
  }
  for (const auto& [name, alias] : overrides) {
    const int i = pat.find_panel(name);
    if (i < 0) throw InvalidInput(pat.source + ": alias override names a missing panel '" + name + "'");
    if (parse_alias(alias).part == AliasPart::unknown)
      throw InvalidInput("alias override for panel '" + name + "': unknown alias '" + alias +
                         "' (see docs/PATTERNS.md for the list)");
    pat.panels[i].alias = alias;
    pat.panels[i].alias_inferred = false;
  }
}

Pattern load_pattern(const std::filesystem::path& path, const PatternLoadOptions& o) {
  const std::string text = read_file(path);
  const std::string ext = lower_extension(path);
  Pattern pat;
  if (ext == ".svg") {
    std::filesystem::path side = o.sidecar;
    if (side.empty()) {
      std::filesystem::path guess = path;
      guess.replace_extension(".seams.json");
      if (std::filesystem::exists(guess)) side = guess;
    }
    pat = parse_svg_pattern(text, side.empty() ? std::string() : read_file(side), path.string());
  } else {
    pat = parse_garmentcode(text, path.string());
    // Frame: GPG patterns sit around an origin near the waist (floor at -1.121 m).
    double ymin = 1e300;
    for (const Panel& p : pat.panels)
      for (const Vec2& v : p.vertices)
        if (p.has_placement && is_finite(v)) ymin = std::min(ymin, p.to_3d(v).y);
    pat.frame = ymin < -0.05 ? SourceFrame::gpg : SourceFrame::garmentcode;
    if (ymin == 1e300) pat.frame = SourceFrame::none;
  }
  if (o.frame) pat.frame = *o.frame;
  pat.name = path.stem().string();
  pat.sha256 = sha256_hex(text);
  validate_pattern(pat);
  assign_aliases(pat, o.aliases);
  return pat;
}

}  // namespace drape
