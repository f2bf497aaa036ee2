// Tests of the software renderer against facts computed independently:
// silhouette areas of analytic shapes, Lambert shading by hand, depth order,
// symmetry of the reference body, PNG round trips.

#include <gtest/gtest.h>
#include <stb/stb_image.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>

#include "drape/core/exceptions.h"
#include "drape/render/render_views.h"
#include "scene_fixture.h"
#include "test_temp_dir.h"

namespace drape {
namespace {

TriangleMesh uv_sphere(double r, int slices, int stacks, const Vec3& c = {}) {
  TriangleMesh m;
  for (int i = 0; i <= stacks; ++i) {
    const double th = std::numbers::pi * i / stacks;
    for (int j = 0; j < slices; ++j) {
      const double ph = 2 * std::numbers::pi * j / slices;
      m.positions.push_back(
          c + Vec3{r * std::sin(th) * std::cos(ph), r * std::cos(th), r * std::sin(th) * std::sin(ph)});
    }
  }
  for (int i = 0; i < stacks; ++i)
    for (int j = 0; j < slices; ++j) {
      const int a = i * slices + j, b = i * slices + (j + 1) % slices;
      const int c2 = a + slices, d = b + slices;
      m.faces.push_back({a, c2, b});
      m.faces.push_back({b, c2, d});
    }
  return m;
}

/// Axis-aligned quad facing +Z at depth z.
TriangleMesh quad(double x0, double y0, double x1, double y1, double z) {
  TriangleMesh m;
  m.positions = {{x0, y0, z}, {x1, y0, z}, {x1, y1, z}, {x0, y1, z}};
  m.faces = {{0, 1, 2}, {0, 2, 3}};
  return m;
}

TriangleMesh unit_cube() {
  TriangleMesh m;
  for (int i = 0; i < 8; ++i)
    m.positions.push_back({i & 1 ? 0.5 : -0.5, i & 2 ? 0.5 : -0.5, i & 4 ? 0.5 : -0.5});
  // Faces split per side so vertex normals are not shared across sides.
  TriangleMesh out;
  const int sides[6][4] = {{4, 5, 7, 6}, {1, 0, 2, 3}, {5, 1, 3, 7},
                           {0, 4, 6, 2}, {2, 6, 7, 3}, {0, 1, 5, 4}};
  for (const auto& s : sides) {
    const int base = static_cast<int>(out.positions.size());
    for (int k = 0; k < 4; ++k) out.positions.push_back(m.positions[s[k]]);
    out.faces.push_back({base, base + 1, base + 2});
    out.faces.push_back({base, base + 2, base + 3});
  }
  return out;
}

std::size_t covered_count(const Framebuffer& fb) {
  std::size_t n = 0;
  for (int y = 0; y < fb.height; ++y)
    for (int x = 0; x < fb.width; ++x) n += fb.covered(x, y);
  return n;
}

TEST(Colormap, EndsMiddleClampAndNan) {
  const StrainRange r{-0.1, 0.3};
  const Vec3 lo = strain_color(-0.1, r), hi = strain_color(0.3, r), mid = strain_color(0.1, r);
  EXPECT_GT(lo.z, lo.x);  // blue at the minimum
  EXPECT_GT(hi.x, 0.8);   // red at the maximum
  EXPECT_LT(hi.z, 0.2);
  EXPECT_GT(mid.y, mid.x);  // green in the middle
  EXPECT_GT(mid.y, mid.z);
  EXPECT_EQ(strain_color(-5.0, r), lo);  // clamped
  EXPECT_EQ(strain_color(5.0, r), hi);
  const Vec3 nan = strain_color(std::nan(""), r);
  EXPECT_EQ(nan.x, nan.y);
  EXPECT_EQ(nan.y, nan.z);
}

TEST(Colormap, SrgbToLinearMatchesTheStandardCurve) {
  EXPECT_NEAR(srgb_to_linear({0.5, 0.5, 0.5}).x, 0.21404, 1e-4);
  EXPECT_NEAR(srgb_to_linear({0.04, 1.0, 0.0}).x, 0.04 / 12.92, 1e-12);
  EXPECT_NEAR(srgb_to_linear({0.04, 1.0, 0.0}).y, 1.0, 1e-12);
}

TEST(Colormap, AutoRangeUsesPercentilesAndIncludesZero) {
  std::vector<double> v;
  for (int i = 0; i <= 1000; ++i) v.push_back(0.02 + 0.1 * i / 1000.0);  // 0.02 .. 0.12
  v.push_back(50.0);  // an outlier beyond the 99th percentile is ignored
  v.push_back(std::numeric_limits<double>::infinity());
  const StrainRange r = auto_strain_range(v);
  EXPECT_EQ(r.min, 0.0);  // zero stays in range
  EXPECT_NEAR(r.max, 0.02 + 0.1 * 0.99, 0.002);
  const std::vector<double> tiny{0.0001, -0.0001};
  const StrainRange t = auto_strain_range(tiny);
  EXPECT_LE(t.min, -0.0001);
  EXPECT_GE(t.max, 0.01);
}

TEST(Camera, ProjectsCentreToImageCentreAndViewsAreMirrors) {
  const Vec3 c{1, 2, 3};
  const OrthoCamera front = make_camera(View::front, c, 100, 200, 300);
  const OrthoCamera back = make_camera(View::back, c, 100, 200, 300);
  const OrthoCamera side = make_camera(View::side, c, 100, 200, 300);
  const Vec3 p0 = front.project(c);
  EXPECT_DOUBLE_EQ(p0.x, 100);
  EXPECT_DOUBLE_EQ(p0.y, 150);
  // +X (the body's left) is on the right of the front view, the left of the back view.
  const Vec3 px = c + Vec3{0.1, 0.2, 0.3};
  EXPECT_NEAR(front.project(px).x, 110, 1e-9);
  EXPECT_NEAR(back.project(px).x, 90, 1e-9);
  EXPECT_NEAR(front.project(px).y, 130, 1e-9);  // up is up
  // Front of the body (+Z) is nearer in the front view, farther in the back view.
  EXPECT_GT(front.project(px).z, 0);
  EXPECT_LT(back.project(px).z, 0);
  // The side view looks from +X: +Z (front) is on the viewer's left.
  EXPECT_NEAR(side.project(px).x, 70, 1e-9);
  EXPECT_GT(side.project(px).z, 0);
}

TEST(Camera, FitScaleFramesTheLargestViewWithMargin) {
  Aabb b{{-1, 0, -0.25}, {1, 4, 0.25}};
  const std::array<View, 3> views{View::front, View::side, View::back};
  // 2 m wide, 4 m tall into 100 x 100 with 10 % margin each side: 80 / 4 = 20 px/m.
  EXPECT_DOUBLE_EQ(fit_scale(b, views, 100, 100, 0.1), 20.0);
  EXPECT_DOUBLE_EQ(fit_scale(b, views, 1000, 100, 0.1), 20.0);
  EXPECT_THROW(fit_scale(Aabb{}, views, 100, 100), InvalidInput);
}

TEST(Rasterizer, SphereSilhouetteAreaIsPiRSquared) {
  const double r = 0.3, ppm = 400;  // radius 120 px
  const TriangleMesh s = uv_sphere(r, 96, 48);
  for (View v : {View::front, View::side, View::back}) {
    Framebuffer fb(320, 300, {1, 1, 1});
    draw_mesh(fb, make_camera(v, {}, ppm, 320, 300), {&s, {0.5, 0.5, 0.5}, {}}, Lighting{});
    const double expected = std::numbers::pi * (r * ppm) * (r * ppm);
    EXPECT_NEAR(covered_count(fb) / expected, 1.0, 0.01) << static_cast<int>(v);
    // Outside the projected bounds: background, untouched.
    EXPECT_FALSE(fb.covered(10, 10));
    EXPECT_EQ(fb.color[10 * 320 + 10], Vec3(1, 1, 1));
    EXPECT_FALSE(fb.covered(160 + 125, 150));
    EXPECT_TRUE(fb.covered(160 + 115, 150));
  }
}

TEST(Rasterizer, LambertShadingOfCubeFacesMatchesHandComputation) {
  const TriangleMesh cube = unit_cube();
  Lighting light;
  light.to_light = {0.0, 0.6, 0.8};  // unit already
  light.ambient = 0.2;
  light.diffuse = 0.8;
  light.two_sided = false;
  const Vec3 base{0.5, 0.25, 1.0};
  // Looking down from a 45 degree elevation would need a general camera; the
  // front view sees only the +Z side, whose normal is the view direction.
  Framebuffer fb(100, 100, {0, 0, 0});
  const OrthoCamera cam = make_camera(View::front, {}, 50, 100, 100);
  draw_mesh(fb, cam, {&cube, base, {}}, light);
  const double expected_shade = 0.2 + 0.8 * 0.8;  // n = +Z, l.z = 0.8
  const Vec3 c = fb.color[50 * 100 + 50];
  EXPECT_NEAR(c.x, base.x * expected_shade, 1e-9);
  EXPECT_NEAR(c.y, base.y * expected_shade, 1e-9);
  EXPECT_NEAR(c.z, base.z * expected_shade, 1e-9);
  // The cube covers exactly 50 x 50 pixels.
  EXPECT_EQ(covered_count(fb), 2500u);
  // One-sided: a face pointing away from the light gets ambient only.
  EXPECT_NEAR(lambert({0, -1, 0}, cam, light), 0.2, 1e-12);
  light.two_sided = true;
  EXPECT_NEAR(lambert({0, -1, 0}, cam, light), 0.2 + 0.8 * 0.6, 1e-12);
}

TEST(Rasterizer, NearerSurfaceWinsWhateverTheDrawOrder) {
  const TriangleMesh body = quad(-1, -1, 1, 1, 0.0);
  const TriangleMesh garment = quad(-0.5, -0.5, 0.5, 0.5, 0.1);  // in front (+Z)
  const Vec3 skin{0.9, 0.7, 0.6}, cloth{0.1, 0.2, 0.9};
  Lighting flat;
  flat.ambient = 1.0;
  flat.diffuse = 0.0;
  for (bool garment_first : {false, true}) {
    Framebuffer fb(100, 100, {1, 1, 1});
    const OrthoCamera cam = make_camera(View::front, {}, 40, 100, 100);
    const RenderItem b{&body, skin, {}}, g{&garment, cloth, {}};
    if (garment_first) {
      draw_mesh(fb, cam, g, flat);
      draw_mesh(fb, cam, b, flat);
    } else {
      draw_mesh(fb, cam, b, flat);
      draw_mesh(fb, cam, g, flat);
    }
    EXPECT_EQ(fb.color[50 * 100 + 50], cloth) << garment_first;  // centre: garment
    EXPECT_EQ(fb.color[50 * 100 + 15], skin) << garment_first;   // x = -0.875 m: body only
    // Seen from the back the body hides the garment.
    Framebuffer back(100, 100, {1, 1, 1});
    const OrthoCamera bc = make_camera(View::back, {}, 40, 100, 100);
    draw_mesh(back, bc, g, flat);
    draw_mesh(back, bc, b, flat);
    EXPECT_EQ(back.color[50 * 100 + 50], skin);
  }
}

TEST(Rasterizer, VertexColoursAreInterpolated) {
  const TriangleMesh q = quad(-1, -1, 1, 1, 0.0);
  const std::vector<Vec3> colors{{0, 0, 0}, {1, 0, 0}, {1, 0, 0}, {0, 0, 0}};  // red grows with x
  Lighting flat;
  flat.ambient = 1.0;
  flat.diffuse = 0.0;
  Framebuffer fb(100, 100, {1, 1, 1});
  draw_mesh(fb, make_camera(View::front, {}, 50, 100, 100), {&q, {}, colors}, flat);
  // Pixel column 50 has its centre at x = 0.5/50 m: red = (x + 1) / 2.
  EXPECT_NEAR(fb.color[50 * 100 + 50].x, (0.01 + 1) / 2, 1e-9);
  EXPECT_NEAR(fb.color[50 * 100 + 74].x, (0.49 + 1) / 2, 1e-9);
  const std::vector<Vec3> wrong(3);
  EXPECT_THROW(draw_mesh(fb, make_camera(View::front, {}, 50, 100, 100), {&q, {}, wrong}, flat),
               InvalidInput);
}

TEST(Rasterizer, FarAndNonFiniteVerticesAreSkippedSafely) {
  TriangleMesh m = quad(-1, -1, 1, 1, 0.0);
  m.positions.push_back({1e300, -1e300, 0});
  m.positions.push_back({std::nan(""), 0, 0});
  m.faces.push_back({0, 4, 1});
  m.faces.push_back({0, 5, 1});
  Framebuffer fb(100, 100, {1, 1, 1});
  draw_mesh(fb, make_camera(View::front, {}, 40, 100, 100), {&m, {0.5, 0.5, 0.5}, {}}, Lighting{});
  EXPECT_TRUE(fb.covered(50, 50));
  EXPECT_FALSE(fb.covered(2, 2));
}

TEST(Rasterizer, ReferenceBodyFrontViewIsLeftRightSymmetric) {
  const TriangleMesh body = test::load_reference_body();
  const Aabb b = body.bounds();
  const int w = 200, h = 400;
  const std::array<View, 1> v{View::front};
  const double s = fit_scale(b, v, w, h, 0.05);
  // Centre on x = 0 (MakeHuman's mirror plane), not the bounds' centre.
  const OrthoCamera cam = make_camera(View::front, {0, b.center().y, b.center().z}, s, w, h);
  Framebuffer fb(w, h, {1, 1, 1});
  draw_mesh(fb, cam, {&body, {0.8, 0.7, 0.6}, {}}, Lighting{});
  std::size_t both = 0, either = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const bool a = fb.covered(x, y), m = fb.covered(w - 1 - x, y);
      both += a && m;
      either += a || m;
    }
  EXPECT_GT(either, 10000u);  // the body fills a good part of the frame
  EXPECT_GT(static_cast<double>(both) / either, 0.97);
  // The body's height on screen is its height in metres times the scale.
  int top = h, bottom = -1;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      if (fb.covered(x, y)) {
        top = std::min(top, y);
        bottom = std::max(bottom, y);
      }
  EXPECT_NEAR(bottom - top + 1, b.extent().y * s, 2);
}

TEST(Rasterizer, ResultDoesNotDependOnThreadCount) {
  const TriangleMesh body = test::load_reference_body();
  const Aabb b = body.bounds();
  const OrthoCamera cam = make_camera(View::side, b.center(), 300, 240, 520);
  Framebuffer one(240, 520, {1, 1, 1}), four(240, 520, {1, 1, 1});
  draw_mesh(one, cam, {&body, {0.8, 0.7, 0.6}, {}}, Lighting{}, Executor(1));
  draw_mesh(four, cam, {&body, {0.8, 0.7, 0.6}, {}}, Lighting{}, Executor(4));
  EXPECT_EQ(one.color, four.color);
  EXPECT_EQ(one.depth, four.depth);
}

bool is_garment(Rgb8 c) { return c.r > c.g + 20 && c.b > c.g + 40; }  // purple
bool is_skin(Rgb8 c) { return c.r > c.g + 20 && c.g > c.b + 10; }

TEST(RenderViews, FourPanelsShowBodyGarmentAndStrain) {
  const TriangleMesh body = test::load_reference_body();
  const test::ShirtLike shirt = test::make_shirt_like(body);
  ASSERT_GT(shirt.mesh.face_count(), 500u);
  RenderOptions o;
  o.panel_width = 150;
  o.panel_height = 300;
  o.supersample = 2;
  const Image img = render_views(body, shirt.mesh, shirt.strain, o);
  ASSERT_EQ(img.height, 36 + 300);
  ASSERT_GT(img.width, 4 * 150);
  const Aabb bb = body.bounds();
  const std::array<View, 3> views{View::front, View::side, View::back};
  const double s = fit_scale(bb, views, 150, 300, o.margin);
  // Chest height (y = 0.35 m) on screen, in the figure's middle column.
  const int chest_y = 36 + static_cast<int>(150 - (0.35 - bb.center().y) * s);
  EXPECT_TRUE(is_garment(img.at(75, chest_y))) << "front";
  EXPECT_TRUE(is_garment(img.at(150 + 75, chest_y))) << "side";
  EXPECT_TRUE(is_garment(img.at(300 + 75, chest_y))) << "back";
  // The strain panel's chest is coloured by the ramp, not the plain garment colour.
  const Rgb8 sc = img.at(450 + 75, chest_y);
  EXPECT_FALSE(is_garment(sc));
  EXPECT_GT(std::max({sc.r, sc.g, sc.b}) - std::min({sc.r, sc.g, sc.b}), 60);  // saturated
  // Head (not covered by the shirt) is skin in the shaded views.
  const int head_y = 36 + static_cast<int>(150 - (0.75 - bb.center().y) * s);
  EXPECT_TRUE(is_skin(img.at(75, head_y)));
  // Corners are background.
  EXPECT_EQ(img.at(5, img.height - 5), (Rgb8{255, 255, 255}));
  EXPECT_EQ(img.at(150 + 5, img.height - 5), (Rgb8{255, 255, 255}));
  // The legend ramp: its top row is the maximum's colour, its bottom the minimum's.
  const StrainRange r = auto_strain_range(shirt.strain);
  const int lx = 4 * 150 + 14 + 10;
  const int top = 36 + 300 / 8, bottom = 36 + 300 * 7 / 8 - 1;
  const Rgb8 hi = to_rgb8(strain_color(r.max, r)), lo = to_rgb8(strain_color(r.min, r));
  EXPECT_NEAR(img.at(lx, top).r, hi.r, 3);
  EXPECT_NEAR(img.at(lx, top).b, hi.b, 3);
  EXPECT_NEAR(img.at(lx, bottom).r, lo.r, 3);
  EXPECT_NEAR(img.at(lx, bottom).b, lo.b, 3);
  // Deterministic.
  EXPECT_EQ(render_views(body, shirt.mesh, shirt.strain, o).pixels, img.pixels);
}

TEST(RenderViews, RejectsBadInput) {
  const TriangleMesh body = test::load_reference_body();
  const TriangleMesh empty;
  const std::vector<double> wrong(3, 0.0);
  EXPECT_THROW(render_views(empty, empty, {}), InvalidInput);
  EXPECT_THROW(render_views(body, body, wrong), InvalidInput);
  RenderOptions o;
  o.supersample = 0;
  EXPECT_THROW(render_views(body, empty, {}, o), InvalidInput);
  TriangleMesh broken = body;
  broken.positions[7].y = std::nan("");
  EXPECT_THROW(render_views(broken, empty, {}), InvalidInput);
  // Body alone is fine.
  o.supersample = 1;
  o.panel_width = 40;
  o.panel_height = 80;
  EXPECT_NO_THROW(render_views(body, empty, {}, o));
}

TEST(Png, RoundTripIsExactAndBadFilesThrow) {
  Image img(7, 5, {10, 20, 30});
  img.set(6, 4, {255, 0, 128});
  img.set(0, 0, {1, 2, 3});
  const auto dir = drape::test::test_temp_dir() / "drape_render_test";
  std::filesystem::create_directories(dir);
  const auto path = dir / "round.png";
  write_png(path, img);
  // Read back through stb directly, not our reader.
  int w = 0, h = 0, n = 0;
  unsigned char* data = stbi_load(path.c_str(), &w, &h, &n, 3);
  ASSERT_NE(data, nullptr);
  EXPECT_EQ(w, 7);
  EXPECT_EQ(h, 5);
  EXPECT_TRUE(std::equal(img.pixels.begin(), img.pixels.end(), data));
  stbi_image_free(data);
  EXPECT_EQ(read_png(path).pixels, img.pixels);
  const auto bad = dir / "bad.png";
  std::filesystem::remove(bad);
  { std::ofstream(bad) << "not a png"; }
  try {
    read_png(bad);
    FAIL() << "no exception";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.png"), std::string::npos);
  }
  EXPECT_THROW(write_png(dir / "empty.png", Image{}), InvalidInput);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace drape
