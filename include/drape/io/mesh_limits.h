#pragma once
// Resource bounds of the mesh readers (read_obj, read_gltf): inputs beyond
// them are refused with InvalidInput before the big allocations, instead of
// running out of memory. Documented in docs/HARDENING.md.

#include <cstdint>
#include <filesystem>

namespace drape {

/// Largest mesh file read, bytes (2 GiB; also what the glTF parser's 32-bit size takes).
inline constexpr std::uintmax_t kMaxMeshFileBytes = std::uintmax_t{2} << 30;
/// Most vertices in one loaded mesh (all groups / primitives together).
inline constexpr std::uint64_t kMaxMeshVertices = 50'000'000;
/// Most triangles in one loaded mesh (after fan triangulation).
inline constexpr std::uint64_t kMaxMeshTriangles = 50'000'000;
/// Most corners of one OBJ face (tinyobjloader stores the count in a byte).
inline constexpr int kMaxObjFaceCorners = 255;

/// Refuses a file larger than kMaxMeshFileBytes (before reading it).
/// \throw InvalidInput naming the file and its size.
void check_mesh_file_size(const std::filesystem::path& path);

}  // namespace drape
