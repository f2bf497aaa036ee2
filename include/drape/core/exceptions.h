#pragma once
// Typed exceptions thrown at I/O and API boundaries.
//
// The CLI maps them to exit codes: InvalidInput and IoError -> 2,
// SolverError -> 3, Interrupted -> 130, anything else -> 1 (see apps/drape/main.cpp).

#include <stdexcept>
#include <string>

namespace drape {

/// Base of every drape exception.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Input data is malformed or out of range (a file, an argument, a mesh).
/// The message names the source (file, and line or element when known) and
/// what is wrong.
class InvalidInput : public Error {
 public:
  explicit InvalidInput(const std::string& what) : Error(what) {}
  /// "<source>:<line>: <what>" (line omitted when 0), e.g. "base.obj:12: face index 99 out of range".
  InvalidInput(const std::string& source, std::size_t line, const std::string& what)
      : Error(source + (line ? ":" + std::to_string(line) : std::string()) + ": " + what) {}
};

/// A file cannot be opened, read or written.
class IoError : public Error {
 public:
  explicit IoError(const std::string& what) : Error(what) {}
};

/// A simulation or numerical solve failed (divergence, NaN, no convergence).
class SolverError : public Error {
 public:
  explicit SolverError(const std::string& what) : Error(what) {}
};

/// A long run was stopped on request (SIGINT/SIGTERM); the message says
/// where its last checkpoint is. The CLI exits with 130.
class Interrupted : public Error {
 public:
  explicit Interrupted(const std::string& what) : Error(what) {}
};

}  // namespace drape
