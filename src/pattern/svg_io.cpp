// SVG paths as panels (+ sidecar JSON), and the SVG drawing of a pattern.

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <numbers>
#include <pugixml.hpp>
#include <sstream>

#include "drape/core/exceptions.h"
#include "drape/pattern/pattern_io.h"

namespace drape {
namespace {

// 2D affine map: x' = a x + c y + e, y' = b x + d y + f (SVG's matrix(a b c d e f)).
struct Affine {
  double a = 1, b = 0, c = 0, d = 1, e = 0, f = 0;
  Vec2 operator()(Vec2 p) const { return {a * p.x + c * p.y + e, b * p.x + d * p.y + f}; }
  Affine operator*(const Affine& o) const {  // this after o
    return {a * o.a + c * o.b, b * o.a + d * o.b,     a * o.c + c * o.d,
            b * o.c + d * o.d, a * o.e + c * o.f + e, b * o.e + d * o.f + f};
  }
};

[[noreturn]] void fail(const std::string& src, const std::string& what) {
  throw InvalidInput(src + ": " + what);
}

std::vector<double> numbers_in(const std::string& s) {
  std::vector<double> out;
  const char* p = s.c_str();
  while (*p) {
    if (std::isdigit(static_cast<unsigned char>(*p)) || *p == '-' || *p == '+' || *p == '.') {
      char* end = nullptr;
      out.push_back(std::strtod(p, &end));
      if (end == p)
        ++p;
      else
        p = end;
    } else {
      ++p;
    }
  }
  return out;
}

Affine parse_transform(const std::string& text, const std::string& src) {
  Affine m;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (std::isspace(static_cast<unsigned char>(text[i])) || text[i] == ',')) ++i;
    if (i >= text.size()) break;
    const std::size_t open = text.find('(', i), close = text.find(')', i);
    if (open == std::string::npos || close == std::string::npos || close < open)
      fail(src, "malformed transform '" + text + "'");
    std::string name = text.substr(i, open - i);
    name.erase(std::remove_if(name.begin(), name.end(),
                              [](char c) { return std::isspace(static_cast<unsigned char>(c)); }),
               name.end());
    const std::vector<double> v = numbers_in(text.substr(open + 1, close - open - 1));
    Affine t;
    const double k = std::numbers::pi / 180;
    if (name == "matrix" && v.size() == 6)
      t = {v[0], v[1], v[2], v[3], v[4], v[5]};
    else if (name == "translate" && !v.empty())
      t = {1, 0, 0, 1, v[0], v.size() > 1 ? v[1] : 0};
    else if (name == "scale" && !v.empty())
      t = {v[0], 0, 0, v.size() > 1 ? v[1] : v[0], 0, 0};
    else if (name == "rotate" && !v.empty()) {
      const double c = std::cos(v[0] * k), s = std::sin(v[0] * k);
      t = {c, s, -s, c, 0, 0};
      if (v.size() == 3) t = Affine{1, 0, 0, 1, v[1], v[2]} * t * Affine{1, 0, 0, 1, -v[1], -v[2]};
    } else if (name == "skewX" && v.size() == 1)
      t = {1, 0, std::tan(v[0] * k), 1, 0, 0};
    else if (name == "skewY" && v.size() == 1)
      t = {1, std::tan(v[0] * k), 0, 1, 0, 0};
    else
      fail(src, "unsupported transform '" + name + "'");
    m = m * t;
    i = close + 1;
  }
  return m;
}

// Length in metres of an SVG length with unit ("210mm", "8.5in", "100" = px).
double length_m(const std::string& s, double* value_out = nullptr) {
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  std::string unit = end ? std::string(end) : "";
  unit.erase(std::remove_if(unit.begin(), unit.end(),
                            [](char c) { return std::isspace(static_cast<unsigned char>(c)); }),
             unit.end());
  if (value_out) *value_out = v;
  if (unit == "mm") return v * 1e-3;
  if (unit == "cm") return v * 1e-2;
  if (unit == "m") return v;
  if (unit == "in") return v * 0.0254;
  if (unit == "pt") return v * 0.0254 / 72;
  if (unit == "pc") return v * 0.0254 / 6;
  return v * 0.0254 / 96;  // px or none
}

