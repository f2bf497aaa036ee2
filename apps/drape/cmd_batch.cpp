// `drape batch JOBS --out DIR ...`: many `drape dress` jobs from a JSON Lines
// manifest, resumable, on a local pool or a Dask cluster. The batch engine is
// Python (python/drape/batch/, because Dask is): this command replaces itself
// with `python3 -m drape.batch ARGS...` (same arguments, same exit codes), with
// the package of this build on PYTHONPATH and this executable as the CLI the
// jobs run. docs/BATCH.md.

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "command_registry.h"

#ifndef DRAPE_PYTHON_EXECUTABLE
#define DRAPE_PYTHON_EXECUTABLE ""
#endif
#ifndef DRAPE_PYTHON_DIR
#define DRAPE_PYTHON_DIR ""
#endif

namespace drape::cli {
namespace {

int run_batch(CLI::App& app) {
  // $DRAPE_PYTHON / $DRAPE_PYTHONPATH override the build's (e.g. an installed copy).
  const char* python_env = std::getenv("DRAPE_PYTHON");
  const char* dir_env = std::getenv("DRAPE_PYTHONPATH");
  const std::string python = python_env && *python_env ? python_env : DRAPE_PYTHON_EXECUTABLE;
  const std::string dir = dir_env && *dir_env ? dir_env : DRAPE_PYTHON_DIR;
  if (python.empty() || dir.empty() ||
      !std::filesystem::exists(std::filesystem::path(dir) / "drape" / "batch")) {
    std::cerr
        << "drape batch: error: the Python package drape.batch is not built (it needs python3-dev and "
           "pybind11-dev: run scripts/setup, then scripts/build; or set DRAPE_PYTHON and DRAPE_PYTHONPATH)\n";
    return kInternalError;
  }
  std::vector<std::string> args{python, "-m", "drape.batch"};
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) args.insert(args.end(), {"--drape", self.string()});
  // `drape --threads N batch ...`: N threads per job (a later --threads in ARGS wins).
  if (const CLI::Option* threads = app.get_parent()->get_option("--threads"); threads->count() > 0)
    args.insert(args.end(), {"--threads", threads->as<std::string>()});
  for (const std::string& a : app.remaining()) args.push_back(a);

  std::string path = dir;
  if (const char* old = std::getenv("PYTHONPATH"); old && *old) path += ":" + std::string(old);
  ::setenv("PYTHONPATH", path.c_str(), 1);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  ::execv(python.c_str(), argv.data());
  std::cerr << "drape batch: error: cannot run " << python << ": " << std::strerror(errno) << "\n";
  return kInternalError;
}

const CommandRegistrar reg{
    "batch",
    "Run a JSON Lines manifest of dress jobs into OUT/<id>/ (resumable; local pool or Dask): "
    "`drape batch --help` for the options",
    [](CLI::App& app) {
      // Every argument after `batch` goes to the Python engine as is (its --help too).
      app.prefix_command();
      app.set_help_flag();
      return [&app] { return run_batch(app); };
    }};

}  // namespace
}  // namespace drape::cli
