// Write stage of `drape dress`: garment.obj, scene.glb, render.png
// (dress_stages.h). Outputs overlay the body file: its frame and unit.

#include "drape/core/exceptions.h"
#include "drape/io/mesh_io.h"
#include "drape/pipeline/dress_stages.h"
#include "drape/render/colormap.h"
#include "drape/render/render_views.h"

namespace drape {

namespace fs = std::filesystem;

namespace {

// glTF skin data: joints with their frames in the written pose, and per-vertex influences.
GltfSkin gltf_skin(const Skeleton& skeleton, const Pose& pose) {
  GltfSkin skin;
  skin.name = skeleton.name.empty() ? "skeleton" : skeleton.name;
  const std::vector<RigidTransform> frames = posed_frames(skeleton, pose);
  for (std::size_t b = 0; b < skeleton.size(); ++b)
    skin.joints.push_back({skeleton.bones[b].name, skeleton.bones[b].parent, frames[b]});
  return skin;
}

void set_skin_attributes(GltfMeshNode& node, const SkinWeights& w) {
  node.joints.resize(w.size());
  node.weights.resize(w.size());
  for (std::size_t v = 0; v < w.size(); ++v)
    for (int k = 0; k < 4; ++k) {
      node.joints[v][k] = w.vertices[v].bone[k];
      node.weights[v][k] = static_cast<float>(w.vertices[v].weight[k]);
    }
}

}  // namespace

std::vector<fs::path> write_dress_outputs(const DressJob& job, const Body& body, const GarmentMesh& garment,
                                          const Pattern& pattern, const DressResult& result) {
  std::vector<fs::path> written;
  std::error_code ec;
  fs::create_directories(job.out_dir, ec);
  if (ec) throw IoError(job.out_dir.string() + ": cannot create folder: " + ec.message());
  const TriangleMesh& g = result.drape.mesh;
  const fs::path obj = job.out_dir / "garment.obj";
  // One OBJ group per panel.
  const ObjFaceGroups panels = panel_face_groups(garment, &result.drape.face_map);
  write_obj(obj, body.in_file_frame(g), result.body_unit, true, &panels);
  const Mat3 to_file = body.to_file();
  const Mat3* scene_rotation = body.axes.is_canonical() ? nullptr : &to_file;
  written.push_back(obj);

  const StrainRange range = auto_strain_range(result.drape.vertex_strain);
  // glTF colours are linear and the base colour multiplies COLOR_0: the
  // garment's base is white so the strain colours show as they are.
  GltfMeshNode body_node{
      .name = "body", .mesh = &result.body, .base_color = srgb_to_linear({0.87, 0.69, 0.57})};
  GltfMeshNode garment_node{.name = "garment", .mesh = &g, .base_color = {1, 1, 1}, .double_sided = true};
  garment_node.colors.reserve(g.vertex_count());
  garment_node.scalar.reserve(g.vertex_count());
  for (double s : result.drape.vertex_strain) {
    garment_node.colors.push_back(srgb_to_linear(strain_color(s, range)));
    garment_node.scalar.push_back(static_cast<float>(s));
  }
  const fs::path glb = job.out_dir / "scene.glb";
  if (result.rigged) {
    // Skinned to the skeleton, bound in the pose the meshes are in.
    set_skin_attributes(body_node, result.body_weights);
    set_skin_attributes(garment_node, result.garment_weights);
    const GltfSkin skin = gltf_skin(result.skeleton, result.pose);
    write_gltf(glb, {body_node, garment_node}, result.body_unit, &skin, scene_rotation);
  } else {
    write_gltf(glb, {body_node, garment_node}, result.body_unit, nullptr, scene_rotation);
  }
  written.push_back(glb);

  if (job.write_render) {
    RenderOptions ropt;
    ropt.caption = pattern.name + " on " + job.body_path.filename().string();
    const Image img = render_views(result.body, g, result.drape.vertex_strain, ropt);
    const fs::path png = job.out_dir / "render.png";
    write_png(png, img);
    written.push_back(png);
  }
  return written;
}

}  // namespace drape
