#include "drape/core/executor.h"

#include <tbb/blocked_range.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <mutex>
#include <vector>

namespace drape {

struct Executor::Arena {
  tbb::task_arena arena;
  explicit Arena(int n) : arena(n) {}
};

namespace {
int resolved_threads(int threads) {
  return std::max(1, threads > 0 ? threads : static_cast<int>(tbb::info::default_concurrency()));
}
}  // namespace

Executor::Executor(int threads) {
  threads_ = resolved_threads(threads);
  if (threads_ > 1) arena_ = std::make_unique<Arena>(threads_);
}

Executor::~Executor() = default;

void Executor::for_range(std::size_t begin, std::size_t end,
                         const std::function<void(std::size_t, std::size_t)>& body, std::size_t grain) const {
  if (end <= begin) return;
  if (!arena_ || end - begin <= grain) {
    body(begin, end);
    return;
  }
  arena_->arena.execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(begin, end, grain ? grain : 1),
        [&](const tbb::blocked_range<std::size_t>& r) { body(r.begin(), r.end()); },
        tbb::simple_partitioner());
  });
}

namespace {
std::mutex g_mutex;
std::unique_ptr<Executor> g_executor;
// Executors replaced by set_global_threads stay alive until exit: a caller
// that took global() before the change (e.g. a dress running on another
// Python thread) keeps a valid executor with the old thread count.
std::vector<std::unique_ptr<Executor>> g_retired;
}  // namespace

const Executor& Executor::global() {
  std::lock_guard lock(g_mutex);
  if (!g_executor) g_executor = std::make_unique<Executor>(0);
  return *g_executor;
}

void Executor::set_global_threads(int threads) {
  std::lock_guard lock(g_mutex);
  if (g_executor && g_executor->thread_count() == resolved_threads(threads)) return;
  if (g_executor) g_retired.push_back(std::move(g_executor));
  g_executor = std::make_unique<Executor>(threads);
}

}  // namespace drape
