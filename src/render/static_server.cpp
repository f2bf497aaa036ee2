#include "drape/render/static_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <thread>

#include "drape/core/exceptions.h"

namespace drape {

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// Decodes %XX escapes; nullopt on a malformed escape.
std::optional<std::string> percent_decode(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    if (i + 2 >= s.size()) return std::nullopt;
    const int hi = hex_value(s[i + 1]), lo = hex_value(s[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return out;
}

bool send_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

void send_status(int fd, int status, const char* reason) {
  const std::string body = std::to_string(status) + " " + reason + "\n";
  const std::string head = "HTTP/1.0 " + std::to_string(status) + " " + reason +
                           "\r\nContent-Type: text/plain\r\nContent-Length: " + std::to_string(body.size()) +
                           "\r\nConnection: close\r\n\r\n";
  send_all(fd, head.data(), head.size()) && send_all(fd, body.data(), body.size());
}

}  // namespace

std::string content_type_for(const std::filesystem::path& file) {
  static const std::map<std::string, std::string> types{{".html", "text/html; charset=utf-8"},
                                                        {".js", "text/javascript; charset=utf-8"},
                                                        {".mjs", "text/javascript; charset=utf-8"},
                                                        {".css", "text/css"},
                                                        {".json", "application/json"},
                                                        {".glb", "model/gltf-binary"},
                                                        {".gltf", "model/gltf+json"},
                                                        {".png", "image/png"},
                                                        {".obj", "text/plain; charset=utf-8"},
                                                        {".txt", "text/plain; charset=utf-8"},
                                                        {".wasm", "application/wasm"}};
  const auto it = types.find(file.extension().string());
  return it == types.end() ? "application/octet-stream" : it->second;
}

ResolvedPath resolve_request(const std::vector<StaticRoute>& routes, const std::string& target) {
  namespace fs = std::filesystem;
  std::string raw = target.substr(0, target.find_first_of("?#"));
  const auto path = percent_decode(raw);
  if (!path || path->empty() || (*path)[0] != '/' || path->find('\0') != std::string::npos) return {400, {}};
  // Refuse any ".." segment (also "\" separated, in case of odd clients).
  std::string segment;
  for (std::size_t i = 0; i <= path->size(); ++i) {
    if (i == path->size() || (*path)[i] == '/' || (*path)[i] == '\\') {
      if (segment == "..") return {403, {}};
      segment.clear();
    } else {
      segment += (*path)[i];
    }
  }
  for (const StaticRoute& r : routes) {
    if (path->rfind(r.prefix, 0) != 0) continue;
    std::string rel = path->substr(r.prefix.size());
    if (rel.empty() || rel.back() == '/') rel += "index.html";
    std::error_code ec;
    const fs::path root = fs::canonical(r.dir, ec);
    if (ec) return {404, {}};
    const fs::path file = fs::weakly_canonical(root / fs::path(rel).relative_path(), ec);
    if (ec) return {404, {}};
    // Links may point elsewhere: the real file must stay under the real root.
    const auto [rootEnd, fileIt] = std::mismatch(root.begin(), root.end(), file.begin(), file.end());
    if (rootEnd != root.end()) return {403, {}};
    if (!fs::is_regular_file(file, ec)) return {404, {}};
    return {200, file};
  }
  return {404, {}};
}

StaticServer::StaticServer(std::vector<StaticRoute> routes, int port) : routes_(std::move(routes)) {
  if (port < 0 || port > 65535) throw InvalidInput("port " + std::to_string(port) + " out of range");
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) throw IoError(std::string("socket: ") + std::strerror(errno));
  const int one = 1;
  ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);  // local only
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) < 0 ||
      ::listen(listen_fd_, 64) < 0) {
    const std::string why = std::strerror(errno);
    ::close(listen_fd_);
    throw IoError("cannot listen on 127.0.0.1:" + std::to_string(port) + ": " + why);
  }
  socklen_t len = sizeof addr;
  ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  if (::pipe2(wake_pipe_, O_CLOEXEC) < 0) {
    ::close(listen_fd_);
    throw IoError(std::string("pipe: ") + std::strerror(errno));
  }
}

StaticServer::~StaticServer() {
  stop();
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [this] { return active_ == 0; });
  ::close(listen_fd_);
  ::close(wake_pipe_[0]);
  ::close(wake_pipe_[1]);
}

void StaticServer::stop() noexcept {
  const char c = 1;
  [[maybe_unused]] const ssize_t n = ::write(wake_pipe_[1], &c, 1);
}

void StaticServer::serve() {
  for (;;) {
    pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {wake_pipe_[0], POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      throw IoError(std::string("poll: ") + std::strerror(errno));
    }
    if (fds[1].revents) return;  // stop() was called; the byte stays so later serve() calls return too
    if (!(fds[0].revents & POLLIN)) continue;
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    {
      std::lock_guard lock(mutex_);
      ++active_;
    }
    // One thread per connection: a browser's idle preconnects must not block others.
    std::thread([this, fd] {
      handle(fd);
      ::close(fd);
      std::lock_guard lock(mutex_);
      if (--active_ == 0) idle_.notify_all();
    }).detach();
  }
}

void StaticServer::handle(int fd) const {
  timeval timeout{5, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
  std::string request;
  char buf[4096];
  while (request.find("\r\n\r\n") == std::string::npos && request.find("\n\n") == std::string::npos) {
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    request.append(buf, static_cast<std::size_t>(n));
    if (request.size() > 16384) return send_status(fd, 431, "Request Header Fields Too Large");
  }
  const std::size_t sp1 = request.find(' ');
  const std::size_t sp2 = sp1 == std::string::npos ? sp1 : request.find_first_of(" \r\n", sp1 + 1);
  if (sp2 == std::string::npos) return send_status(fd, 400, "Bad Request");
  const std::string method = request.substr(0, sp1), target = request.substr(sp1 + 1, sp2 - sp1 - 1);
  if (method != "GET" && method != "HEAD") return send_status(fd, 405, "Method Not Allowed");
  const ResolvedPath r = resolve_request(routes_, target);
  if (r.status == 400) return send_status(fd, 400, "Bad Request");
  if (r.status == 403) return send_status(fd, 403, "Forbidden");
  if (r.status != 200) return send_status(fd, 404, "Not Found");
  std::ifstream in(r.file, std::ios::binary);
  if (!in) return send_status(fd, 404, "Not Found");
  std::error_code ec;
  const auto size = std::filesystem::file_size(r.file, ec);
  if (ec) return send_status(fd, 404, "Not Found");
  const std::string head = "HTTP/1.0 200 OK\r\nContent-Type: " + content_type_for(r.file) +
                           "\r\nContent-Length: " + std::to_string(size) +
                           "\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n";
  if (!send_all(fd, head.data(), head.size()) || method == "HEAD") return;
  while (in) {
    in.read(buf, sizeof buf);
    if (in.gcount() > 0 && !send_all(fd, buf, static_cast<std::size_t>(in.gcount()))) return;
  }
}

}  // namespace drape
