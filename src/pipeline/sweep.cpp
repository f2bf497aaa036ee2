#include "drape/pipeline/sweep.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "drape/body/body_loader.h"
#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"
#include "drape/pipeline/garment_check.h"
#include "drape/render/render_views.h"

namespace drape {
namespace fs = std::filesystem;

bool SweepRow::clean() const {
  return error.empty() && stop_reason == "equilibrium" && seams_joined == seams_total &&
         vertices_inside == 0 && body_pairs == 0 && self_pairs == 0;
}

std::string SweepRow::status() const { return error.empty() ? stop_reason : "error: " + error; }

std::vector<fs::path> expand_pattern_paths(std::span<const fs::path> args) {
  if (args.empty()) throw InvalidInput("sweep: no patterns given");
  std::vector<fs::path> out;
  std::set<fs::path> seen;
  auto add = [&](const fs::path& p) {
    if (seen.insert(p.lexically_normal()).second) out.push_back(p);
  };
  for (const fs::path& a : args) {
    std::error_code ec;
    if (fs::is_directory(a, ec)) {
      std::vector<fs::path> found;
      for (const fs::directory_entry& e : fs::directory_iterator(a, ec)) {
        const std::string name = e.path().filename().string();
        const bool sidecar = name.size() > 11 && name.ends_with(".seams.json");
        if (e.is_regular_file() && e.path().extension() == ".json" && !sidecar) found.push_back(e.path());
      }
      if (ec) throw InvalidInput("sweep: " + a.string() + ": cannot list folder: " + ec.message());
      if (found.empty()) throw InvalidInput("sweep: " + a.string() + ": folder has no *.json patterns");
      std::sort(found.begin(), found.end());
      for (const fs::path& p : found) add(p);
    } else if (fs::is_regular_file(a, ec)) {
      add(a);
    } else {
      throw InvalidInput("sweep: pattern " + a.string() + ": no such file or folder");
    }
  }
  return out;
}

namespace {

// The fit column: what the fit check said, and whether the pattern was graded.
std::string fit_cell(const DressResult& r) {
  if (!r.fit) return "-";
  std::string shortfalls;
  for (const GirthFit& g : r.fit->girths) {
    if (!g.too_small) continue;
    char buf[96];
    std::snprintf(buf, sizeof buf, "%s%s %.1f cm", shortfalls.empty() ? "" : ", ", g.name.c_str(),
                  g.shortfall * 100);
    shortfalls += buf;
  }
  std::string fit = shortfalls.empty() ? "fits" : "short: " + shortfalls;
  if (r.fit->opening && r.fit->opening->too_loose) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "loose: opening %.1f cm over %s %.1f cm", r.fit->opening->garment * 100,
                  r.fit->opening->holds.c_str(), r.fit->opening->body * 100);
    fit = shortfalls.empty() ? buf : fit + ", " + buf;
  }
  if (!r.fit_before_grading) return fit;
  return r.fit->fits ? "graded" : "graded, " + fit;
}

// File stems, made unique: a stem shared by several paths gets its folder's
// name in front ("gpg-dress"), then a number if still shared.
std::vector<std::string> unique_names(const std::vector<fs::path>& paths) {
  std::map<std::string, int> count;
  for (const fs::path& p : paths) ++count[p.stem().string()];
  std::vector<std::string> names;
  std::set<std::string> used;
  for (const fs::path& p : paths) {
    std::string n = p.stem().string();
    if (count[n] > 1) n = p.parent_path().filename().string() + "-" + n;
    std::string u = n;
    for (int k = 2; used.count(u); ++k) u = n + "-" + std::to_string(k);
    used.insert(u);
    names.push_back(u);
  }
  return names;
}

std::string one_line(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  std::replace(s.begin(), s.end(), '\r', ' ');
  return s;
}