struct Seg {
  EdgeCurve curve;
  Vec2 p0, p1, c1, c2;  // user units
  double rx = 0, ry = 0, rot = 0;
  bool large = false, sweep = false;
};

// Path data tokenizer.
class PathLexer {
 public:
  explicit PathLexer(const std::string& d) : d_(d) {}
  void skip() {
    while (i_ < d_.size() && (std::isspace(static_cast<unsigned char>(d_[i_])) || d_[i_] == ',')) ++i_;
  }
  bool done() {
    skip();
    return i_ >= d_.size();
  }
  bool at_command() {
    skip();
    return i_ < d_.size() && std::isalpha(static_cast<unsigned char>(d_[i_])) && d_[i_] != 'e' &&
           d_[i_] != 'E';
  }
  char command() { return d_[i_++]; }
  bool number(double& v) {
    skip();
    if (i_ >= d_.size()) return false;
    const char* start = d_.c_str() + i_;
    char* end = nullptr;
    v = std::strtod(start, &end);
    if (end == start) return false;
    i_ += static_cast<std::size_t>(end - start);
    return true;
  }
  bool flag(bool& f) {
    skip();
    if (i_ < d_.size() && (d_[i_] == '0' || d_[i_] == '1')) {
      f = d_[i_++] == '1';
      return true;
    }
    return false;
  }

 private:
  const std::string& d_;
  std::size_t i_ = 0;
};

std::vector<Seg> parse_path(const std::string& d, const std::string& where) {
  PathLexer lx(d);
  std::vector<Seg> segs;
  Vec2 cur{}, start{}, last_ctrl{};
  char last_cmd = 0;
  int subpaths = 0;
  bool closed = false;
  char cmd = 0;
  while (!lx.done()) {
    const bool took_command = lx.at_command();
    if (took_command)
      cmd = lx.command();
    else if (cmd == 0)
      fail(where, "path data must start with a command");
    const bool rel = std::islower(static_cast<unsigned char>(cmd));
    const char C = static_cast<char>(std::toupper(static_cast<unsigned char>(cmd)));
    auto num = [&]() {
      double v;
      if (!lx.number(v)) fail(where, std::string("path data: expected a number after '") + cmd + "'");
      if (!std::isfinite(v)) fail(where, "path data: NaN or infinite number");
      return v;
    };
    auto pt = [&]() {
      const double x = num(), y = num();
      return rel ? cur + Vec2{x, y} : Vec2{x, y};
    };
    if (closed && C != 'Z') fail(where, "more than one subpath (holes are not supported)");
    switch (C) {
      case 'M':
        if (subpaths++ > 0 && !segs.empty()) fail(where, "more than one subpath (holes are not supported)");
        cur = start = pt();
        cmd = rel ? 'l' : 'L';  // further pairs are line-tos
        break;
      case 'L': {
        const Vec2 p = pt();
        segs.push_back({EdgeCurve::line, cur, p, {}, {}});
        cur = p;
        break;
      }
      case 'H': {
        const double x = num();
        const Vec2 p{rel ? cur.x + x : x, cur.y};
        segs.push_back({EdgeCurve::line, cur, p, {}, {}});
        cur = p;
        break;
      }
      case 'V': {
        const double y = num();
        const Vec2 p{cur.x, rel ? cur.y + y : y};
        segs.push_back({EdgeCurve::line, cur, p, {}, {}});
        cur = p;
        break;
      }
      case 'C':
      case 'S': {
        Vec2 c1;
        if (C == 'C')
          c1 = pt();
        else {
          const char L = static_cast<char>(std::toupper(static_cast<unsigned char>(last_cmd)));
          c1 = (L == 'C' || L == 'S') ? cur * 2.0 - last_ctrl : cur;
        }
        const Vec2 c2 = pt(), p = pt();
        segs.push_back({EdgeCurve::cubic, cur, p, c1, c2});
        last_ctrl = c2;
        cur = p;
        break;
      }
      case 'Q':
      case 'T': {
        Vec2 c1;
        if (C == 'Q')
          c1 = pt();
        else {
          const char L = static_cast<char>(std::toupper(static_cast<unsigned char>(last_cmd)));
          c1 = (L == 'Q' || L == 'T') ? cur * 2.0 - last_ctrl : cur;
        }
        const Vec2 p = pt();
        segs.push_back({EdgeCurve::quadratic, cur, p, c1, {}});
        last_ctrl = c1;
        cur = p;
        break;
      }
      case 'A': {
        Seg s{EdgeCurve::arc, cur, {}, {}, {}};
        s.rx = std::abs(num());
        s.ry = std::abs(num());
        s.rot = num();
        if (!lx.flag(s.large) || !lx.flag(s.sweep)) fail(where, "path data: arc flags must be 0 or 1");
        s.p1 = pt();
        if (s.rx == 0 || s.ry == 0) s.curve = EdgeCurve::line;  // SVG: degenerate radius = line
        segs.push_back(s);
        cur = s.p1;
        break;
      }
      case 'Z':
        // Z takes no arguments: anything after it that is not a command would
        // otherwise repeat Z forever without consuming input.
        if (!took_command) fail(where, "path data: unexpected text after 'Z'");
        if (norm(cur - start) > 1e-12) segs.push_back({EdgeCurve::line, cur, start, {}, {}});
        cur = start;
        closed = true;
        break;
      default:
        fail(where, std::string("path data: unknown command '") + cmd + "'");
    }
    last_cmd = cmd;
  }
  if (!closed) {
    if (segs.empty() || norm(cur - start) > 1e-9 * (1 + norm(start)))
      fail(where, "the outline is open (the path must end with Z or at its start)");
  }
  return segs;
}

