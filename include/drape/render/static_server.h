#pragma once
// A tiny HTTP/1.0 file server on 127.0.0.1 for `drape view`: serves the
// viewer page and a results folder to a local browser. GET and HEAD only;
// a request never reaches a file outside its route's folder (".." segments,
// encoded or not, are refused; symbolic links leading out are refused).

#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace drape {

/// URL paths starting with `prefix` (e.g. "/results/") map to files under `dir`.
struct StaticRoute {
  std::string prefix;
  std::filesystem::path dir;
};

/// Outcome of mapping a request path onto the routes.
struct ResolvedPath {
  int status = 404;            ///< 200, 400, 403 or 404
  std::filesystem::path file;  ///< the file to send when status is 200
};

/// Maps a request target (path, optionally with ?query) onto `routes` (first
/// matching prefix wins; a path ending in '/' means its index.html).
/// Percent-escapes are decoded first; a ".." segment or a NUL gives 403/400;
/// a file that resolves (through links) outside the route's folder gives 403;
/// a missing file or a folder gives 404.
ResolvedPath resolve_request(const std::vector<StaticRoute>& routes, const std::string& target);

/// Content-Type for a file name by its extension (application/octet-stream when unknown).
std::string content_type_for(const std::filesystem::path& file);

class StaticServer {
 public:
  /// Binds 127.0.0.1:`port` (0 = any free port) and listens.
  /// \throw IoError when the socket cannot be bound (e.g. the port is taken).
  explicit StaticServer(std::vector<StaticRoute> routes, int port = 0);
  /// Stops and waits for open connections to finish.
  ~StaticServer();
  StaticServer(const StaticServer&) = delete;
  StaticServer& operator=(const StaticServer&) = delete;

  /// The bound port.
  int port() const { return port_; }
  /// Accepts and answers requests (one thread per connection) until stop().
  void serve();
  /// Makes serve() return. Async-signal-safe (one write to a pipe), so a
  /// SIGINT handler may call it.
  void stop() noexcept;

 private:
  void handle(int fd) const;

  std::vector<StaticRoute> routes_;
  int listen_fd_ = -1;
  int wake_pipe_[2] = {-1, -1};
  int port_ = 0;
  mutable std::mutex mutex_;
  mutable std::condition_variable idle_;
  mutable int active_ = 0;
};

}  // namespace drape
