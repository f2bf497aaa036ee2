#include "drape/cloth/fabric.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

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

}  // namespace

double fabric_stretch_weft(const Fabric& f) { return f.stretch_weft.value_or(f.stretch); }

double fabric_stretch_bias(const Fabric& f) {
  return f.stretch_bias ? *f.stretch_bias : 0.5 * (f.stretch + fabric_stretch_weft(f));
}

bool fabric_stretch_isotropic(const Fabric& f) {
  return fabric_stretch_weft(f) == f.stretch && fabric_stretch_bias(f) == f.stretch;
}

namespace {
// Y(theta) = a + b cos 2 theta + c cos 4 theta through warp Y(0), bias Y(45 deg)
// and weft Y(90 deg); with cos 4 theta = 2 u^2 - 1 for u = cos 2 theta.
struct DirectionalStretch {
  double a, b, c;
  explicit DirectionalStretch(const Fabric& f) {
    const double warp = f.stretch, weft = fabric_stretch_weft(f), bias = fabric_stretch_bias(f);
    a = 0.25 * (warp + weft) + 0.5 * bias;
    b = 0.5 * (warp - weft);
    c = 0.25 * (warp + weft) - 0.5 * bias;
  }
  double at_u(double u) const { return a + b * u + c * (2 * u * u - 1); }
  // The smallest Y over all directions (u in [-1, 1]).
  double minimum() const {
    double m = std::min(at_u(-1), at_u(1));
    if (c > 0) {
      const double u = -b / (4 * c);
      if (u > -1 && u < 1) m = std::min(m, at_u(u));
    }
    return m;
  }
};
}  // namespace

double fabric_stretch_at(const Fabric& f, double cos_squared) {
  return DirectionalStretch(f).at_u(2 * std::clamp(cos_squared, 0.0, 1.0) - 1);
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
  if (!fabric_stretch_isotropic(f) && !(DirectionalStretch(f).minimum() > 0))
    throw InvalidInput(source +
                       ": field 'stretch_bias' is too small for warp and weft: the stretch "
                       "modulus would be <= 0 in some direction");
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
  }
  if (any_directional && !f.stretch_weft) f.stretch_weft = fabric_stretch_weft(f);
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& key = it.key();
    if (key == "base") continue;
    if (key == "stretch_N_m") continue;  // read above
    if (key == directional[0] || key == directional[1] || key == directional[2]) {
      const double v = directional_value(key);
      if (key == directional[0]) f.stretch = v;
      if (key == directional[1]) f.stretch_weft = v;
      if (key == directional[2]) f.stretch_bias = v;
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
  if (fabric_stretch_weft(f) == f.stretch && f.stretch_weft) f.stretch_weft.reset();
  if (f.stretch_bias && *f.stretch_bias == 0.5 * (f.stretch + fabric_stretch_weft(f))) f.stretch_bias.reset();
  try {
    validate_fabric(f, source);
  } catch (const InvalidInput& e) {
    // Name the file's key for the directional check.
    const std::string what = e.what();
    if (what.find("'stretch_bias'") != std::string::npos)
      throw InvalidInput(source +
                         ": key 'stretch_bias_N_m' is too small for the warp and weft: the "
                         "stretch modulus would be <= 0 in some direction");
    throw;
  }
  return f;
}

}  // namespace drape
