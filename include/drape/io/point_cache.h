#pragma once
// Point Cache 2 (.pc2): per-frame vertex positions of one mesh, the cache
// Blender's Mesh Cache modifier, Marvelous Designer, CLO and 3ds Max read.
//
// Layout (little-endian, as Blender's MOD_meshcache_pc2 reads it): a 32-byte
// header {char[12] "POINTCACHE2\0"; int32 version = 1; int32 points;
// float32 start frame; float32 sampling (frames between samples, 1 = every
// frame); int32 samples}, then samples x points x float32 xyz. A reader
// applies it to a mesh with the same vertex count and order.

#include <filesystem>
#include <vector>

#include "drape/core/vec.h"

namespace drape {

/// Writes `samples` (per sample one position per point, already in the file's
/// unit and axes) as a PC2 file, atomically.
/// \param start_frame the frame of the first sample (Blender's "frame start").
/// \param sampling frames between samples (> 0; 1 = one sample per frame).
/// \throw InvalidInput when there are no samples, no points, samples of
///        different sizes, a non-finite position or sampling <= 0.
/// \throw IoError when the file cannot be written.
void write_pc2(const std::filesystem::path& path, const std::vector<std::vector<Vec3>>& samples,
               double start_frame = 0, double sampling = 1);

}  // namespace drape
