// Load stage of `drape dress`: the body and the pattern, each read and hashed
// once; the fabric; the one body query tree (dress_stages.h).

#include <algorithm>

#include "drape/core/atomic_file.h"
#include "drape/core/sha256.h"
#include "drape/pattern/pattern_io.h"
#include "drape/pipeline/dress_stages.h"

namespace drape {

namespace fs = std::filesystem;

void add_warnings(std::vector<std::string>& to, const std::vector<std::string>& from) {
  for (const std::string& w : from)
    if (std::find(to.begin(), to.end(), w) == to.end()) to.push_back(w);
}

const std::string& InputHashes::of(const fs::path& p) const {
  auto [it, fresh] = cache_.try_emplace(p);
  if (fresh && !p.empty() && fs::exists(p)) it->second = sha256_hex(read_file(p));
  return it->second;
}

Fabric resolve_fabric(const std::string& name_or_file) {
  const auto names = fabric_preset_names();
  if (std::find(names.begin(), names.end(), name_or_file) != names.end() || name_or_file == "knit")
    return fabric_preset(name_or_file);
  if (fs::exists(name_or_file)) return read_fabric_json(name_or_file);
  return fabric_preset(name_or_file);  // throws InvalidInput listing the presets
}

DressInputs load_dress_inputs(const DressJob& job) {
  DressInputs in;
  // The pattern first: it is the smaller file, so a bad one fails before the body is read.
  PatternLoadOptions po;
  po.aliases = job.aliases;
  in.pattern = load_pattern(job.pattern_path, po);
  in.body = job.loaded_body ? *job.loaded_body : load_body(job.body_path, job.body_load_options());
  in.fabric = resolve_fabric(job.fabric);
  in.hashes.add(job.body_path, in.body.sha256);
  in.hashes.add(job.pattern_path, in.pattern.sha256);
  add_warnings(in.warnings, in.pattern.warnings);
  in.body_tree = make_shared_tree(in.body.mesh, BvhBuildOptions{},
                                  job.cloth.executor ? *job.cloth.executor : Executor::global());
  return in;
}

}  // namespace drape
