#include "drape/cloth/fabric.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "drape/cloth/stretch_curve.h"
#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"

namespace drape {
namespace {

// Unit conversions used in the sources below.
//  - KES-F bending rigidity B is reported in gf*cm^2/cm: 1 gf*cm^2/cm = 9.807e-5 N*m.
//  - KES-F shear rigidity G is reported in gf/(cm*degree): 1 gf/(cm*deg) = 56.2 N/m per radian.
//  - KES-F EMT is the extension (%) at 500 gf/cm = 490 N/m; a linear stretch modulus is
//    Y ~= 490 N/m / (EMT/100) (fabrics stiffen with strain; this is the low-strain secant).
//  - 1 oz/yd^2 = 33.9 g/m^2; silk's 1 momme = 4.305 g/m^2.
// Sources: S. Kawabata, M. Niwa, "Fabric performance in clothing and clothing
// manufacture", J. Textile Institute 80(1), 1989 (KES-F ranges of suiting, shirting,
// silk and knit fabrics); H. Wang, J. O'Brien, R. Ramamoorthi, "Data-driven elastic
// models for cloth", SIGGRAPH 2011 (measured stretch/bend of 10 fabrics, same orders);
// densities are the usual trade weights of each class. Damping, friction and sewing
// values are simulation parameters, not material data: chosen so that seams close in
// well under a second and cloth-on-skin friction is that of cotton on skin
// (mu ~ 0.4-0.6, Gerhardt et al., "Influence of fabric and skin on friction", 2008).

Fabric make_cotton() {
  Fabric f;
  f.name = "cotton";
  f.density = 0.14;    // shirting, 120-150 g/m^2
  f.stretch = 12000;   // EMT ~4 % -> 490 / 0.04
  f.shear = 45;        // G ~0.8 gf/(cm deg) (shirting 0.5-1.0)
  f.bending = 1.0e-5;  // B ~0.1 gf cm^2/cm (shirting 0.05-0.15)
  f.friction = 0.5;    // cotton on skin
  f.sewing_stiffness = 50;
  f.sewing_force_max = 0.05;
  return f;
}

Fabric make_denim() {
  Fabric f;
  f.name = "denim";
  f.density = 0.40;  // 12 oz/yd^2 = 407 g/m^2
  // Warp / weft from the construction (docs/FABRICS.md, "Presets"): 3/1 twill,
  // 60 ends/inch of Ne 6.5 warp against 40 picks/inch of Ne 12 weft (Adamu,
  // JTATM, KES study of denim): 2.8 times the yarn mass per width along the warp. Mean of the
  // two kept at the former isotropic 25,000 N/m (EMT ~2 %), so the bias is unchanged.
  f.stretch = 36800;       // warp
  f.stretch_weft = 13200;  // weft: 36,800 / 2.8
  f.shear = 110;           // G ~2 gf/(cm deg)
  f.bending = 8.0e-5;      // B ~0.8 gf cm^2/cm
  f.friction = 0.6;
  f.sewing_stiffness = 120;
  f.sewing_force_max = 0.15;
  return f;
}

// Cotton poplin: cotton's numbers with the warp / weft ratio of the classic
// 133 x 72 poplin construction (ends x picks per inch, equal yarns: 1.85 times
// the yarn per width along the warp), the mean of the two kept at cotton's
// 12,000 N/m. Opt-in (`--fabric poplin`): the default cotton stays isotropic.
Fabric make_poplin() {
  Fabric f = make_cotton();
  f.name = "poplin";
  f.stretch = 15600;      // warp
  f.stretch_weft = 8400;  // weft: 15,600 / 1.85
  return f;
}

Fabric make_silk() {
  Fabric f;
  f.name = "silk";
  f.density = 0.08;    // 19 momme charmeuse = 82 g/m^2
  f.stretch = 10000;   // EMT ~5 %
  f.shear = 17;        // G ~0.3 gf/(cm deg)
  f.bending = 2.0e-6;  // B ~0.02 gf cm^2/cm
  f.friction = 0.3;    // silk on skin is slippery
  f.sewing_stiffness = 30;
  f.sewing_force_max = 0.03;
  return f;
}

Fabric make_jersey() {
  Fabric f;
  f.name = "jersey";
  f.density = 0.18;    // single jersey cotton knit, 150-200 g/m^2
  f.stretch = 1500;    // EMT ~30 % (knits extend easily)
  f.shear = 10;        // G ~0.2 gf/(cm deg)
  f.bending = 3.0e-6;  // B ~0.03 gf cm^2/cm
  f.friction = 0.5;
  f.sewing_stiffness = 40;
  f.sewing_force_max = 0.05;
  return f;
}

void check_positive(double v, const std::string& source, const char* field) {
  if (!(std::isfinite(v) && v > 0))
    throw InvalidInput(source + ": field '" + field + "' must be a finite number > 0");
}
void check_nonnegative(double v, const std::string& source, const char* field) {
  if (!(std::isfinite(v) && v >= 0))
    throw InvalidInput(source + ": field '" + field + "' must be a finite number >= 0");
}

// The curves (docs/FABRICS.md, "Non-linear stretch"), named by their file keys:
// each one well formed, its first slope the direction's modulus, and every
// segment's slope > 0 in every direction (a monotonic curve along any cut).
void validate_stretch_curves(const Fabric& f, const std::string& source) {
  if (fabric_stretch_linear(f)) return;
  const struct {
    const std::vector<StretchPoint>* curve;
    double modulus;
    const char* key;
  } curves[] = {{&f.stretch_curve_warp, f.stretch, "stretch_curve_warp_N_m"},
                {&f.stretch_curve_weft, fabric_stretch_weft(f), "stretch_curve_weft_N_m"},
                {&f.stretch_curve_bias, fabric_stretch_bias(f), "stretch_curve_bias_N_m"}};
  for (const auto& c : curves) {
    if (c.curve->empty()) continue;
    check_stretch_curve(*c.curve, source, c.key);
    const double first = (*c.curve)[1].force / (*c.curve)[1].strain;
    if (!(std::abs(first / c.modulus - 1) <= 1e-9))
      throw InvalidInput(source + ": key '" + c.key + "': its first slope " + std::to_string(first) +
                         " N/m is not the direction's stretch modulus " + std::to_string(c.modulus) + " N/m");
  }
  const StretchSegments segments(f);
  for (std::size_t j = 0; j < segments.knots.size(); ++j)
    if (!(segments.minimum_slope(j) > 0))
      throw InvalidInput(
          source + ": key 'stretch_curve_bias_N_m' is too soft for the warp and weft from strain " +
          std::to_string(segments.knots[j]) + ": the curve would not increase in some direction");
}

}  // namespace

double fabric_stretch_weft(const Fabric& f) { return f.stretch_weft.value_or(f.stretch); }

double fabric_stretch_bias(const Fabric& f) {
  return f.stretch_bias ? *f.stretch_bias : 0.5 * (f.stretch + fabric_stretch_weft(f));
}

bool fabric_stretch_isotropic(const Fabric& f) {
  if (!(fabric_stretch_weft(f) == f.stretch && fabric_stretch_bias(f) == f.stretch)) return false;
  if (fabric_stretch_linear(f)) return true;
  const StretchCurve w = fabric_stretch_curve(f, StretchDirection::warp);
  for (StretchDirection d : {StretchDirection::weft, StretchDirection::bias}) {
    const StretchCurve c = fabric_stretch_curve(f, d);
    if (c.points != w.points || c.tail_slope != w.tail_slope) return false;
  }
  return true;
}

bool fabric_stretch_linear(const Fabric& f) {
  return f.stretch_curve_warp.empty() && f.stretch_curve_weft.empty() && f.stretch_curve_bias.empty();
}

double fabric_stretch_at(const Fabric& f, double cos_squared) {
  return DirectionalStretch(f.stretch, fabric_stretch_weft(f), fabric_stretch_bias(f))
      .at_cos_squared(cos_squared);
}

std::vector<std::string> fabric_preset_names() { return {"cotton", "poplin", "denim", "silk", "jersey"}; }

Fabric fabric_preset(const std::string& name) {
  if (name == "cotton") return make_cotton();
  if (name == "poplin") return make_poplin();
  if (name == "denim") return make_denim();
  if (name == "silk") return make_silk();
  if (name == "jersey" || name == "knit") return make_jersey();
  throw InvalidInput("unknown fabric '" + name + "' (known: cotton, poplin, denim, silk, jersey/knit)");
}

void validate_fabric(const Fabric& f, const std::string& source) {
  check_positive(f.density, source, "density");
  check_positive(f.stretch, source, "stretch");
  if (f.stretch_weft) check_positive(*f.stretch_weft, source, "stretch_weft");
  if (f.stretch_bias) check_positive(*f.stretch_bias, source, "stretch_bias");
  // Any positive bias is a fabric: the edge springs take biases above a floor
  // set by warp and weft, the triangle model those below a ceiling, and the
  // floor is under the ceiling (resolve_stretch_model refuses the other).
  validate_stretch_curves(f, source);
  check_nonnegative(f.shear, source, "shear");
  check_nonnegative(f.bending, source, "bending");
  check_nonnegative(f.spring_damping, source, "spring_damping");
  if (f.spring_damping > 1) throw InvalidInput(source + ": field 'spring_damping' must be <= 1");
  check_nonnegative(f.air_damping, source, "air_damping");
  check_nonnegative(f.friction, source, "friction");
  check_nonnegative(f.sewing_stiffness, source, "sewing_stiffness");
  check_positive(f.sewing_force_max, source, "sewing_force_max");
}

Fabric read_fabric_json(const std::filesystem::path& path) {
  const std::string source = path.string();
  const std::string text = read_file(path);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw InvalidInput(source + ": not valid JSON: " + e.what());
  }
  if (!j.is_object()) throw InvalidInput(source + ": a fabric file must hold a JSON object");
  Fabric f = make_cotton();
  if (j.contains("base")) {
    if (!j["base"].is_string()) throw InvalidInput(source + ": key 'base' must be a preset name");
    try {
      f = fabric_preset(j["base"].get<std::string>());
    } catch (const InvalidInput& e) {
      throw InvalidInput(source + ": key 'base': " + e.what());
    }
  }
  // Keys name their unit (docs/FABRICS.md): a number without its unit is the
  // commonest fabric mistake (gsm for kg/m^2, gf cm^2/cm for N m), so a key
  // without one is refused rather than guessed.
  struct Field {
    const char* key;   // with its unit
    const char* bare;  // the unit-less name of the first format, refused
    double Fabric::*member;
    bool positive;  // > 0 (else >= 0)
  };
  static const Field fields[] = {
      {"density_kg_m2", "density", &Fabric::density, true},
      {"stretch_N_m", "stretch", &Fabric::stretch, true},
      {"shear_N_m", "shear", &Fabric::shear, false},
      {"bending_N_m", "bending", &Fabric::bending, false},
      {"spring_damping_ratio", "spring_damping", &Fabric::spring_damping, false},
      {"air_damping_1_s", "air_damping", &Fabric::air_damping, false},
      {"friction_coefficient", "friction", &Fabric::friction, false},
      {"sewing_stiffness_N_m", "sewing_stiffness", &Fabric::sewing_stiffness, false},
      {"sewing_force_max_N", "sewing_force_max", &Fabric::sewing_force_max, true}};
  // Stretch per direction (docs/FABRICS.md, "Warp, weft and bias"):
  // stretch_N_m is the isotropic modulus (warp = weft = bias); the per-direction
  // keys set one direction each, the others keep the base's values.
  static const char* const directional[] = {"stretch_warp_N_m", "stretch_weft_N_m", "stretch_bias_N_m"};
  bool any_directional = false;
  for (const char* k : directional) any_directional = any_directional || j.contains(k);
  if (j.contains("stretch_N_m") && j.contains("stretch_warp_N_m"))
    throw InvalidInput(source +
                       ": key 'stretch_warp_N_m': give either 'stretch_N_m' (isotropic) or the warp");
  auto directional_value = [&](const std::string& key) {
    const nlohmann::json& v = j[key];
    if (!v.is_number()) throw InvalidInput(source + ": key '" + key + "' must be a number");
    const double x = v.get<double>();
    if (!std::isfinite(x) || !(x > 0))
      throw InvalidInput(source + ": key '" + key + "' must be a finite number > 0");
    return x;
  };
  if (j.contains("stretch_N_m")) {
    f.stretch = directional_value("stretch_N_m");
    f.stretch_weft.reset();
    f.stretch_bias.reset();
    f.stretch_curve_warp.clear();
    f.stretch_curve_weft.clear();
    f.stretch_curve_bias.clear();
  }
  // Curves (docs/FABRICS.md, "Non-linear stretch"): a direction takes a
  // modulus or a curve, not both; the isotropic curve stands alone.
  static const char* const curve_keys[] = {"stretch_curve_warp_N_m", "stretch_curve_weft_N_m",
                                           "stretch_curve_bias_N_m"};
  if (j.contains("stretch_curve_N_m"))
    for (const char* k : {"stretch_N_m", directional[0], directional[1], directional[2], curve_keys[0],
                          curve_keys[1], curve_keys[2]})
      if (j.contains(k))
        throw InvalidInput(source + ": key 'stretch_curve_N_m' (isotropic) cannot go with '" + k + "'");
  for (int d = 0; d < 3; ++d)
    if (j.contains(curve_keys[d]) && j.contains(directional[d]))
      throw InvalidInput(source + ": key '" + curve_keys[d] + "': give either '" + directional[d] +
                         "' (linear) or the curve");
  auto curve_value = [&](const std::string& key) {
    const nlohmann::json& v = j[key];
    const std::string what =
        source + ": key '" + key + "' must be a list of [strain, force per width N/m] points from [0, 0]";
    if (!v.is_array()) throw InvalidInput(what);
    std::vector<StretchPoint> c;
    for (const nlohmann::json& p : v) {
      if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number()) throw InvalidInput(what);
      c.push_back({p[0].get<double>(), p[1].get<double>()});
    }
    check_stretch_curve(c, source, key);
    return c;
  };
  for (const char* k : curve_keys) any_directional = any_directional || j.contains(k);
  if (j.contains("stretch_N_m") && j.contains(curve_keys[0]))
    throw InvalidInput(source + ": key '" + curve_keys[0] +
                       "': give either 'stretch_N_m' (isotropic) or the warp");
  if (any_directional && !f.stretch_weft) f.stretch_weft = fabric_stretch_weft(f);
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& key = it.key();
    if (key == "base") continue;
    if (key == "stretch_N_m") continue;  // read above
    if (key == "stretch_curve_N_m" || key == curve_keys[0] || key == curve_keys[1] || key == curve_keys[2])
      continue;  // read below
    if (key == directional[0] || key == directional[1] || key == directional[2]) {
      const double v = directional_value(key);
      if (key == directional[0]) f.stretch = v, f.stretch_curve_warp.clear();
      if (key == directional[1]) f.stretch_weft = v, f.stretch_curve_weft.clear();
      if (key == directional[2]) f.stretch_bias = v, f.stretch_curve_bias.clear();
      continue;
    }
    if (key == "name") {
      if (!it->is_string()) throw InvalidInput(source + ": key 'name' must be a string");
      f.name = it->get<std::string>();
      continue;
    }
    const Field* found = nullptr;
    for (const Field& fd : fields) {
      if (key == fd.key) found = &fd;
      if (key == fd.bare)
        throw InvalidInput(source + ": key '" + key + "' names no unit: write '" + fd.key + "'");
    }
    if (!found) throw InvalidInput(source + ": unknown key '" + key + "'");
    if (!it->is_number()) throw InvalidInput(source + ": key '" + key + "' must be a number");
    const double v = it->get<double>();
    if (!std::isfinite(v) || (found->positive ? !(v > 0) : !(v >= 0)))
      throw InvalidInput(source + ": key '" + key + "' must be a finite number " +
                         (found->positive ? "> 0" : ">= 0"));
    f.*(found->member) = v;
  }
  // A curve sets its direction's modulus to its first slope.
  auto first_slope = [](const std::vector<StretchPoint>& c) { return c[1].force / c[1].strain; };
  if (j.contains("stretch_curve_N_m")) {
    f.stretch_curve_warp = f.stretch_curve_weft = curve_value("stretch_curve_N_m");
    f.stretch_curve_bias.clear();
    f.stretch = first_slope(f.stretch_curve_warp);
    f.stretch_weft.reset();
    f.stretch_bias.reset();
  }
  if (j.contains(curve_keys[0])) {
    f.stretch_curve_warp = curve_value(curve_keys[0]);
    f.stretch = first_slope(f.stretch_curve_warp);
  }
  if (j.contains(curve_keys[1])) {
    f.stretch_curve_weft = curve_value(curve_keys[1]);
    f.stretch_weft = first_slope(f.stretch_curve_weft);
  }
  if (j.contains(curve_keys[2])) {
    f.stretch_curve_bias = curve_value(curve_keys[2]);
    f.stretch_bias = first_slope(f.stretch_curve_bias);
  }
  if (fabric_stretch_weft(f) == f.stretch && f.stretch_weft) f.stretch_weft.reset();
  if (f.stretch_bias && *f.stretch_bias == 0.5 * (f.stretch + fabric_stretch_weft(f))) f.stretch_bias.reset();
  validate_fabric(f, source);
  f.source = source;
  return f;
}

}  // namespace drape