Panel panel_from_segments(const std::string& name, const std::vector<Seg>& segs, const Affine& m,
                          const std::string& src) {
  Panel p;
  p.name = name;
  const double sx = std::hypot(m.a, m.b), sy = std::hypot(m.c, m.d);
  for (std::size_t i = 0; i < segs.size(); ++i) {
    const Seg& s = segs[i];
    const std::string where = src + ": panel '" + name + "' edge " + std::to_string(i);
    PanelEdge e;
    e.start = static_cast<int>(i);
    e.end = static_cast<int>((i + 1) % segs.size());
    p.vertices.push_back(m(s.p0));
    e.curve = s.curve;
    if (s.curve == EdgeCurve::quadratic || s.curve == EdgeCurve::cubic) {
      e.c1 = m(s.c1);
      e.c2 = m(s.c2);
    } else if (s.curve == EdgeCurve::arc) {
      if (std::abs(s.rx - s.ry) > 1e-6 * std::max(s.rx, s.ry))
        fail(where, "elliptical arcs (rx != ry) are not supported; use circular arcs or Beziers");
      if (std::abs(sx - sy) > 1e-6 * std::max(sx, sy) || std::abs(m.a * m.c + m.b * m.d) > 1e-6 * sx * sy)
        fail(where, "an arc under a non-uniform scale or skew transform is not supported");
      // Centre per SVG F.6.5 (circle: rotation irrelevant), then read the side of the bulge after mapping.
      const Vec2 chord = s.p1 - s.p0;
      const double c = norm(chord);
      if (c <= 0) fail(where, "zero-length arc");
      const double r = std::max(s.rx, 0.5 * c);
      const double dist = std::sqrt(std::max(r * r - 0.25 * c * c, 0.0));
      const Vec2 mid = (s.p0 + s.p1) * 0.5;
      const Vec2 left = perp(chord) / c;  // in user space (y down: visually to the right)
      // SVG: centre side chosen so that large_arc != sweep puts it on `left` of the chord (in user space).
      const Vec2 centre = mid + left * ((s.large != s.sweep) ? dist : -dist);
      // Arc midpoint from the sweep direction (sweep = 1: increasing angle in user space).
      const double t0 = std::atan2(s.p0.y - centre.y, s.p0.x - centre.x);
      const double t1 = std::atan2(s.p1.y - centre.y, s.p1.x - centre.x);
      double dt = t1 - t0;
      if (s.sweep)
        while (dt <= 0) dt += 2 * std::numbers::pi;
      else
        while (dt >= 0) dt -= 2 * std::numbers::pi;
      const Vec2 top = centre + Vec2{std::cos(t0 + dt / 2), std::sin(t0 + dt / 2)} * r;
      const Vec2 a0 = m(s.p0), a1 = m(s.p1), am = m(top);
      e.radius = r * sx;
      e.large_arc = s.large;
      e.right = cross(a1 - a0, am - a0) < 0;
    }
    p.edges.push_back(e);
  }
  return p;
}

}  // namespace

