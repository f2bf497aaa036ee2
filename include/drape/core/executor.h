#pragma once
// The one executor every parallel loop in drape goes through.
//
// Backed by oneTBB with a fixed-size arena; with one thread it runs the loop
// inline, so a thread count of 1 is a true sequential fallback. Loops given to
// it must be gathers (each index writes only its own outputs) so that results
// do not depend on how the range is split: that keeps drape deterministic for
// a given thread count, and in practice across thread counts too.

#include <cstddef>
#include <functional>
#include <memory>

namespace drape {

class Executor {
 public:
  /// \param threads number of worker threads; 0 = all hardware threads, 1 = sequential.
  explicit Executor(int threads = 0);
  ~Executor();
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  int thread_count() const { return threads_; }

  /// Calls body(chunk_begin, chunk_end) over disjoint chunks covering
  /// [begin, end). `grain` is the smallest chunk worth sending to a thread.
  void for_range(std::size_t begin, std::size_t end,
                 const std::function<void(std::size_t, std::size_t)>& body, std::size_t grain = 256) const;

  /// Calls body(i) for every i in [begin, end).
  template <class F>
  void for_each(std::size_t begin, std::size_t end, F&& body, std::size_t grain = 256) const {
    for_range(
        begin, end,
        [&body](std::size_t b, std::size_t e) {
          for (std::size_t i = b; i < e; ++i) body(i);
        },
        grain);
  }

  /// Process-wide default executor (all hardware threads unless set).
  static const Executor& global();
  /// Makes global() an executor of `threads` (0 = hardware threads) from now
  /// on. The one it replaces is never destroyed, so references taken from
  /// global() before stay valid (work in flight finishes on the old count).
  static void set_global_threads(int threads);

 private:
  int threads_;
  struct Arena;
  std::unique_ptr<Arena> arena_;
};

}  // namespace drape
