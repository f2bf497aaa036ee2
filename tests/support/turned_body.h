#pragma once
// Test support: the MakeHuman body file with every `v x y z` written as
// `v x -z y` (Z up, facing -Y, as Blender exports): the same digits, so the
// body reads back bit for bit once turned into drape's canonical frame.

#include <fstream>
#include <sstream>
#include <string>

namespace drape::test {

inline std::string makehuman_zup_obj_text(const std::string& base_obj_path) {
  auto negated = [](const std::string& n) { return n[0] == '-' ? n.substr(1) : "-" + n; };
  std::ifstream in(base_obj_path);
  std::ostringstream out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("v ", 0) == 0) {
      std::istringstream ls(line.substr(2));
      std::string x, y, z;
      ls >> x >> y >> z;
      out << "v " << x << ' ' << negated(z) << ' ' << y << '\n';
    } else {
      out << line << '\n';
    }
  }
  return out.str();
}

}  // namespace drape::test
