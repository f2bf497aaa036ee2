#include "drape/core/executor.h"

#include <tbb/blocked_range.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <mutex>

namespace drape {

struct Executor::Arena {
  tbb::task_arena arena;
  explicit Arena(int n) : arena(n) {}
};

Executor::Executor(int threads) {
  threads_ = threads > 0 ? threads : static_cast<int>(tbb::info::default_concurrency());
  if (threads_ < 1) threads_ = 1;
  if (threads_ > 1) arena_ = std::make_unique<Arena>(threads_);
}

Executor::~Executor() = default;

void Executor::for_range(std::size_t begin, std::size_t end,
                         const std::function<void(std::size_t, std::size_t)>& body,
                         std::size_t grain) const {
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
}  // namespace

const Executor& Executor::global() {
  std::lock_guard lock(g_mutex);
  if (!g_executor) g_executor = std::make_unique<Executor>(0);
  return *g_executor;
}

void Executor::set_global_threads(int threads) {
  std::lock_guard lock(g_mutex);
  g_executor = std::make_unique<Executor>(threads);
}

}  // namespace drape
