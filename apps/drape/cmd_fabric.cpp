// `drape fabric test`: the textile lab's standard tests (cantilever bending,
// tensile, Cusick drape) run on a fabric in the cloth simulator and compared
// with the analytic answers for the fabric's own numbers (docs/FABRICS.md).

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "command_registry.h"
#include "drape/cloth/fabric.h"
#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"
#include "drape/fabric_lab/cantilever.h"
#include "drape/fabric_lab/cusick.h"
#include "drape/fabric_lab/lab_pictures.h"
#include "drape/fabric_lab/tensile.h"
#include "drape/render/image.h"

namespace drape::cli {
namespace {

struct FabricTestOptions {
  std::string fabric;  // preset name or JSON file; empty: every preset
  std::string test = "all";
  bool json = false;
  double particle_distance_mm = 10;
  std::string stretch_model = "springs";
  std::string out;
};

Fabric load_fabric(const std::string& name) {
  if (std::filesystem::exists(name) || name.ends_with(".json")) return read_fabric_json(name);
  return fabric_preset(name);
}

double percent_off(double sim, double reference) { return 100 * (sim / reference - 1); }

nlohmann::ordered_json cantilever_json(const CantileverResult& r) {
  nlohmann::ordered_json j;
  j["weight_N_m2"] = r.weight;
  j["flexural_rigidity_N_m"] = r.flexural_rigidity;
  j["flexural_rigidity_sim_N_m"] = r.flexural_rigidity_sim;
  j["bending_length_sim_m"] = r.bending_length_sim;
  j["bending_length_peirce_m"] = r.bending_length_peirce;
  j["bending_length_elastica_m"] = r.bending_length_elastica;
  j["bending_length_error_vs_elastica_percent"] =
      percent_off(r.bending_length_sim, r.bending_length_elastica);
  j["overhang_sim_m"] = r.overhang_sim;
  j["chord_angle_sim_deg"] = r.chord_angle_sim * 180 / 3.14159265358979323846;
  j["overhangs_tried"] = r.overhangs_tried;
  j["frames"] = r.frames;
  return j;
}

int run_fabric_test(const FabricTestOptions& o) {
  if (o.test != "all" && o.test != "cantilever" && o.test != "tensile" && o.test != "cusick")
    throw InvalidInput("--test: unknown test '" + o.test + "' (cantilever, cusick, tensile, all)");
  if (!(o.particle_distance_mm >= 1 && o.particle_distance_mm <= 50))
    throw InvalidInput("--particle-distance: must be 1..50 mm");
  std::vector<Fabric> fabrics;
  if (o.fabric.empty())
    for (const std::string& name : fabric_preset_names()) fabrics.push_back(fabric_preset(name));
  else
    fabrics.push_back(load_fabric(o.fabric));
  const StretchModel stretch_model = parse_stretch_model(o.stretch_model);
  const bool all = o.test == "all";
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  std::vector<std::pair<std::string, Image>> pictures;
  for (const Fabric& f : fabrics) {
    nlohmann::ordered_json j;
    j["fabric"] = f.name;
    j["particle_distance_m"] = o.particle_distance_mm / 1000;
    j["stretch_model"] = stretch_model_name(stretch_model);
    j["weight_N_m2"] = f.density * 9.81;
    j["flexural_rigidity_N_m"] = f.bending;
    if (all || o.test == "cantilever") {
      CantileverOptions co;
      co.particle_distance = o.particle_distance_mm / 1000;
      co.stretch_model = stretch_model;
      const CantileverResult r = cantilever_test(f, co);
      j["cantilever"] = cantilever_json(r);
      j["bending_length_sim_m"] = r.bending_length_sim;
      j["bending_length_peirce_m"] = r.bending_length_peirce;
      j["bending_length_elastica_m"] = r.bending_length_elastica;
      pictures.push_back({f.name + "_cantilever.png", cantilever_picture(r)});
      if (!o.json)
        std::printf(
            "%-10s cantilever: bending length sim %.2f mm, elastica %.2f mm (%+.1f %%), Peirce %.2f mm; "
            "G %.3g N m (sim %.3g)\n",
            f.name.c_str(), r.bending_length_sim * 1000, r.bending_length_elastica * 1000,
            percent_off(r.bending_length_sim, r.bending_length_elastica), r.bending_length_peirce * 1000,
            r.flexural_rigidity, r.flexural_rigidity_sim);
    }
    if (all || o.test == "tensile") {
      // One strip per direction: warp, weft and bias (docs/FABRICS.md, "Tensile").
      nlohmann::ordered_json t;
      for (TensileDirection d : {TensileDirection::warp, TensileDirection::weft, TensileDirection::bias}) {
        TensileOptions to;
        to.particle_distance = o.particle_distance_mm / 1000;
        to.direction = d;
        to.stretch_model = stretch_model;
        const TensileResult r = tensile_test(f, to);
        nlohmann::ordered_json one;
        one["stretch_modulus_N_m"] = r.modulus;
        if (!r.curve.empty()) {
          // The fabric's curve in this direction (docs/FABRICS.md, "Non-linear stretch").
          nlohmann::ordered_json c = nlohmann::ordered_json::array();
          for (const StretchPoint& q : r.curve) c.push_back({q.strain, q.force});
          one["stretch_curve_N_m"] = c;
        }
        // The simulated curve: the load per width against the strain the strip settled at.
        nlohmann::ordered_json pts = nlohmann::ordered_json::array();
        for (const TensilePoint& p : r.points)
          pts.push_back({{"sample_strain", p.sample_strain},
                         {"strain", p.strain},
                         {"force_per_width_sim_N_m", p.force_per_width},
                         {"force_per_width_fabric_N_m", p.fabric_force_per_width},
                         {"error_percent", 100 * (p.force_per_width / p.fabric_force_per_width - 1)},
                         {"frames", p.frames}});
        one["points"] = pts;
        one["max_error_percent"] = 100 * r.max_error;
        t[r.direction] = one;
        if (!o.json) {
          std::printf(
              "%-10s tensile %-4s (Y %.0f N/m%s): %zu strains up to %.1f %%, force per width within %.2f %% "
              "of "
              "the fabric's curve\n",
              f.name.c_str(), r.direction.c_str(), r.modulus, r.curve.empty() ? "" : " at first, curve",
              r.points.size(), 100 * r.points.back().strain, 100 * r.max_error);
          if (!r.curve.empty())
            for (const TensilePoint& p : r.points)
              std::printf("%-10s   strain %6.3f %%: %8.2f N/m (fabric %8.2f, %+.2f %%)\n", "", 100 * p.strain,
                          p.force_per_width, p.fabric_force_per_width,
                          100 * (p.force_per_width / p.fabric_force_per_width - 1));
        }
      }
      j["tensile"] = t;
    }
    if (all || o.test == "cusick") {
      CusickOptions cu;
      cu.particle_distance = o.particle_distance_mm / 1000;
      cu.stretch_model = stretch_model;
      const CusickResult r = cusick_test(f, cu);
      j["drape_coefficient"] = r.drape_coefficient;
      nlohmann::ordered_json c;
      c["drape_coefficient"] = r.drape_coefficient;
      c["nodes"] = r.nodes;
      c["shadow_area_m2"] = r.shadow_area;
      c["specimen_area_m2"] = r.specimen_area;
      c["support_area_m2"] = r.support_area;
      c["measured_drape_coefficient"] = nullptr;
      c["validation"] = "unvalidated (no measured coefficient for this fabric)";
      c["vertices"] = r.vertices;
      c["frames"] = r.frames;
      j["cusick"] = c;
      pictures.push_back({f.name + "_cusick.png", r.shadow});
      if (!o.json)
        std::printf("%-10s Cusick: drape coefficient %.1f %%, %d nodes (unvalidated: no measured value)\n",
                    f.name.c_str(), 100 * r.drape_coefficient, r.nodes);
    }
    results.push_back(j);
  }
  nlohmann::ordered_json doc;
  doc["fabrics"] = results;
  if (!o.out.empty()) {
    std::filesystem::create_directories(o.out);
    for (const auto& [name, image] : pictures) write_png(std::filesystem::path(o.out) / name, image);
    write_file_atomically(std::filesystem::path(o.out) / "fabric_test.json", doc.dump(2) + "\n");
  }
  if (o.json) std::cout << doc.dump(2) << "\n";
  return kOk;
}

const CommandRegistrar reg_fabric_test{
    "fabric test", "Run the textile lab's tests (cantilever, tensile, Cusick drape) on a fabric",
    [](CLI::App& app) {
      auto o = std::make_shared<FabricTestOptions>();
      app.add_option("--fabric", o->fabric, "Preset name or fabric JSON file (default: every preset)");
      app.add_option("--test", o->test, "cantilever, tensile, cusick or all (default)");
      app.add_flag("--json", o->json, "Print the results as JSON");
      app.add_option("--particle-distance", o->particle_distance_mm,
                     "Specimen mesh spacing, mm (default 10)");
      app.add_option("--stretch-model", o->stretch_model,
                     "springs (default, as drape dress) or triangle: the specimens' in-plane model");
      app.add_option("--out", o->out, "Folder for fabric_test.json and the pictures");
      return [o] { return run_fabric_test(*o); };
    }};

}  // namespace
}  // namespace drape::cli