Pattern parse_svg_pattern(const std::string& svg_text, const std::string& sidecar_text,
                          const std::string& src) {
  pugi::xml_document doc;
  const pugi::xml_parse_result res = doc.load_string(svg_text.c_str());
  if (!res)
    fail(src,
         std::string("not valid XML: ") + res.description() + " at offset " + std::to_string(res.offset));
  const pugi::xml_node root = doc.child("svg");
  if (!root) fail(src, "no <svg> root element");

  nlohmann::json side;
  if (!sidecar_text.empty()) {
    try {
      side = nlohmann::json::parse(sidecar_text, nullptr, true, true);
    } catch (const nlohmann::json::exception& e) {
      fail(src, std::string("sidecar is not valid JSON: ") + e.what());
    }
    if (!side.is_object()) fail(src, "sidecar must be a JSON object");
  }
  // Metres per user unit: sidecar "units", else width / viewBox width, else px.
  double unit = 0.0254 / 96;
  {
    const std::string vb = root.attribute("viewBox").as_string();
    const std::string w = root.attribute("width").as_string();
    const std::vector<double> v = numbers_in(vb);
    if (!w.empty() && v.size() == 4 && v[2] > 0)
      unit = length_m(w) / v[2];
    else if (!w.empty()) {
      double value = 0;
      const double wm = length_m(w, &value);
      if (value > 0) unit = wm / value;
    }
  }
  if (side.contains("units")) {
    if (!side["units"].is_string()) fail(src, "sidecar 'units' must be a string such as \"mm\"");
    const std::string u = side["units"].get<std::string>();
    double value = 0;
    unit = length_m("1" + u, &value);
    if (u != "mm" && u != "cm" && u != "m" && u != "in" && u != "px" && u != "pt")
      fail(src, "sidecar 'units': unknown unit '" + u + "'");
  }
  // User space -> metres with y up.
  const Affine to_m{unit, 0, 0, -unit, 0, 0};

  Pattern pat;
  pat.source = src;
  pat.frame = SourceFrame::none;
  pat.units_in_meter = 1.0 / unit;
  int unnamed = 0;
  std::vector<std::string> skipped;
  struct Walker {
    const std::string& src;
    Pattern& pat;
    int& unnamed;
    std::vector<std::string>& skipped;
    void visit(const pugi::xml_node& node, const Affine& parent) {
      Affine m = parent;
      if (const char* t = node.attribute("transform").as_string(); *t) m = parent * parse_transform(t, src);
      const std::string tag = node.name();
      std::string name = node.attribute("id").as_string();
      if (tag == "path" || tag == "polygon" || tag == "rect") {
        if (name.empty()) name = "panel_" + std::to_string(unnamed++);
        const std::string where = src + ": panel '" + name + "'";
        std::vector<Seg> segs;
        if (tag == "path") {
          // An open path is a drawing aid (grain line, notch), not a panel: skip it.
          try {
            segs = parse_path(node.attribute("d").as_string(), where);
          } catch (const InvalidInput& e) {
            if (std::string(e.what()).find("is open") == std::string::npos) throw;
            skipped.push_back(e.what());
            pat.warnings.push_back(std::string(e.what()) + ": skipped, not a panel");
            return;
          }
        } else if (tag == "polygon") {
          const std::vector<double> v = numbers_in(node.attribute("points").as_string());
          if (v.size() < 6 || v.size() % 2) fail(where, "polygon needs at least 3 points");
          const std::size_t n = v.size() / 2;
          for (std::size_t i = 0; i < n; ++i)
            segs.push_back({EdgeCurve::line,
                            {v[2 * i], v[2 * i + 1]},
                            {v[2 * ((i + 1) % n)], v[2 * ((i + 1) % n) + 1]},
                            {},
                            {}});
        } else {
          const double x = node.attribute("x").as_double(), y = node.attribute("y").as_double();
          const double w = node.attribute("width").as_double(), h = node.attribute("height").as_double();
          const Vec2 c[4] = {{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}};
          for (int i = 0; i < 4; ++i) segs.push_back({EdgeCurve::line, c[i], c[(i + 1) % 4], {}, {}});
        }
        if (segs.size() < 2) fail(where, "an outline needs at least two edges");
        if (pat.find_panel(name) >= 0) fail(where, "two panels share this id");
        Panel p = panel_from_segments(name, segs, m, src);
        if (const char* a = node.attribute("data-alias").as_string(); *a) p.alias = a;
        if (const char* mt = node.attribute("data-material").as_string(); *mt) p.material = mt;
        pat.panels.push_back(std::move(p));
        return;
      }
      if (tag == "defs" || tag == "clipPath" || tag == "mask" || tag == "symbol") return;
      for (const pugi::xml_node& c : node.children()) visit(c, m);
    }
  } walker{src, pat, unnamed, skipped};
  walker.visit(root, to_m);
  if (pat.panels.empty())
    fail(src, "no closed <path>, <polygon> or <rect> panels found" +
                  (skipped.empty() ? std::string() : " (" + skipped.front() + ")"));

  if (side.contains("panels")) {
    if (!side["panels"].is_object()) fail(src, "sidecar 'panels' must be an object");
    for (const auto& [name, pj] : side["panels"].items()) {
      const int i = pat.find_panel(name);
      if (i < 0) fail(src, "sidecar names a missing panel '" + name + "'");
      if (!pj.is_object()) fail(src, "sidecar panel '" + name + "' must be an object");
      if (pj.contains("alias") && pj["alias"].is_string())
        pat.panels[i].alias = pj["alias"].get<std::string>();
      if (pj.contains("material") && pj["material"].is_string())
        pat.panels[i].material = pj["material"].get<std::string>();
    }
  }
  if (side.contains("stitches")) {
    // Same stitch format as GarmentCode: reuse its parser on a minimal document.
    nlohmann::ordered_json doc2;
    nlohmann::ordered_json panels = nlohmann::ordered_json::object();
    for (const Panel& p : pat.panels) {
      nlohmann::ordered_json pj;
      pj["vertices"] = nlohmann::ordered_json::array();
      pj["edges"] = nlohmann::ordered_json::array();
      for (std::size_t v = 0; v < p.vertices.size(); ++v) pj["vertices"].push_back({0.0, 0.0});
      for (const PanelEdge& e : p.edges) pj["edges"].push_back({{"endpoints", {e.start, e.end}}});
      panels[p.name] = pj;
    }
    doc2["pattern"] = {{"panels", panels}, {"stitches", side["stitches"]}};
    doc2["properties"] = {{"units_in_meter", 100}};
    try {
      pat.stitches = parse_garmentcode(doc2.dump(), src + " (sidecar)").stitches;
    } catch (const InvalidInput&) {
      throw;
    }
  }
  return pat;
}

