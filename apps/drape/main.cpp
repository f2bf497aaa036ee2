// drape: sewing patterns in, draped garments out.

#include <algorithm>
#include <iostream>
#include <map>

#include "command_registry.h"
#include "drape/core/exceptions.h"
#include "drape/core/executor.h"

namespace drape::cli {
std::vector<CommandInfo>& command_registry() {
  static std::vector<CommandInfo> registry;
  return registry;
}
}  // namespace drape::cli

namespace {
// Errors are one line on stderr: libraries' multi-line messages are folded.
std::string one_line(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  for (std::size_t p; (p = s.find('\n')) != std::string::npos;) s.replace(p, 1, "; ");
  return s;
}
}  // namespace

int main(int argc, char** argv) {
  using namespace drape::cli;
  CLI::App app{
      "drape: turns 2D sewing patterns into garments sewn and draped on a 3D body.\n"
      "Exit codes: 0 done, 1 internal error, 2 bad input, 3 simulation failed\n"
      "(diverged, or no equilibrium with --strict), 130 interrupted (SIGINT/SIGTERM;\n"
      "dress/demo save a checkpoint: continue with --resume)."};
  app.require_subcommand(1);
  app.set_version_flag("--version", "drape " DRAPE_VERSION);
  int threads = 0;
  app.add_option("--threads", threads, "Worker threads (0 = all cores, 1 = sequential)")
      ->check(CLI::NonNegativeNumber);

  // Registration order depends on static initialisation; sort for a stable --help.
  auto& registry = command_registry();
  std::sort(registry.begin(), registry.end(),
            [](const CommandInfo& a, const CommandInfo& b) { return a.name < b.name; });
  std::map<CLI::App*, std::function<int()>> actions;
  // A name with a space ("bench bvh") nests under its parent ("bench").
  std::map<std::string, CLI::App*> groups;
  for (const CommandInfo& info : registry) {
    CLI::App* parent = &app;
    std::string name = info.name;
    if (const auto space = name.find(' '); space != std::string::npos) {
      const std::string group = name.substr(0, space);
      name = name.substr(space + 1);
      auto& g = groups[group];
      if (!g) {
        g = app.add_subcommand(group, group + " commands");
        g->require_subcommand(1);
      }
      parent = g;
    }
    CLI::App* sub = parent->add_subcommand(name, info.description);
    actions[sub] = info.setup(*sub);
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? kOk : kBadInput;
  }

  try {
    drape::Executor::set_global_threads(threads);
    for (auto& [sub, action] : actions)
      if (sub->parsed()) return action();
    return kInternalError;
  } catch (const drape::InvalidInput& e) {
    std::cerr << "drape: error: " << one_line(e.what()) << "\n";
    return kBadInput;
  } catch (const drape::IoError& e) {
    std::cerr << "drape: error: " << one_line(e.what()) << "\n";
    return kBadInput;
  } catch (const drape::Interrupted& e) {
    std::cerr << "drape: " << one_line(e.what()) << "\n";
    return kInterrupted;
  } catch (const drape::SolverError& e) {
    std::cerr << "drape: simulation failed: " << one_line(e.what()) << "\n";
    return kSimulationFailed;
  } catch (const std::exception& e) {
    std::cerr << "drape: internal error: " << one_line(e.what()) << "\n";
    return kInternalError;
  }
}
