#pragma once
// The animation's preview video (private to the pipeline): every cache frame
// rendered from the front like a contact sheet cell, encoded to H.264 MP4 by
// an external `ffmpeg` (Debian's package) when one is installed. drape does
// not depend on it: without it the preview is skipped with a note.

#include <filesystem>
#include <string>

#include "animation_outputs.h"

namespace drape {

/// Writes `mp4` (frames rendered into a scratch folder beside it, removed
/// afterwards) at `fps` frames per second with `ffmpeg` (a path, or a name
/// looked up on PATH). Returns "" when written, else why it was skipped
/// (ffmpeg not found, or it failed: its exit status); never throws for a
/// missing or failing ffmpeg.
/// \throw IoError when a frame image cannot be written.
std::string write_preview_mp4(const AnimationResult& result, const AnimationCaches& caches,
                              const std::filesystem::path& mp4, double fps, const std::string& ffmpeg,
                              const Executor& executor);

}  // namespace drape