std::string pattern_drawing_svg(const Pattern& pat) {
  // Panels in a row (rest shape, y up -> SVG y down), in millimetres.
  struct Box {
    double x0, y0, x1, y1;
  };
  std::vector<std::vector<std::vector<Vec2>>> polylines(pat.panels.size());
  std::vector<Box> boxes;
  for (std::size_t p = 0; p < pat.panels.size(); ++p) {
    const Panel& panel = pat.panels[p];
    Box b{1e300, 1e300, -1e300, -1e300};
    for (std::size_t e = 0; e < panel.edges.size(); ++e) {
      const EdgeGeometry g = edge_geometry(panel, static_cast<int>(e));
      const std::vector<Vec2> pts = g.sample_uniform(g.curve == EdgeCurve::line ? 1 : 32);
      for (const Vec2& q : pts)
        b = {std::min(b.x0, q.x), std::min(b.y0, q.y), std::max(b.x1, q.x), std::max(b.y1, q.y)};
      polylines[p].push_back(pts);
    }
    boxes.push_back(b);
  }
  const double gap = 0.05, margin = 0.03;
  double x = margin, height = 0;
  std::vector<Vec2> shift;
  for (const Box& b : boxes) {
    shift.push_back({x - b.x0, 0});
    x += b.x1 - b.x0 + gap;
    height = std::max(height, b.y1 - b.y0);
  }
  const double width = x - gap + margin, H = height + 2 * margin;
  auto X = [&](std::size_t p, Vec2 q) { return (q.x + shift[p].x) * 1000; };
  auto Y = [&](std::size_t p, Vec2 q) { return (margin + boxes[p].y1 - q.y) * 1000; };
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(2);
  s << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\""
    << width * 1000 << "mm\" height=\"" << H * 1000 << "mm\" viewBox=\"0 0 " << width * 1000 << " "
    << H * 1000 << "\">\n";
  s << "<title>" << pat.name << "</title>\n";
  const char* colours[] = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd",
                           "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};
  // Seam colour and label per (panel, edge).
  std::vector<std::vector<int>> seam_of(pat.panels.size());
  for (std::size_t p = 0; p < pat.panels.size(); ++p) seam_of[p].assign(pat.panels[p].edges.size(), -1);
  for (std::size_t i = 0; i < pat.stitches.size(); ++i) {
    seam_of[pat.stitches[i].a.panel][pat.stitches[i].a.edge] = static_cast<int>(i);
    seam_of[pat.stitches[i].b.panel][pat.stitches[i].b.edge] = static_cast<int>(i);
  }
  for (std::size_t p = 0; p < pat.panels.size(); ++p) {
    const Panel& panel = pat.panels[p];
    s << "<g id=\"" << panel.name << "\">\n<path fill=\"#f4f0e6\" stroke=\"none\" d=\"";
    bool first = true;
    for (const auto& pts : polylines[p])
      for (std::size_t i = 0; i + 1 < pts.size(); ++i) {  // each edge's end is the next one's start
        s << (first ? "M" : "L") << X(p, pts[i]) << "," << Y(p, pts[i]) << " ";
        first = false;
      }
    s << "Z\"/>\n";
    for (std::size_t e = 0; e < polylines[p].size(); ++e) {
      const auto& pts = polylines[p][e];
      const int seam = seam_of[p][e];
      s << "<polyline fill=\"none\" stroke=\"" << (seam >= 0 ? colours[seam % 8] : "#333")
        << "\" stroke-width=\"" << (seam >= 0 ? 1.5 : 0.8) << "\" points=\"";
      for (const Vec2& q : pts) s << X(p, q) << "," << Y(p, q) << " ";
      s << "\"/>\n";
      // Label just inside the edge's midpoint.
      const EdgeGeometry g = edge_geometry(panel, static_cast<int>(e));
      const Vec2 m = g.point(0.5);
      Vec2 inward = normalized(perp(g.derivative(0.5)));
      if (panel_signed_area(panel) < 0) inward = -inward;
      const Vec2 at = m + inward * 0.012;
      s << "<text x=\"" << X(p, at) << "\" y=\"" << Y(p, at)
        << "\" font-size=\"9\" text-anchor=\"middle\" fill=\"" << (seam >= 0 ? colours[seam % 8] : "#333")
        << "\">e" << e;
      if (seam >= 0) s << " S" << seam << (pat.stitches[seam].right_wrong ? "rw" : "");
      s << "</text>\n";
    }
    Vec2 c{};
    int n = 0;
    for (const auto& pts : polylines[p])
      for (const Vec2& q : pts) {
        c += q;
        ++n;
      }
    c = c / static_cast<double>(std::max(n, 1));
    s << "<text x=\"" << X(p, c) << "\" y=\"" << Y(p, c) << "\" font-size=\"14\" text-anchor=\"middle\">"
      << panel.name << "</text>\n";
    if (!panel.alias.empty())
      s << "<text x=\"" << X(p, c) << "\" y=\"" << Y(p, c) + 16
        << "\" font-size=\"10\" text-anchor=\"middle\" fill=\"#666\">" << panel.alias << "</text>\n";
    s << "</g>\n";
  }
  s << "</svg>\n";
  return s.str();
}

}  // namespace drape
