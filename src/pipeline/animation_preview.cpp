#include "animation_preview.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "drape/render/contact_sheet.h"
#include "drape/render/image.h"
#include "drape/render/render_views.h"

extern char** environ;

namespace drape {

namespace fs = std::filesystem;

namespace {

// `name` itself when it holds a '/', else the first executable PATH entry
// named so; "" when there is none.
std::string find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return ::access(name.c_str(), X_OK) == 0 ? name : "";
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const fs::path p = fs::path(dir.empty() ? "." : dir) / name;
    if (::access(p.c_str(), X_OK) == 0) return p.string();
  }
  return "";
}

// Runs `argv` with stdin, stdout and stderr on /dev/null; its exit status, or -1.
int run_quietly(const std::vector<std::string>& argv) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  for (int fd : {0, 1, 2})
    posix_spawn_file_actions_addopen(&fa, fd, "/dev/null", fd ? O_WRONLY : O_RDONLY, 0);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int err = posix_spawn(&pid, argv[0].c_str(), &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (err != 0) return -1;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

std::string write_preview_mp4(const AnimationResult& result, const AnimationCaches& caches,
                              const fs::path& mp4, double fps, const std::string& ffmpeg,
                              const Executor& executor) {
  const std::string program = find_program(ffmpeg);
  if (program.empty()) return "skipped: " + ffmpeg + " not found (install Debian's ffmpeg for preview.mp4)";
  const DressResult& d = result.dress;
  // One scale for every frame: the bounds of all of them.
  Aabb bounds;
  for (std::size_t k = 0; k < caches.garment.size(); ++k)
    for (const auto* frame : {&caches.body[k], &caches.garment[k]})
      for (const Vec3& v : *frame) bounds.expand(v);
  const fs::path frames_dir = mp4.parent_path() / ".preview_frames";
  std::error_code ec;
  fs::remove_all(frames_dir, ec);
  fs::create_directories(frames_dir, ec);
  ContactSheetOptions so;  // one cell per image: the label strip and the status marker
  so.cell_width = 360;
  so.cell_height = 600;
  so.columns = 1;
  TriangleMesh body = d.body, garment = d.drape.mesh;
  for (std::size_t k = 0; k < caches.garment.size(); ++k) {
    body.positions = caches.body[k];
    garment.positions = caches.garment[k];
    const ContactCell cell = frame_cell(body, garment, bounds, result.frames[k], so, executor);
    char name[32];
    std::snprintf(name, sizeof name, "%06zu.png", k);
    write_png(frames_dir / name, contact_sheet(std::span<const ContactCell>(&cell, 1), so));
  }
  char rate[32];
  std::snprintf(rate, sizeof rate, "%.6g", fps);
  const int status = run_quietly({program, "-nostdin", "-y", "-loglevel", "error", "-framerate", rate, "-i",
                                  (frames_dir / "%06d.png").string(), "-c:v", "libx264", "-pix_fmt",
                                  "yuv420p", "-movflags", "+faststart", mp4.string()});
  fs::remove_all(frames_dir, ec);
  if (status != 0) {
    fs::remove(mp4, ec);
    return "skipped: " + program + " failed (exit status " + std::to_string(status) + ")";
  }
  return "";
}

}  // namespace drape
