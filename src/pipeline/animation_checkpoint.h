#pragma once
// Checkpoints of `drape animate` (private to the pipeline): the animation's
// frame loop saves, between two motion frames, the cloth state, the frames
// simulated, the cache frames kept so far and their reports, in
// CHECKPOINT_DIR/animation.bin (the dress checkpoint format of
// dress_checkpoint.h: [meta JSON][caches][cloth state]). The rest drape
// checkpoints beside it as checkpoint.bin (DressJob). A resume recomputes the
// rest drape (deterministic; from its checkpoint.bin when there is one), then
// loads the animation's state and goes on from the next frame.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "animation_outputs.h"
#include "drape/pipeline/animation_job.h"

namespace drape {

/// What must be equal for an animation checkpoint to be resumed: the input
/// files' contents and every setting that changes the simulation or the
/// frames (not the thread count, the contact sheet or the glb limit).
std::string animation_fingerprint(const AnimationJob& job);

/// The animation's state between two frames.
struct AnimationCheckpoint {
  int frames_done = 0;  ///< simulation frames completed (blend and settle frames included)
  bool capped = false;  ///< the step cap was hit in a completed frame
  std::vector<AnimationFrameReport> frames;
  AnimationCaches caches;
  std::string cloth_state;  ///< ClothSimulation::save_state()
};

/// Writes `dir`/animation.bin atomically (creating dir).
/// \throw IoError when it cannot be written.
void write_animation_checkpoint(const std::filesystem::path& dir, const std::string& fingerprint,
                                const AnimationCheckpoint& c);

/// The checkpoint folder a resume reads: `where` is an animate output folder
/// (its checkpoint/ inside), a checkpoint folder or a file in one.
std::filesystem::path animation_checkpoint_dir(const std::filesystem::path& where);

/// Reads `dir`/animation.bin; nullopt when there is none (the run stopped in
/// its rest drape).
/// \throw InvalidInput naming the file when it is truncated, not a drape
///        animation checkpoint, or made with other inputs or settings.
std::optional<AnimationCheckpoint> read_animation_checkpoint(const std::filesystem::path& dir,
                                                             const std::string& fingerprint);

}  // namespace drape
