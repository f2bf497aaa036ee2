// `drape view DIR|FILE.glb [--port P]`: serves the three.js viewer (viewer/ of the
// source tree) and DIR's results on 127.0.0.1 and prints the address.

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <memory>

#include "command_registry.h"
#include "default_paths.h"
#include "drape/core/exceptions.h"
#include "drape/render/static_server.h"

namespace drape::cli {
namespace {

namespace fs = std::filesystem;

struct ViewOptions {
  std::string dir = ".";
  int port = -1;  ///< -1: 8017 when free, else any free port
  std::string viewer;
  std::string file;
};

/// The viewer folder: --viewer, else $DRAPE_VIEWER_DIR, else <repo>/viewer
/// beside the data folder (DRAPE_DATA_DIR is "<repo>/data").
fs::path viewer_dir(const std::string& given) {
  if (!given.empty()) return given;
  if (const char* env = std::getenv("DRAPE_VIEWER_DIR"); env && *env) return env;
  fs::path data = fs::path(data_dir()).lexically_normal();
  if (!data.has_filename()) data = data.parent_path();  // "<repo>/data/" -> "<repo>/data"
  return data.parent_path() / "viewer";
}

StaticServer* g_server = nullptr;
extern "C" void on_signal(int) {
  if (g_server) g_server->stop();
}

int run_view(const ViewOptions& o) {
  fs::path dir = o.dir;
  std::string file = o.file;
  // A scene file given instead of a folder: serve its folder, open it.
  if (fs::is_regular_file(dir) && file.empty()) {
    file = dir.filename().string();
    dir = dir.has_parent_path() ? dir.parent_path() : fs::path(".");
  }
  if (!fs::is_directory(dir)) throw InvalidInput(o.dir + ": not a folder or a scene file");
  const fs::path viewer = viewer_dir(o.viewer);
  if (!fs::is_regular_file(viewer / "index.html"))
    throw InvalidInput(viewer.string() + ": no viewer here (index.html missing); pass --viewer DIR");
  if (!fs::is_regular_file(viewer / "node_modules/three/build/three.module.js"))
    std::cerr << "drape view: warning: three.js is not installed; run `npm ci` in " << viewer.string()
              << "\n";

  // The scene to open: --file, else scene.glb, else the first .glb/.gltf in DIR.
  if (file.empty() && fs::is_regular_file(dir / "scene.glb")) file = "scene.glb";
  if (file.empty()) {
    std::vector<std::string> found;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.is_regular_file() && (e.path().extension() == ".glb" || e.path().extension() == ".gltf"))
        found.push_back(e.path().filename().string());
    std::sort(found.begin(), found.end());
    if (!found.empty()) file = found.front();
  }

  const std::vector<StaticRoute> routes{{"/results/", dir}, {"/", viewer}};
  std::unique_ptr<StaticServer> owned;
  if (o.port >= 0) {
    owned = std::make_unique<StaticServer>(routes, o.port);
  } else {
    try {
      owned = std::make_unique<StaticServer>(routes, 8017);
    } catch (const IoError&) {
      owned = std::make_unique<StaticServer>(routes, 0);  // 8017 taken: any free port
    }
  }
  StaticServer& server = *owned;
  const std::string base = "http://127.0.0.1:" + std::to_string(server.port()) + "/";
  std::cout << "drape view: serving " << fs::absolute(dir).lexically_normal().string() << "\n"
            << (file.empty() ? base : base + "?file=results/" + file) << "\n"
            << (file.empty() ? "(no .glb in the folder: drop one on the page)\n" : "")
            << "Press Ctrl-C to stop.\n"
            << std::flush;
  g_server = &server;
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  server.serve();
  g_server = nullptr;
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  return kOk;
}

const CommandRegistrar reg_view{
    "view", "Serve the 3D viewer and a results folder on localhost", [](CLI::App& app) {
      auto o = std::make_shared<ViewOptions>();
      app.add_option("dir", o->dir, "Results folder (scene.glb, render.png, ...) or a .glb file; default: .");
      app.add_option("--port", o->port, "Port on 127.0.0.1 (0 = any free port; default 8017 or a free one)")
          ->check(CLI::Range(0, 65535));
      app.add_option("--file", o->file, "Scene file in DIR to open (default: scene.glb)");
      app.add_option("--viewer", o->viewer, "Viewer folder (default: the source tree's viewer/)");
      return [o] { return run_view(*o); };
    }};

}  // namespace
}  // namespace drape::cli
