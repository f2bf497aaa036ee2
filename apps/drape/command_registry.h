#pragma once
// Subcommands register themselves here, each from its own cmd_*.cpp file, so
// adding a command never touches main.cpp:
//
//   static drape::cli::CommandRegistrar reg{"check", "Score a garment", [](CLI::App& app) {
//     auto opts = std::make_shared<Options>(); ...
//     return [opts] { return run(*opts); };   // returns the exit code
//   }};

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace drape::cli {

/// Exit codes documented in `drape --help`.
enum ExitCode : int { kOk = 0, kInternalError = 1, kBadInput = 2, kSimulationFailed = 3, kInterrupted = 130 };

/// Configures a subcommand's options and returns the action that runs it.
using CommandSetup = std::function<std::function<int()>(CLI::App&)>;

struct CommandInfo {
  std::string name;
  std::string description;
  CommandSetup setup;
};

std::vector<CommandInfo>& command_registry();

struct CommandRegistrar {
  CommandRegistrar(std::string name, std::string description, CommandSetup setup) {
    command_registry().push_back({std::move(name), std::move(description), std::move(setup)});
  }
};

}  // namespace drape::cli
