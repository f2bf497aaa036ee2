// The server behind `drape view`: path mapping (no escape from the served
// folders) and real requests over a socket on 127.0.0.1.

#include "drape/render/static_server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "drape/core/exceptions.h"
#include "test_temp_dir.h"

namespace drape {
namespace {

namespace fs = std::filesystem;

struct Tree {
  fs::path root = drape::test::test_temp_dir() / ("drape_server_test_" + std::to_string(::getpid()));
  fs::path viewer = root / "viewer", results = root / "results";
  Tree() {
    fs::remove_all(root);
    fs::create_directories(viewer / "sub");
    fs::create_directories(results);
    std::ofstream(viewer / "index.html") << "<html>viewer</html>";
    std::ofstream(viewer / "sub" / "index.html") << "sub";
    std::ofstream(results / "scene.glb", std::ios::binary) << std::string("glTF\0\x02", 6);
    std::ofstream(root / "secret.txt") << "secret";
    fs::create_symlink(root / "secret.txt", results / "link.txt");
  }
  ~Tree() { fs::remove_all(root); }
  std::vector<StaticRoute> routes() const { return {{"/results/", results}, {"/", viewer}}; }
};

TEST(StaticServer, ResolvesFilesInsideTheRoutesOnly) {
  const Tree t;
  const auto r = t.routes();
  EXPECT_EQ(resolve_request(r, "/index.html").status, 200);
  EXPECT_EQ(resolve_request(r, "/").file, fs::canonical(t.viewer / "index.html"));
  EXPECT_EQ(resolve_request(r, "/sub/").file, fs::canonical(t.viewer / "sub" / "index.html"));
  EXPECT_EQ(resolve_request(r, "/results/scene.glb?x=1").file, fs::canonical(t.results / "scene.glb"));
  EXPECT_EQ(resolve_request(r, "/results/scene%2Eglb").status, 200);
  EXPECT_EQ(resolve_request(r, "/missing.js").status, 404);
  EXPECT_EQ(resolve_request(r, "/sub").status, 404);  // a folder, not a file
  // Escapes: plain, encoded, backslashes, through a link.
  EXPECT_EQ(resolve_request(r, "/../secret.txt").status, 403);
  EXPECT_EQ(resolve_request(r, "/results/../../secret.txt").status, 403);
  EXPECT_EQ(resolve_request(r, "/%2e%2e/secret.txt").status, 403);
  EXPECT_EQ(resolve_request(r, "/results/..%5c..%5csecret.txt").status, 403);
  EXPECT_EQ(resolve_request(r, "/results/link.txt").status, 403);
  // Malformed.
  EXPECT_EQ(resolve_request(r, "/bad%zz").status, 400);
  EXPECT_EQ(resolve_request(r, "/nul%00.txt").status, 400);
  EXPECT_EQ(resolve_request(r, "index.html").status, 400);
  EXPECT_EQ(content_type_for("a/scene.glb"), "model/gltf-binary");
  EXPECT_EQ(content_type_for("main.js"), "text/javascript; charset=utf-8");
}

/// Sends a raw request to 127.0.0.1:port and returns the whole response.
std::string request(int port, const std::string& text) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return "connect failed";
  }
  ::send(fd, text.data(), text.size(), MSG_NOSIGNAL);
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) out.append(buf, static_cast<std::size_t>(n));
  ::close(fd);
  return out;
}

std::string body_of(const std::string& response) {
  const auto p = response.find("\r\n\r\n");
  return p == std::string::npos ? "" : response.substr(p + 4);
}

TEST(StaticServer, AnswersGetOverASocketAndRefusesTraversal) {
  const Tree t;
  StaticServer server(t.routes(), 0);
  ASSERT_GT(server.port(), 0);
  std::thread th([&] { server.serve(); });
  const int p = server.port();

  const std::string index = request(p, "GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(index.rfind("HTTP/1.0 200", 0), 0u) << index;
  EXPECT_NE(index.find("Content-Type: text/html"), std::string::npos);
  EXPECT_EQ(body_of(index), "<html>viewer</html>");

  const std::string glb = request(p, "GET /results/scene.glb HTTP/1.1\r\n\r\n");
  EXPECT_EQ(body_of(glb), std::string("glTF\0\x02", 6));
  EXPECT_NE(glb.find("Content-Length: 6"), std::string::npos);

  const std::string head = request(p, "HEAD /index.html HTTP/1.1\r\n\r\n");
  EXPECT_EQ(head.rfind("HTTP/1.0 200", 0), 0u);
  EXPECT_EQ(body_of(head), "");

  EXPECT_EQ(request(p, "GET /../secret.txt HTTP/1.1\r\n\r\n").rfind("HTTP/1.0 403", 0), 0u);
  EXPECT_EQ(request(p, "GET /results/%2e%2e/%2e%2e/secret.txt HTTP/1.1\r\n\r\n").rfind("HTTP/1.0 403", 0),
            0u);
  EXPECT_EQ(request(p, "GET /nothing.html HTTP/1.1\r\n\r\n").rfind("HTTP/1.0 404", 0), 0u);
  EXPECT_EQ(request(p, "POST /index.html HTTP/1.1\r\n\r\n").rfind("HTTP/1.0 405", 0), 0u);
  EXPECT_EQ(request(p, "garbage\r\n\r\n").rfind("HTTP/1.0 400", 0), 0u);
  EXPECT_EQ(request(p, "GET /index.html HTTP/1.1\r\n\r\n").find("secret"), std::string::npos);

  server.stop();
  th.join();
}

TEST(StaticServer, ATakenPortIsAnIoError) {
  const Tree t;
  StaticServer first(t.routes(), 0);
  EXPECT_THROW(StaticServer(t.routes(), first.port()), IoError);
  EXPECT_THROW(StaticServer(t.routes(), 70000), InvalidInput);
}

}  // namespace
}  // namespace drape
