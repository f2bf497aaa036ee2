// `drape body`: a body from MakeHuman's macro targets (--gender ... --proportions,
// or --fit height=..,bust=..,waist=..,hip=.. solved for), written as OBJ or a
// rigged glTF; `drape body --measure B`: the measurements of any standing body.

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "body_options.h"
#include "command_registry.h"
#include "default_paths.h"
#include "drape/body/body_loader.h"
#include "drape/body/body_measurements.h"
#include "drape/body/macro_fit.h"
#include "drape/body/macro_targets.h"
#include "drape/body/morphed_obj.h"
#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"
#include "drape/core/strings.h"
#include "drape/io/mesh_io.h"
#include "drape/pipeline/body_rigging.h"
#include "drape/rig/gltf_skin.h"
#include "drape/rig/makehuman.h"

namespace drape::cli {

namespace fs = std::filesystem;

namespace {

struct BodyOptions {
  MacroValues values;
  std::string targets = data_dir() + "/bodies/makehuman/targets";
  std::string base = default_body_path();
  std::string skeleton = data_dir() + "/bodies/makehuman/default.mhskel";
  std::string out, unit, measure, fit;
  BodyCliOptions measured;  ///< --group, --body-unit, --up, --front of the --measure body
  bool json = false;
  std::vector<std::pair<std::string, bool>> ethnic_given;  ///< (name, given on the command line)
};

std::string cm(double metres) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", metres * 100);
  return b;
}

nlohmann::ordered_json measures_json(const BodyMeasurements& m) {
  auto r = [](double metres) { return std::round(metres * 1000) / 10; };  // cm, 1 decimal
  nlohmann::ordered_json j;
  j["height"] = r(m.height);
  j["bust"] = r(m.bust);
  j["waist"] = r(m.waist);
  j["hip"] = r(m.hip);
  j["inseam"] = r(m.inseam);
  j["arm_length"] = r(m.arm_length);
  j["neck"] = r(m.neck);
  j["thigh"] = r(m.thigh);
  j["upper_arm"] = r(m.upper_arm);
  j["head"] = r(m.head);
  return j;
}

void print_measures(const BodyMeasurements& m) {
  std::cout << "height     " << cm(m.height) << " cm\n"
            << "bust       " << cm(m.bust) << " cm (at " << cm(m.bust_y) << " cm)\n"
            << "waist      " << cm(m.waist) << " cm (at " << cm(m.waist_y) << " cm)\n"
            << "hip        " << cm(m.hip) << " cm (at " << cm(m.hip_y) << " cm)\n"
            << "inseam     " << cm(m.inseam) << " cm\n"
            << "arm length " << cm(m.arm_length) << " cm\n"
            << "neck       " << cm(m.neck) << " cm\n"
            << "thigh      " << cm(m.thigh) << " cm\n"
            << "upper arm  " << cm(m.upper_arm) << " cm\n"
            << "head       " << cm(m.head) << " cm\n";
}

int run_measure(const BodyOptions& o) {
  // Any file, any axes and unit: the one body loader brings it into +Y up, facing +Z, metres.
  const Body lm = load_body(o.measure, o.measured.load_options());
  const BodyMeasurements m = measure_body(lm.mesh, o.measure);
  if (o.json) {
    nlohmann::ordered_json j;
    j["file"] = o.measure;
    j["file_unit"] = unit_name(lm.file_unit);
    j["measures_cm"] = measures_json(m);
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << o.measure << " (" << unit_name(lm.file_unit) << ")\n";
    print_measures(m);
  }
  return kOk;
}

// The skeleton's bones as JSON beside `out` (<stem>.joints.json), in `unit`.
void write_joints_json(const BodyOptions& o, const Skeleton& skeleton, LengthUnit unit) {
  const double s = 1.0 / metres_per_unit(unit);
  nlohmann::ordered_json j;
  j["skeleton"] = o.skeleton;
  j["unit"] = unit_name(unit);
  j["bones"] = nlohmann::ordered_json::array();
  for (const Bone& b : skeleton.bones)
    j["bones"].push_back({{"name", b.name},
                          {"parent", b.parent < 0 ? nlohmann::ordered_json()
                                                  : nlohmann::ordered_json(skeleton.bones[b.parent].name)},
                          {"head", {b.head.x * s, b.head.y * s, b.head.z * s}},
                          {"tail", {b.tail.x * s, b.tail.y * s, b.tail.z * s}},
                          {"roll", b.roll}});
  fs::path jpath = o.out;
  jpath.replace_extension(".joints.json");
  write_file_atomically(jpath, j.dump(2) + "\n");
}

// The morphed body written as OBJ (base.obj's lines, new vertices) or as a
// skinned glTF; the skeleton of the morphed body (MakeHuman joints are
// centroids of its vertices, helpers included) as JSON beside either.
void write_body(const BodyOptions& o, const MorphableBody& mb, const std::vector<Vec3>& all,
                const TriangleMesh& body, const std::optional<LengthUnit>& unit_asked) {
  if (lower_extension(o.out) == ".obj") {
    const LengthUnit unit = unit_asked.value_or(mb.file_unit);
    write_morphed_obj(o.base, o.out, all, unit);
    write_joints_json(o, place_mhskel(read_mhskel(o.skeleton, mb.base), all), unit);
    return;
  }
  const LengthUnit unit = unit_asked.value_or(LengthUnit::metre);
  const TemplateRig tr = load_template_rig(o.skeleton, o.base);
  if (!tr.is_makehuman)
    throw InvalidInput("--skeleton: expected a MakeHuman .mhskel, got '" + o.skeleton + "'");
  if (tr.body.source_vertex != body.source_vertex)
    throw InvalidInput(o.skeleton + ": its template body is not " + o.base + "'s body group");
  const Skeleton skeleton = place_mhskel(tr.makehuman, all);
  write_gltf_skin(o.out, RiggedMesh{body, skeleton, tr.weights}, unit);
  write_joints_json(o, skeleton, unit);
}

int run_body(const BodyOptions& o) {
  if (!o.measure.empty()) {
    if (!o.out.empty() || !o.fit.empty())
      throw InvalidInput("--measure: measures an existing body; it does not combine with --out or --fit");
    return run_measure(o);
  }
  for (const std::string& name : macro_value_names())
    if (const double x = macro_value(o.values, name); !(x >= 0 && x <= 1)) {
      char b[32];
      std::snprintf(b, sizeof b, "%.10g", x);
      throw InvalidInput("--" + name + ": " + b + " is outside 0..1");
    }
  MacroValues values = o.values;
  // As MakeHuman's sliders: ethnic shares not given share what the given ones leave.
  {
    double given = 0, rest = 0;
    for (const auto& [name, set] : o.ethnic_given) (set ? given : rest) += macro_value(values, name);
    const bool any =
        std::any_of(o.ethnic_given.begin(), o.ethnic_given.end(), [](auto& e) { return e.second; });
    if (any && given <= 1 && rest > 0)
      for (const auto& [name, set] : o.ethnic_given)
        if (!set) macro_value(values, name) *= (1 - given) / rest;
  }
  validate_macro_values(values, "--african/--asian/--caucasian");
  std::optional<MeasureGoal> goal;
  if (!o.fit.empty()) goal = parse_measure_goal(o.fit, "--fit");
  const std::string ext = o.out.empty() ? "" : lower_extension(o.out);
  if (!o.out.empty() && ext != ".obj" && ext != ".glb" && ext != ".gltf")
    throw InvalidInput("--out: expected .obj, .glb or .gltf, got '" + o.out + "'");
  std::optional<LengthUnit> unit;
  if (!o.unit.empty()) {
    unit = parse_unit(o.unit);
    if (!unit) throw InvalidInput("--unit: unknown unit '" + o.unit + "'");
  }

  const MorphableBody mb = load_morphable_body(o.base);
  MacroTargets targets(o.targets, mb.base.size(), metres_per_unit(mb.file_unit));
  int rc = kOk;
  std::optional<MacroFitResult> fit;
  if (goal) {
    fit = fit_macro_values(targets, mb, *goal, values);
    values = fit->values;
    if (!fit->reached) rc = kSimulationFailed;
  }
  const std::vector<Vec3> all = targets.apply(mb.base, values);
  const TriangleMesh body = mb.body_at(all);
  const BodyMeasurements m = fit ? fit->achieved : measure_body(body, "macro body");

  if (!o.out.empty()) write_body(o, mb, all, body, unit);

  nlohmann::ordered_json j;
  nlohmann::ordered_json jv;
  for (const std::string& name : macro_value_names()) jv[name] = macro_value(values, name);
  j["macro_values"] = jv;
  j["measures_cm"] = measures_json(m);
  if (fit) {
    nlohmann::ordered_json res;
    auto add = [&](const char* name, const std::optional<double>& asked, double got) {
      if (asked) res[name] = std::round((got - *asked) * 1000) / 10;
    };
    add("height", goal->height, m.height);
    add("bust", goal->bust, m.bust);
    add("waist", goal->waist, m.waist);
    add("hip", goal->hip, m.hip);
    j["fit"] = {{"residuals_cm", res},
                {"reached", fit->reached},
                {"max_residual_cm", std::round(fit->max_residual * 1000) / 10},
                {"bodies_evaluated", fit->evaluations}};
  }
  if (!o.out.empty()) j["out"] = o.out;
  if (o.json) {
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << "macro values:";
    for (const std::string& name : macro_value_names())
      std::printf(" %s=%.3f", name.c_str(), macro_value(values, name));
    std::cout << std::endl;
    print_measures(m);
    if (fit) {
      std::cout << "fit residuals (cm): " << j["fit"]["residuals_cm"].dump() << "\n";
      if (!fit->reached)
        std::cerr << "drape: warning: --fit did not reach the asked measures within 1 cm (largest miss "
                  << cm(fit->max_residual) << " cm): the closest body was written\n";
    }
    if (!o.out.empty()) std::cout << "-> " << o.out << "\n";
  }
  return rc;
}

const CommandRegistrar reg_body{
    "body", "Make a body from MakeHuman's macro targets (or fit it to measures); measure any body",
    [](CLI::App& app) {
      auto o = std::make_shared<BodyOptions>();
      app.add_option("--gender", o->values.gender, "0 = female .. 1 = male (default 0.5)");
      app.add_option("--age", o->values.age, "0.5 = 25 years .. 1 = 90 years (default 0.5)");
      app.add_option("--muscle", o->values.muscle, "0 .. 1 (default 0.5)");
      app.add_option("--weight", o->values.weight, "0 .. 1 (default 0.5)");
      app.add_option("--height", o->values.height, "0 .. 1 (default 0.5)");
      app.add_option("--proportions", o->values.proportions, "0 uncommon .. 1 ideal (default 0.5)");
      app.add_option("--african", o->values.african, "ethnic share (the three sum to 1; default 1/3)");
      app.add_option("--asian", o->values.asian, "ethnic share (default 1/3)");
      app.add_option("--caucasian", o->values.caucasian, "ethnic share (default 1/3)");
      app.add_option("--fit", o->fit,
                     "Solve gender, muscle, weight, height, proportions for measures in cm, e.g. "
                     "height=170,bust=90,waist=72,hip=98 (exit 3 when not within 1 cm)");
      app.add_option("--out", o->out,
                     "body.obj (base.obj's groups kept) or body.glb / .gltf (skinned); the skeleton's "
                     "joints go to <name>.joints.json beside either");
      app.add_option("--unit", o->unit, "Output unit (default: the base mesh's, dm, for OBJ; m for glTF)");
      app.add_option("--measure", o->measure,
                     "Measure this body instead (.obj, .gltf, .glb; any unit and axes: see --body-unit, "
                     "--up, --front, --group)");
      o->measured.add_to(app, "--body-unit");
      app.add_option("--targets", o->targets, "MakeHuman targets folder (default: the bundled one)");
      app.add_option("--base", o->base, "MakeHuman base mesh (default: the bundled base.obj)");
      app.add_option("--skeleton", o->skeleton,
                     "MakeHuman .mhskel for glTF output (default: default.mhskel)");
      app.add_flag("--json", o->json, "Print JSON");
      return [o, &app] {
        for (const char* e : {"african", "asian", "caucasian"})
          o->ethnic_given.emplace_back(e, app.count(std::string("--") + e) > 0);
        return run_body(*o);
      };
    }};

}  // namespace
}  // namespace drape::cli
