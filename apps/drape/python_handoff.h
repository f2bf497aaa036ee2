#pragma once
// Commands whose engine is Python (`drape batch`, `drape dataset`): the C++ CLI
// replaces itself with `python3 -m MODULE ARGS...` (same arguments, same exit
// codes), with the package of this build on PYTHONPATH and this executable
// passed as `--drape PATH`, the CLI the Python side runs. docs/BATCH.md.

#include <unistd.h>

#include <CLI/CLI.hpp>
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

/// Execs `python3 -m <module> --drape SELF [--threads N] ARGS...` (`module` is e.g.
/// "drape.batch", `package_dir` its folder under the package, e.g. "drape/batch");
/// returns only on failure (kInternalError, with a message naming `command`).
inline int exec_python_module(CLI::App& app, const std::string& command, const std::string& module,
                              const std::string& package_dir, bool pass_threads) {
  // $DRAPE_PYTHON / $DRAPE_PYTHONPATH override the build's (e.g. an installed copy).
  const char* python_env = std::getenv("DRAPE_PYTHON");
  const char* dir_env = std::getenv("DRAPE_PYTHONPATH");
  const std::string python = python_env && *python_env ? python_env : DRAPE_PYTHON_EXECUTABLE;
  const std::string dir = dir_env && *dir_env ? dir_env : DRAPE_PYTHON_DIR;
  if (python.empty() || dir.empty() || !std::filesystem::exists(std::filesystem::path(dir) / package_dir)) {
    std::cerr
        << "drape " << command << ": error: the Python package " << module
        << " is not built (it needs python3-dev and pybind11-dev: run scripts/setup, then scripts/build; "
           "or set DRAPE_PYTHON and DRAPE_PYTHONPATH)\n";
    return kInternalError;
  }
  std::vector<std::string> args{python, "-m", module};
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) args.insert(args.end(), {"--drape", self.string()});
  // `drape --threads N batch ...`: N threads per job (a later --threads in ARGS wins).
  if (const CLI::Option* threads = app.get_parent()->get_option("--threads");
      pass_threads && threads->count() > 0)
    args.insert(args.end(), {"--threads", threads->as<std::string>()});
  for (const std::string& a : app.remaining()) args.push_back(a);

  std::string path = dir;
  if (const char* old = std::getenv("PYTHONPATH"); old && *old) path += ":" + std::string(old);
  ::setenv("PYTHONPATH", path.c_str(), 1);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  ::execv(python.c_str(), argv.data());
  std::cerr << "drape " << command << ": error: cannot run " << python << ": " << std::strerror(errno)
            << "\n";
  return kInternalError;
}

}  // namespace drape::cli
