// `drape dataset --patterns DIR --count N --seed S --out jobs.jsonl ...`: a
// reproducible, regrowable `drape batch` manifest sampled from patterns, body
// shapes (MakeHuman macro values, bodies made by `drape body`), fabrics and
// poses. The generator is Python (python/drape/dataset/): this command replaces
// itself with `python3 -m drape.dataset ARGS...` (python_handoff.h). docs/BATCH.md.

#include "python_handoff.h"

namespace drape::cli {
namespace {

const CommandRegistrar reg_dataset{
    "dataset",
    "Sample patterns, body shapes, fabrics and poses into a `drape batch` manifest (seeded, regrowable): "
    "`drape dataset --help` for the options",
    [](CLI::App& app) {
      app.prefix_command();
      app.set_help_flag();
      return [&app] { return exec_python_module(app, "dataset", "drape.dataset", "drape/dataset", false); };
    }};

}  // namespace
}  // namespace drape::cli
