#pragma once
// Test support: the MakeHuman body file turned into another tool's
// convention by permuting and negating its vertex coordinates (Z up facing
// -Y as Blender exports, facing +X, ...): the same digits, so the body reads
// back bit for bit once turned into drape's canonical frame.

#include <fstream>
#include <sstream>
#include <string>

namespace drape::test {

/// The MakeHuman body file with every `v x y z` written as its coordinates
/// permuted and negated: file axis k holds canonical axis from[k], negated
/// where negate[k] (the same digits: it reads back bit for bit once turned
/// into the canonical frame). {2, 1, 0} with {false, false, true} writes
/// `v z y -x`: the body turned about Y to face +X.
inline std::string makehuman_turned_obj_text(const std::string& base_obj_path, const int (&from)[3],
                                             const bool (&negate)[3]) {
  auto negated = [](const std::string& n) { return n[0] == '-' ? n.substr(1) : "-" + n; };
  std::ifstream in(base_obj_path);
  std::ostringstream out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("v ", 0) == 0) {
      std::istringstream ls(line.substr(2));
      std::string c[3];
      ls >> c[0] >> c[1] >> c[2];
      out << "v";
      for (int k = 0; k < 3; ++k) out << ' ' << (negate[k] ? negated(c[from[k]]) : c[from[k]]);
      out << '\n';
    } else {
      out << line << '\n';
    }
  }
  return out.str();
}

/// `v x -z y`: Z up, facing -Y, as Blender exports.
inline std::string makehuman_zup_obj_text(const std::string& base_obj_path) {
  return makehuman_turned_obj_text(base_obj_path, {0, 2, 1}, {false, true, false});
}

}  // namespace drape::test
