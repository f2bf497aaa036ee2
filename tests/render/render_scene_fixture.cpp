// render_scene_fixture OUT_DIR: writes scene.glb (nodes "body" and "garment",
// the garment with COLOR_0 = strain colour and _STRAIN), garment.obj and
// render.png from the reference body and a shirt-like offset of its torso.
// The viewer's browser test uses it when `drape demo` is not available.

#include <filesystem>
#include <iostream>

#include "drape/io/mesh_io.h"
#include "drape/render/colormap.h"
#include "drape/render/render_views.h"
#include "scene_fixture.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: render_scene_fixture OUT_DIR\n";
    return 2;
  }
  try {
    const std::filesystem::path dir = argv[1];
    std::filesystem::create_directories(dir);
    const drape::TriangleMesh body = drape::test::load_reference_body();
    const drape::test::ShirtLike shirt = drape::test::make_shirt_like(body);
    drape::GltfMeshNode b;
    b.name = "body";
    b.mesh = &body;
    b.base_color = drape::srgb_to_linear({0.87, 0.69, 0.57});
    drape::GltfMeshNode g;
    g.name = "garment";
    g.mesh = &shirt.mesh;
    g.colors = drape::test::strain_colors(shirt.strain);
    g.scalar.assign(shirt.strain.begin(), shirt.strain.end());
    g.scalar_name = "STRAIN";
    // White: COLOR_0 multiplies the base colour in every glTF viewer.
    g.base_color = {1.0, 1.0, 1.0};
    g.double_sided = true;
    // The body file is in decimetres: write the scene in its own units.
    drape::write_gltf(dir / "scene.glb", {b, g}, drape::LengthUnit::decimetre);
    drape::write_obj(dir / "garment.obj", shirt.mesh, drape::LengthUnit::decimetre);
    drape::write_png(dir / "render.png", drape::render_views(body, shirt.mesh, shirt.strain));
    std::cout << "wrote " << (dir / "scene.glb").string() << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "render_scene_fixture: " << e.what() << "\n";
    return 1;
  }
}
