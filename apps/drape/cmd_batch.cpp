// `drape batch JOBS --out DIR ...`: many `drape dress` jobs from a JSON Lines or
// CSV manifest, resumable, on a local pool or a Dask cluster. The batch engine
// is Python (python/drape/batch/, because Dask is): this command replaces itself
// with `python3 -m drape.batch ARGS...` (python_handoff.h). docs/BATCH.md.

#include "python_handoff.h"

namespace drape::cli {
namespace {

const CommandRegistrar reg_batch{
    "batch",
    "Run a JSON Lines or CSV manifest of dress jobs into OUT/<id>/ (resumable; local pool or Dask): "
    "`drape batch --help` for the options",
    [](CLI::App& app) {
      // Every argument after `batch` goes to the Python engine as is (its --help too).
      app.prefix_command();
      app.set_help_flag();
      return [&app] { return exec_python_module(app, "batch", "drape.batch", "drape/batch", true); };
    }};

}  // namespace
}  // namespace drape::cli