// Runs one pair into row.dir; fills the row's measures and the thumbnail, or row.error.
void run_pair(const SweepJob& sweep, SweepRow& row, Image& thumb) {
  const auto t0 = std::chrono::steady_clock::now();
  // The time limit: a timer thread raises `stop` (the job's interrupt flag)
  // unless the pair is done first.
  std::atomic<bool> stop{false};
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  std::thread timer;
  if (sweep.max_seconds > 0)
    timer = std::thread([&] {
      std::unique_lock lock(m);
      if (!cv.wait_for(lock, std::chrono::duration<double>(sweep.max_seconds), [&] { return done; }))
        stop.store(true);
    });
  struct StopTimer {
    std::mutex& m;
    std::condition_variable& cv;
    bool& done;
    std::thread& timer;
    ~StopTimer() {
      {
        std::lock_guard lock(m);
        done = true;
      }
      cv.notify_all();
      if (timer.joinable()) timer.join();
    }
  } stop_timer{m, cv, done, timer};
  try {
    std::error_code ec;
    fs::remove_all(row.dir, ec);  // no stale garment.obj from an earlier sweep
    DressJob job = sweep.dress;
    job.body_path = row.body_path;
    job.pattern_path = row.pattern_path;
    job.out_dir = row.dir;
    job.progress = nullptr;
    job.stop_requested = sweep.max_seconds > 0 ? &stop : nullptr;
    job.checkpoint_every = 0;
    job.resume_from.clear();
    job.Validate();
    const DressResult r = job.Run();
    const DrapeReport& d = r.drape.report;
    row.stop_reason = d.stop_reason;
    row.fit = fit_cell(r);
    row.seams_joined = d.seam_pairs_joined;
    row.seams_total = d.seam_pairs;
    row.max_gap_m = d.max_seam_gap;
    row.strain_max = d.strain_max;
    row.strain_p99 = d.strain_p99;
    row.frames = d.frames;
    // The crossing counts exactly as `drape check --body B --garment garment.obj` gives them.
    const Executor& ex = sweep.dress.cloth.executor ? *sweep.dress.cloth.executor : Executor::global();
    // garment.obj is in the body file's frame: so is the body the tree is built on.
    // (The tree refers to the mesh: it must outlive the tree.)
    const TriangleMesh body_in_file = rotated(r.body, r.body_axes.to_canonical().transposed());
    const TriangleMeshBvh tree(body_in_file);
    const GarmentCheck c =
        check_garment_file(tree, r.body_unit, row.dir / "garment.obj", "", std::nullopt, 0, ex);
    row.vertices_inside = c.counts.vertices_inside_body;
    row.body_pairs = c.counts.body_crossing_pairs;
    row.self_pairs = c.counts.self_crossing_pairs;
    // Thumbnail: the front view of body and garment.
    const std::array<RenderItem, 2> items{RenderItem{&r.body, RenderOptions{}.body_color, {}},
                                          RenderItem{&r.drape.mesh, RenderOptions{}.garment_color, {}}};
    Aabb bounds = r.body.bounds();
    if (!r.drape.mesh.faces.empty()) bounds.expand(r.drape.mesh.bounds());
    thumb = render_view(items, bounds, View::front, sweep.sheet.cell_width,
                        sweep.sheet.cell_height - sweep.sheet.label_height, RenderOptions{}, ex);
  } catch (const std::exception& e) {
    const bool timed_out = stop.load() && dynamic_cast<const Interrupted*>(&e) != nullptr;
    std::error_code ec;
    fs::remove_all(row.dir / "checkpoint", ec);  // saved by the interrupt; not wanted here
    SweepRow failed;
    failed.pattern = row.pattern;
    failed.body = row.body;
    failed.pattern_path = row.pattern_path;
    failed.body_path = row.body_path;
    failed.dir = row.dir;
    row = std::move(failed);
    row.error = one_line(e.what());
    if (timed_out) {
      char limit[64];
      std::snprintf(limit, sizeof limit, "time limit of %g s reached, drape stopped", sweep.max_seconds);
      row.error = limit;
    }
    thumb = Image{};
  }
  row.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

void SweepJob::Validate() const {
  if (patterns.empty()) throw InvalidInput("sweep: no patterns given");
  if (bodies.empty()) throw InvalidInput("sweep: no bodies given (--bodies)");
  if (out_dir.empty()) throw InvalidInput("sweep: no output folder (--out)");
  if (jobs < 1) throw InvalidInput("sweep: --jobs must be 1 or more");
  if (!(max_seconds >= 0)) throw InvalidInput("sweep: --max-seconds must be 0 or more");
  std::error_code ec;
  for (const fs::path& p : patterns)
    if (!fs::is_regular_file(p, ec)) throw InvalidInput("sweep: pattern " + p.string() + ": no such file");
  for (const fs::path& b : bodies)
    if (!fs::is_regular_file(b, ec)) throw InvalidInput("sweep: body " + b.string() + ": no such file");
}

SweepResult SweepJob::Run() const {
  Validate();
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) throw IoError(out_dir.string() + ": cannot create folder: " + ec.message());
  const std::vector<std::string> pnames = unique_names(patterns), bnames = unique_names(bodies);
  const std::size_t n = patterns.size() * bodies.size();
  std::vector<SweepRow> rows(n);
  for (std::size_t p = 0; p < patterns.size(); ++p)
    for (std::size_t b = 0; b < bodies.size(); ++b) {
      SweepRow& r = rows[p * bodies.size() + b];
      r.pattern = pnames[p];
      r.body = bnames[b];
      r.pattern_path = patterns[p];
      r.body_path = bodies[b];
      r.dir = out_dir / (r.pattern + "__" + r.body);
    }
  std::vector<Image> thumbs(n);
  std::vector<unsigned char> finished(n, 0);
  SweepResult result;
  std::mutex mutex;  // guards finished, the files and on_row
  std::size_t done = 0;
  std::exception_ptr failure;
  std::atomic<std::size_t> next{0};

  // Rewrites the tables and the sheet from the finished rows, in sweep order.
  auto write_outputs = [&] {
    std::vector<SweepRow> ready;
    std::vector<ContactCell> cells;
    for (std::size_t i = 0; i < n; ++i) {
      if (!finished[i]) continue;
      ready.push_back(rows[i]);
      ContactCell c;
      c.image = thumbs[i];
      c.label =
          std::to_string(ready.size()) + " " + rows[i].pattern + "\n" + rows[i].body + "\n" +
          (rows[i].error.empty()
               ? rows[i].stop_reason + " " + std::to_string(rows[i].seams_joined) + "/" +
                     std::to_string(rows[i].seams_total) + " " + std::to_string(rows[i].vertices_inside) +
                     "/" + std::to_string(rows[i].body_pairs) + "/" + std::to_string(rows[i].self_pairs)
               : std::string("error"));
      c.ok = rows[i].clean();
      c.empty_text = "error: " + rows[i].error.substr(0, 600);
      cells.push_back(std::move(c));
    }
    write_file_atomically(out_dir / "sweep.md", sweep_markdown(ready));
    write_file_atomically(out_dir / "sweep.csv", sweep_csv(ready));
    write_png(out_dir / "contact_sheet.png", contact_sheet(cells, sheet));
  };

  auto worker = [&] {
    for (;;) {
      const std::size_t i = next++;
      if (i >= n) return;
      {
        std::lock_guard lock(mutex);
        if (failure) return;
      }
      SweepRow row = rows[i];
      Image thumb;
      run_pair(*this, row, thumb);
      std::lock_guard lock(mutex);
      if (failure) return;
      rows[i] = std::move(row);
      thumbs[i] = std::move(thumb);
      finished[i] = 1;
      ++done;
      try {
        write_outputs();
        if (on_row) on_row(rows[i], done, n);
      } catch (...) {
        failure = std::current_exception();
        return;
      }
    }
  };
  const int threads = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(jobs), n));
  if (threads <= 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
    for (std::thread& t : pool) t.join();
  }
  if (failure) std::rethrow_exception(failure);
  result.rows = std::move(rows);
  result.written = {out_dir / "sweep.md", out_dir / "sweep.csv", out_dir / "contact_sheet.png"};
  return result;
}

}  // namespace drape
