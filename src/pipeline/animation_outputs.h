#pragma once
// Writing an animation's results (private to the pipeline module): the OBJ +
// Point Cache 2 pairs, animation.glb, the contact sheet and report.json,
// staged in a folder beside out_dir and moved into it only when all are written.

#include <nlohmann/json.hpp>
#include <vector>

#include "drape/core/executor.h"
#include "drape/geometry/aabb.h"
#include "drape/pipeline/animation_job.h"
#include "drape/render/contact_sheet.h"

namespace drape {

/// What the frame loop keeps: per cache frame the welded garment's and the
/// body's positions (canonical frame, metres).
struct AnimationCaches {
  std::vector<std::vector<Vec3>> garment, body;
};

/// `count` indices spread evenly over 0..n-1, first and last included,
/// sorted and distinct (fewer when n < count; none when count = 0).
std::vector<long> evenly_spaced(long n, int count);

/// A frame's figures as report.json (and the checkpoint) write them.
nlohmann::ordered_json frame_json(const AnimationFrameReport& f);

/// A contact sheet cell (the sheet and each preview frame): the front view of
/// body and garment within `bounds`, labelled with the motion frame and its
/// crossings; marked ok when nothing crosses and every seam is closed.
ContactCell frame_cell(const TriangleMesh& body, const TriangleMesh& garment, const Aabb& bounds,
                       const AnimationFrameReport& frame, const ContactSheetOptions& sheet,
                       const Executor& executor);

/// Facts about the run the report names.
struct AnimationOutputInfo {
  const AnimationJob& job;
  std::size_t motion_frames = 0;
  std::size_t mapped_bones = 0;
  long last_frame = 0;
  double seconds_total = 0, seconds_animation = 0;
};

/// Writes every output into job.out_dir (see animation_job.h) and fills
/// result.report_json and result.written. Nothing in out_dir changes when
/// it throws.
/// \throw IoError when a file or folder cannot be written.
void write_animation_outputs(AnimationResult& result, const AnimationCaches& caches,
                             const AnimationOutputInfo& info);

}  // namespace drape
