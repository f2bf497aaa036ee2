#pragma once
// Joined seam pairs as one vertex: the welded representatives, positions
// averaged over each welded set, and the welded result mesh of a drape.

#include <vector>

#include "drape/cloth/cloth_model.h"
#include "drape/collision/body_collider.h"
#include "drape/core/union_find.h"
#include "drape/geometry/triangle_mesh.h"

namespace drape {

/// Per vertex the representative of its welded set: vertices joined through
/// joined seam pairs (transitively) share the smallest id among them.
/// \param joined per seam pair 1 when joined; \param sets, \param rep scratch and result (storage reused).
void welded_representatives(const ClothModel& model, const std::vector<unsigned char>& joined,
                            UnionFind& sets, std::vector<int>& rep);

/// out[v] = the mean of x over the vertices sharing v's representative, summed
/// in vertex order (every caller gets the same bits). `count` is scratch.
/// Storage of `out` and `count` is reused.
void mean_by_representative(const std::vector<Vec3>& x, const std::vector<int>& rep, std::vector<Vec3>& out,
                            std::vector<int>& count);

/// The welded sets as BodyCollider's pushes take them: per vertex the next
/// copy of its set (circular, in vertex order) and the set's inverse mass
/// (1 / the summed mass of its copies, 0 when a copy is pinned); a vertex
/// alone is its own next and keeps its inverse mass bit for bit.
/// \return false (out untouched) when no pair is joined: every vertex is alone.
bool welded_copies(const ClothModel& model, const std::vector<unsigned char>& joined, UnionFind& sets,
                   std::vector<int>& rep, WeldedCopies& out);

/// The garment with its joined seam pairs welded into shared vertices (smallest
/// id represents, position = mean); triangles that collapse are dropped.
/// \param vertex_map out: per garment vertex its vertex in the result.
/// \param face_map out: per result face its garment face.
TriangleMesh weld_joined_seams(const ClothModel& model, const std::vector<Vec3>& x,
                               const std::vector<unsigned char>& joined, std::vector<int>& vertex_map,
                               std::vector<int>& face_map);

}  // namespace drape
