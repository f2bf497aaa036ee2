#include "drape/pipeline/garment_check.h"

namespace drape {

GarmentCheck check_garment_file(const TriangleMeshBvh& body_tree, LengthUnit body_file_unit,
                                const std::filesystem::path& garment_path, const std::string& garment_group,
                                std::optional<LengthUnit> garment_unit, double self_cone_angle,
                                const Executor& executor, bool keep_pairs) {
  MeshReadOptions go;
  go.group = garment_group;
  go.unit = garment_unit ? garment_unit : std::optional<LengthUnit>(body_file_unit);
  GarmentCheck r{read_mesh(garment_path, go), *go.unit, {}};
  r.counts = count_intersections(body_tree, r.garment.mesh, self_cone_angle, executor, keep_pairs);
  return r;
}

}  // namespace drape
