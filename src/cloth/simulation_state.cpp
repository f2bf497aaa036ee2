#include "drape/cloth/simulation_state.h"

#include <cmath>
#include <cstring>
#include <type_traits>

#include "drape/core/exceptions.h"

namespace drape {
namespace {

template <class T>
void put(std::string& out, const T& value) {
  static_assert(std::is_trivially_copyable_v<T>);
  out.append(reinterpret_cast<const char*>(&value), sizeof(T));
}

template <class T>
void put(std::string& out, const std::vector<T>& values) {
  put<std::uint64_t>(out, values.size());
  if (!values.empty()) out.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

struct Reader {
  const std::string& in;
  const std::string& source;
  std::size_t& at;

  [[noreturn]] void truncated() const { throw InvalidInput(source, 0, "checkpoint state is truncated"); }

  template <class T>
  void get(T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (in.size() < at || in.size() - at < sizeof(T)) truncated();
    std::memcpy(&value, in.data() + at, sizeof(T));
    at += sizeof(T);
  }

  template <class T>
  void get(std::vector<T>& values) {
    std::uint64_t n = 0;
    get(n);
    if ((in.size() - at) / sizeof(T) < n) truncated();  // before allocating n elements
    values.resize(n);
    if (n)
      std::memcpy(values.data(), in.data() + at, n * sizeof(T));  // memcpy to null is UB even for 0 bytes
    at += n * sizeof(T);
  }
};

void expect_count(std::size_t have, std::size_t expected, const char* what, const std::string& source) {
  if (have != expected)
    throw InvalidInput(source, 0,
                       std::string("checkpoint state has ") + std::to_string(have) + " " + what +
                           ", this run has " + std::to_string(expected));
}

}  // namespace

void write_simulation_state(const SimulationState& state, std::string& out) {
  std::apply([&](const auto&... field) { (put(out, field), ...); }, state.fields());
}

SimulationState read_simulation_state(const std::string& bytes, std::size_t& at,
                                      const SimulationStateShape& shape, const std::string& source) {
  SimulationState s;
  Reader r{bytes, source, at};
  std::apply([&](auto&... field) { (r.get(field), ...); }, s.fields());
  if (s.frame < 0 || s.substeps < 1 || s.run_first_frame < 0 || s.run_first_frame > s.frame ||
      s.motion_done < 0 || !(s.dt > 0) || s.step_halvings < 0 || s.last_join_frame < 0 ||
      s.last_join_frame > s.frame || s.gap_progress_frame < 0 || s.gap_progress_frame > s.frame ||
      s.resews < 0 || s.resew_end_frame < -1 || s.resew_open_pairs < -1 || s.body_crossing_frames < 0 ||
      !(s.open_gap_ref == -1 || (s.open_gap_ref >= 0 && std::isfinite(s.open_gap_ref))))
    throw InvalidInput(source, 0, "checkpoint state has inconsistent counters");
  if (s.motion_done > 0 && s.motion_done > shape.motion_frames)
    throw InvalidInput(source, 0, "checkpoint state is in a body motion this run does not have");
  expect_count(s.x.size(), shape.vertices, "cloth vertices", source);
  expect_count(s.v.size(), shape.vertices, "cloth vertices", source);
  expect_count(s.seam_joined.size(), shape.seam_pairs, "seam pairs", source);
  expect_count(s.seam_cap_scale.size(), shape.seam_pairs, "seam pairs", source);
  expect_count(s.seam_gap_prev.size(), shape.seam_pairs, "seam pairs", source);
  // A corner group list is empty (none left) or one per vertex.
  if (!s.corner_group.empty())
    expect_count(s.corner_group.size(), shape.vertices, "corner group entries", source);
  for (int g : s.corner_group)
    if (g < -1 || g >= static_cast<int>(shape.vertices))
      throw InvalidInput(source, 0, "checkpoint state has a bad seam corner group");
  expect_count(s.body.size(), shape.body_vertices, "body vertices", source);
  if (!s.window_lo.empty() || !s.window_hi.empty()) {
    expect_count(s.window_lo.size(), shape.vertices, "cloth vertices", source);
    expect_count(s.window_hi.size(), shape.vertices, "cloth vertices", source);
  }
  if (s.window_frames < 0 || (s.window_frames > 0 && s.window_lo.empty()))
    throw InvalidInput(source, 0, "checkpoint state has a bad rest window");
  if (s.fall_off_anchor < -1 || s.fall_off_anchor >= static_cast<std::int64_t>(shape.body_vertices) ||
      !std::isfinite(s.fall_off_anchor_y))
    throw InvalidInput(source, 0, "checkpoint state has a bad fall-off anchor");
  for (std::size_t i = 0; i < s.x.size(); ++i)
    if (!is_finite(s.x[i]) || !is_finite(s.v[i]))
      throw InvalidInput(source, 0, "checkpoint state has a non-finite value");
  return s;
}

}  // namespace drape
