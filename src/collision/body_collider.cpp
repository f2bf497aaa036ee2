#include "drape/collision/body_collider.h"

#include <algorithm>
#include <span>
#include <string>

#include "drape/core/exceptions.h"
#include "drape/geometry/garment_mesh.h"
#include "drape/geometry/mesh_adjacency.h"
#include "drape/geometry/triangle_queries.h"

namespace drape {

namespace {
// push_cloth_triangles' plane tests: only on triangles whose corner angle has
// a sine above 1e-3, with a relative margin of 1e-6.
constexpr double kPlaneSine2 = 1e-6;
constexpr double kPlaneMargin = 1e-6;
// The longest push one body edge gives a cloth triangle per call, in thicknesses.
constexpr double kMaxEdgePush = 2;
// How far a body edge may stand wholly through a cloth triangle and still be
// pushed back under it, in thicknesses.
constexpr double kMaxEdgePoke = 4;
// Below this cosine between a cloth triangle's normal and a body edge's, the
// edge runs along the cloth: no side to push to.
constexpr double kMinFacing = 0.05;
// push_cloth_triangles: rounds of answers per call, and the least push a
// round after the first answers, in thicknesses.
constexpr int kPushAnswerRounds = 3;
constexpr double kRoundSlack = 0.01;

// A body edge under (or through) a cloth triangle, seen from the triangle's
// side the edge's normal points to: the part of the edge whose projection
// on the triangle's plane falls inside the triangle. Its two ends are where
// its height is largest and smallest (height is affine along the edge):
// `height` of a point is its signed distance from the plane along that
// side's normal, > 0 through the cloth.
struct EdgeUnderTriangle {
  bool found = false;
  double height[2] = {0, 0};  // at the part's two ends, m
  double w[2][3] = {};        // barycentrics of the two ends' projections
  double facing = 0;          // cosine between the plane's normal and the edge's normal (> 0)
  double top() const { return std::max(height[0], height[1]); }
  double bottom() const { return std::min(height[0], height[1]); }
};

EdgeUnderTriangle edge_under_triangle(const Vec3& p0, const Vec3& p1, const Vec3& a, const Vec3& b,
                                      const Vec3& c, const Vec3& edge_normal) {
  EdgeUnderTriangle r;
  const Vec3 e0 = b - a, e1 = c - a;
  Vec3 n = cross(e0, e1);
  const double len = norm(n);
  if (!(len * len > kPlaneSine2 * squared_norm(e0) * squared_norm(e1))) return r;  // a sliver
  n = n / len;
  double facing = dot(n, edge_normal);
  if (facing < 0) n = -n, facing = -facing;
  if (facing < kMinFacing) return r;
  // Barycentrics of the projections of p0 and p1 (affine in the point).
  const double d00 = dot(e0, e0), d01 = dot(e0, e1), d11 = dot(e1, e1);
  const double den = d00 * d11 - d01 * d01;
  auto bary = [&](const Vec3& p, double out[3]) {
    const Vec3 d = p - a;
    const double d20 = dot(d, e0), d21 = dot(d, e1);
    out[1] = (d11 * d20 - d01 * d21) / den;
    out[2] = (d00 * d21 - d01 * d20) / den;
    out[0] = 1 - out[1] - out[2];
  };
  double b0[3], b1[3];
  bary(p0, b0);
  bary(p1, b1);
  // Clip t in [0, 1] to where every barycentric is >= 0.
  double ends[2] = {0, 1};
  for (int k = 0; k < 3; ++k) {
    const double slope = b1[k] - b0[k];
    if (slope == 0) {
      if (b0[k] < 0) return r;
    } else if (slope > 0) {
      ends[0] = std::max(ends[0], -b0[k] / slope);
    } else {
      ends[1] = std::min(ends[1], -b0[k] / slope);
    }
  }
  if (!(ends[0] <= ends[1])) return r;
  const double s0 = dot(p0 - a, n), s1 = dot(p1 - a, n);
  r.found = true;
  r.facing = facing;
  for (int e = 0; e < 2; ++e) {
    const double t = ends[e];
    r.height[e] = s0 + t * (s1 - s0);
    double sum = 0;
    for (int k = 0; k < 3; ++k) sum += r.w[e][k] = std::max(0.0, b0[k] + t * (b1[k] - b0[k]));
    for (double& wk : r.w[e]) wk /= sum;
  }
  return r;
}
}  // namespace

BodyCollider::BodyCollider(const TriangleMesh& body, std::vector<std::uint32_t> face_regions,
                           const Executor& executor)
    : mesh_(std::make_unique<TriangleMesh>(body)), regions_(std::move(face_regions)), executor_(&executor) {
  init(executor);
}

BodyCollider::BodyCollider(std::shared_ptr<const TriangleMeshBvh> body_tree,
                           std::vector<std::uint32_t> face_regions, const Executor& executor)
    : mesh_(std::make_unique<TriangleMesh>(body_tree->mesh())),
      regions_(std::move(face_regions)),
      shared_full_(std::move(body_tree)),
      executor_(&executor) {
  if (shared_full_->face_count() != mesh_->face_count())
    throw InvalidInput("body tree: " + std::to_string(shared_full_->face_count()) + " faces of " +
                       std::to_string(mesh_->face_count()) + " (it must hold the whole body)");
  init(executor);
}

void BodyCollider::init(const Executor& executor) {
  if (mesh_->face_count() == 0) throw InvalidInput("body: no faces");
  mesh_->validate("body");
  if (!regions_.empty() && regions_.size() != mesh_->face_count())
    throw InvalidInput("body face regions: " + std::to_string(regions_.size()) + " entries for " +
                       std::to_string(mesh_->face_count()) + " body faces");
  face_normals_ = mesh_->face_normals();
  if (!shared_full_) own_full_ = std::make_unique<TriangleMeshBvh>(*mesh_, BvhBuildOptions{}, executor);
  full_ = shared_full_ ? shared_full_.get() : own_full_.get();
  vertex_normals_ = mesh_->vertex_normals();
  vertex_regions_.assign(mesh_->vertex_count(), regions_.empty() ? body_region::all : 0u);
  if (!regions_.empty())
    for (std::size_t f = 0; f < mesh_->face_count(); ++f)
      for (int v : mesh_->faces[f]) vertex_regions_[v] |= regions_[f];
  std::vector<Aabb> boxes(mesh_->vertex_count());
  for (std::size_t v = 0; v < boxes.size(); ++v) boxes[v].expand(mesh_->positions[v]);
  vertex_tree_ = Bvh::build(boxes, BvhBuildOptions{}, executor);

  // Each undirected edge once, in a deterministic order.
  edges_ = unique_edges(mesh_->faces);
  edge_regions_.resize(edges_.size());
  for (std::size_t e = 0; e < edges_.size(); ++e)
    edge_regions_[e] = vertex_regions_[edges_[e][0]] & vertex_regions_[edges_[e][1]];
  std::vector<Aabb> edge_boxes;
  build_edge_boxes(edge_boxes);
  edge_tree_ = Bvh::build(edge_boxes, BvhBuildOptions{}, executor);

  // For move_vertices: faces and edges around each vertex (faces in
  // increasing order), and each vertex's and edge's leaf slot in its tree.
  const std::size_t nv = mesh_->vertex_count();
  vertex_face_offsets_.assign(nv + 1, 0);
  for (const Triangle& t : mesh_->faces)
    for (int v : t) ++vertex_face_offsets_[v + 1];
  for (std::size_t v = 0; v < nv; ++v) vertex_face_offsets_[v + 1] += vertex_face_offsets_[v];
  vertex_faces_.resize(vertex_face_offsets_[nv]);
  std::vector<int> fill(vertex_face_offsets_.begin(), vertex_face_offsets_.end() - 1);
  for (std::size_t f = 0; f < mesh_->face_count(); ++f)
    for (int v : mesh_->faces[f]) vertex_faces_[fill[v]++] = static_cast<int>(f);
  vertex_edge_offsets_.assign(nv + 1, 0);
  for (const auto& e : edges_) ++vertex_edge_offsets_[e[0] + 1], ++vertex_edge_offsets_[e[1] + 1];
  for (std::size_t v = 0; v < nv; ++v) vertex_edge_offsets_[v + 1] += vertex_edge_offsets_[v];
  vertex_edges_.resize(vertex_edge_offsets_[nv]);
  fill.assign(vertex_edge_offsets_.begin(), vertex_edge_offsets_.end() - 1);
  for (std::size_t e = 0; e < edges_.size(); ++e)
    for (int v : edges_[e]) vertex_edges_[fill[v]++] = static_cast<int>(e);
  vertex_leaf_.resize(nv);
  const auto vertex_order = vertex_tree_.primitive_order();
  for (std::size_t i = 0; i < vertex_order.size(); ++i) vertex_leaf_[vertex_order[i]] = static_cast<int>(i);
  edge_leaf_.resize(edges_.size());
  const auto edge_order = edge_tree_.primitive_order();
  for (std::size_t i = 0; i < edge_order.size(); ++i) edge_leaf_[edge_order[i]] = static_cast<int>(i);
  face_mark_.assign(mesh_->face_count(), 0);
  face_cross_.resize(mesh_->face_count());
  for (std::size_t f = 0; f < mesh_->face_count(); ++f) {
    const Triangle& t = mesh_->faces[f];
    const std::vector<Vec3>& p = mesh_->positions;
    face_cross_[f] = cross(p[t[1]] - p[t[0]], p[t[2]] - p[t[0]]);
  }
  vertex_mark_.assign(nv, 0);
}

void BodyCollider::build_edge_boxes(std::vector<Aabb>& boxes) const {
  boxes.assign(edges_.size(), Aabb{});
  for (std::size_t e = 0; e < edges_.size(); ++e) {
    boxes[e].expand(mesh_->positions[edges_[e][0]]);
    boxes[e].expand(mesh_->positions[edges_[e][1]]);
  }
}

Vec3 BodyCollider::edge_normal(int e) const {
  const auto& ed = edges_[static_cast<std::size_t>(e)];
  const Vec3 n = vertex_normals_[ed[0]] + vertex_normals_[ed[1]];
  const double l = norm(n);
  return l > 1e-12 ? n / l : vertex_normals_[ed[0]];
}

void BodyCollider::update_primitive_boxes() {
  // Exactly the boxes the trees were built (refitted) from, rounded as they round them.
  vertex_fbox_.resize(mesh_->vertex_count());
  for (std::size_t v = 0; v < vertex_fbox_.size(); ++v)
    vertex_fbox_[v] = BvhBox::from(Aabb{mesh_->positions[v], mesh_->positions[v]});
  std::vector<Aabb> edge_boxes;
  build_edge_boxes(edge_boxes);
  edge_fbox_.resize(edge_boxes.size());
  for (std::size_t e = 0; e < edge_boxes.size(); ++e) edge_fbox_[e] = BvhBox::from(edge_boxes[e]);
}

std::size_t BodyCollider::push_cloth_triangles(const std::vector<Triangle>& faces,
                                               const std::vector<std::uint32_t>& face_masks,
                                               std::vector<Vec3>& x, const std::vector<double>& inv_mass,
                                               double thickness, const Executor& executor,
                                               const WeldedCopies* copies,
                                               const std::vector<unsigned char>* only_faces) {
  const std::size_t nf = faces.size();
  if (tri_contact_count_.size() != nf) {
    tri_contacts_.resize(nf * kMaxTriContacts);
    tri_contact_count_.assign(nf, 0);
    edge_contacts_.resize(nf * kMaxEdgeContacts);
    edge_contact_count_.assign(nf, 0);
    lists_valid_ = false;
  }
  // While the body moves every list is stale at every call: the trees are
  // searched directly until a call finds the body where it was twice. A
  // body moved every step is pushed against twice a step (collide, then
  // after the last self pass): lists made at the second call would be
  // thrown away at the next step's move, after one use.
  const bool use_lists = !body_moved_ && !moved_before_last_;
  moved_before_last_ = body_moved_;
  body_moved_ = false;
  if (!use_lists) {
    lists_valid_ = false;
  } else if (!lists_valid_) {
    update_primitive_boxes();
    push_reach_.assign(nf, Aabb{});
    push_vertices_.resize(nf * kMaxListed);
    push_edges_.resize(nf * kMaxListed);
    push_vertex_count_.assign(nf, 0);
    push_edge_count_.assign(nf, 0);
    listed_.assign(nf, 0);
    lists_valid_ = true;
  }
  const double h = thickness;
  // How far a triangle's box may grow past its box when listed: a cloth at
  // rest is listed once; a falling one about every two steps (a step moves a
  // vertex less than the thickness).
  const double margin = 2 * h;
  executor.for_each(
      0, nf,
      [&](std::size_t f) {
        if (only_faces && !(*only_faces)[f]) {  // left as it is: no contacts, not listed now
          tri_contact_count_[f] = edge_contact_count_[f] = 0;
          if (use_lists) listed_[f] = 0;
          return;
        }
        const Triangle& t = faces[f];
        const Vec3 a = x[t[0]], b = x[t[1]], c = x[t[2]];
        Aabb box;
        box.expand(a);
        box.expand(b);
        box.expand(c);
        const Aabb query = box.inflated(h);
        if (use_lists)
          listed_[f] = !push_reach_[f].contains(query.min) || !push_reach_[f].contains(query.max);
        if (use_lists && listed_[f]) {
          const Aabb reach = push_reach_[f] = query.inflated(margin);
          int nv = 0, ne = 0;
          int* vl = &push_vertices_[f * kMaxListed];
          int* el = &push_edges_[f * kMaxListed];
          vertex_tree_.for_each_overlap(reach, [&](int bv) {
            if (nv >= 0 && nv < kMaxListed)
              vl[nv++] = bv;
            else
              nv = -1;
          });
          edge_tree_.for_each_overlap(reach, [&](int be) {
            if (ne >= 0 && ne < kMaxListed)
              el[ne++] = be;
            else
              ne = -1;
          });
          push_vertex_count_[f] = nv;
          push_edge_count_[f] = ne;
        }
        int count = 0;
        const std::uint32_t mask = face_masks.empty() ? body_region::all : face_masks[f];
        // The triangle's plane, for cheap rejections that decide as the exact
        // tests below would (by margins far above their rounding; not on a
        // sliver, whose normal is not known that well).
        const Vec3 nt = cross(b - a, c - a);
        const double nt_len = norm(nt);
        const bool plane_known = nt_len * nt_len > kPlaneSine2 * squared_norm(b - a) * squared_norm(c - a);
        const auto vertex_contact = [&](int bv) {
          if (count == kMaxTriContacts || !(vertex_regions_[bv] & mask)) return;
          const Vec3& p = mesh_->positions[bv];
          // Farther than 2h from the plane: farther from the triangle.
          if (plane_known && std::abs(dot(p - a, nt)) > 2 * h * nt_len * (1 + kPlaneMargin)) return;
          const ClosestPoint cp = closest_point_on_triangle(p, a, b, c);
          // Only interior contacts: at the triangle's border the cloth vertices' own
          // closest-point response is the right one.
          if (cp.u <= 0 || cp.v <= 0 || cp.w <= 0) return;
          const Vec3& n = vertex_normals_[bv];
          const double sep = dot(cp.point - p, n);
          if (sep >= h || squared_norm(cp.point - p) >= 4 * h * h) return;
          tri_contacts_[f * kMaxTriContacts + count++] = {bv, static_cast<float>(cp.u),
                                                          static_cast<float>(cp.v), static_cast<float>(cp.w)};
        };
        if (!use_lists || push_vertex_count_[f] < 0) {
          vertex_tree_.for_each_overlap(query, vertex_contact);
        } else {
          const BvhBox fq = BvhBox::from(query);
          const int* vl = &push_vertices_[f * kMaxListed];
          for (int k = 0; k < push_vertex_count_[f]; ++k)
            if (vertex_fbox_[vl[k]].overlaps_branch_free(fq)) vertex_contact(vl[k]);
        }
        tri_contact_count_[f] = count;
        // Body edges through the triangle's interior.
        int edge_count = 0;
        const auto edge_contact = [&](int be) {
          if (edge_count == kMaxEdgeContacts || !(edge_regions_[be] & mask)) return;
          // A sliver: edge_under_triangle's own test (the same expression) finds nothing.
          if (!plane_known) return;
          const Vec3& p0 = mesh_->positions[edges_[be][0]];
          const Vec3& p1 = mesh_->positions[edges_[be][1]];
          // Cheap rejections by the ends' heights over the unnormalised
          // plane, each deciding as edge_under_triangle's result would (by a
          // relative margin far above the two computations' rounding): the
          // edge runs along the cloth, lies wholly deeper than the thickness
          // under it, or wholly more than kMaxEdgePoke thicknesses over it.
          const Vec3 ns = vertex_normals_[edges_[be][0]] + vertex_normals_[edges_[be][1]];
          if (const double ns_len = norm(ns); ns_len > 1e-12) {  // else edge_normal takes another normal
            const double side = dot(nt, ns);
            if (std::abs(side) < kMinFacing * (1 - kPlaneMargin) * nt_len * ns_len) return;
            const double s0 = dot(p0 - a, nt), s1 = dot(p1 - a, nt);
            const double high = side > 0 ? std::max(s0, s1) : -std::min(s0, s1);
            const double low = side > 0 ? std::min(s0, s1) : -std::max(s0, s1);
            if (high < -h * nt_len * (1 + kPlaneMargin)) return;
            if (low > kMaxEdgePoke * h * nt_len * (1 + kPlaneMargin)) return;
          }
          // Through the cloth, under it within the thickness, or wholly over
          // it by a little (a ridge through a cloth lying level under it);
          // an edge wholly over it by more is another part of the body.
          const EdgeUnderTriangle u = edge_under_triangle(p0, p1, a, b, c, edge_normal(be));
          if (!u.found || u.top() <= -h || (u.bottom() >= 0 && u.top() > kMaxEdgePoke * h)) return;
          edge_contacts_[f * kMaxEdgeContacts + edge_count++] = {be};
        };
        if (!use_lists || push_edge_count_[f] < 0) {
          edge_tree_.for_each_overlap(query, edge_contact);
        } else {
          const BvhBox fq = BvhBox::from(query);
          const int* el = &push_edges_[f * kMaxListed];
          for (int k = 0; k < push_edge_count_[f]; ++k)
            if (edge_fbox_[el[k]].overlaps_branch_free(fq)) edge_contact(el[k]);
        }
        edge_contact_count_[f] = edge_count;
      },
      128);
  if (use_lists)
    for (std::size_t f = 0; f < nf; ++f) push_listings_ += listed_[f];
  // Moves triangle t so that its point at barycentrics w goes `push` along n
  // (inverse-mass weighted). A corner weighs as its welded set and moves
  // every copy (the weld after the step then keeps the whole push); corners
  // that are copies of one set (a collapsed triangle at a dart's tip) are one
  // particle with their weights summed; a corner alone answers as itself.
  const auto answer = [&](const Triangle& t, const double w_at[3], const Vec3& n, double push) {
    double w[3] = {w_at[0], w_at[1], w_at[2]};
    double wm[3] = {inv_mass[t[0]], inv_mass[t[1]], inv_mass[t[2]]};
    if (copies) {
      for (int i = 0; i < 3; ++i) wm[i] = copies->inv_mass[t[i]];
      for (int i = 0; i < 3; ++i)
        for (int j = i + 1; j < 3; ++j)
          for (int u = copies->next[t[i]]; u != t[i] && w[j] != 0; u = copies->next[u])
            if (u == t[j]) w[i] += w[j], w[j] = 0;
    }
    double denom = 0;
    for (int i = 0; i < 3; ++i) denom += w[i] * w[i] * wm[i];
    if (denom <= 0) return false;
    const double lambda = push / denom;
    for (int i = 0; i < 3; ++i) {
      if (w[i] == 0) continue;
      const Vec3 d = n * (wm[i] * w[i] * lambda);
      x[t[i]] += d;
      if (copies)
        for (int u = copies->next[t[i]]; u != t[i]; u = copies->next[u]) x[u] += d;
    }
    return true;
  };
  // The answers run in rounds over the contacts found: an answer moves
  // corners shared with triangles answered before it in the round, which the
  // next round measures again (a cloth lying across a ridge, pushed off it
  // triangle by triangle, was left through it by a neighbour's push). A
  // round after the first answers only what needs more than kRoundSlack of
  // the thickness; an edge contact's pushes over all rounds share its cap.
  std::size_t answered = 0;
  edge_push_budget_.resize(nf * kMaxEdgeContacts * 2);
  for (int round = 0; round < kPushAnswerRounds; ++round) {
    const double slack = round == 0 ? 0.0 : kRoundSlack * h;
    const std::size_t before = answered;
    for (std::size_t f = 0; f < nf; ++f) {
      for (int k = 0; k < tri_contact_count_[f]; ++k) {
        const TriContact& tc = tri_contacts_[f * kMaxTriContacts + k];
        const Triangle& t = faces[f];
        const double w[3] = {tc.b0, tc.b1, tc.b2};
        const Vec3& n = vertex_normals_[tc.body_vertex];
        const Vec3 cp = x[t[0]] * w[0] + x[t[1]] * w[1] + x[t[2]] * w[2];
        const double C = dot(cp - mesh_->positions[tc.body_vertex], n) - h;
        if (C >= -slack) continue;
        answered += answer(t, w, n, -C);
      }
      // An edge through the cloth or within the thickness under it: the
      // triangle goes out along the edge's normal until both ends of the edge's
      // part under it are the thickness below it (each end measured again: other
      // answers have moved the triangle), by at most kMaxEdgePush per end and
      // call (a deep crossing clears over several calls, the step's increments
      // between). Both ends, so that a cloth lying across a ridge is lifted
      // level, not rocked from end to end.
      for (int k = 0; k < edge_contact_count_[f]; ++k) {
        const EdgeContact& ec = edge_contacts_[f * kMaxEdgeContacts + k];
        const Triangle& t = faces[f];
        const Vec3 n = edge_normal(ec.body_edge);
        const auto& ed = edges_[static_cast<std::size_t>(ec.body_edge)];
        for (int end = 0; end < 2; ++end) {
          const EdgeUnderTriangle u = edge_under_triangle(mesh_->positions[ed[0]], mesh_->positions[ed[1]],
                                                          x[t[0]], x[t[1]], x[t[2]], n);
          double& budget = edge_push_budget_[(f * kMaxEdgeContacts + k) * 2 + end];
          if (round == 0) budget = kMaxEdgePush * h;  // set whether or not round 0 pushes
          if (!u.found || u.height[end] + h <= slack) continue;
          const double push = std::min((u.height[end] + h) / u.facing, budget);
          if (push <= slack) continue;
          budget -= push;
          answered += answer(t, u.w[end], n, push);
        }
      }
    }
    if (answered == before) break;
  }
  return answered;
}

BodyCollider::~BodyCollider() = default;

int BodyCollider::group_for_mask(std::uint32_t mask) {
  for (std::size_t g = 0; g < groups_.size(); ++g)
    if (groups_[g].mask == mask) return static_cast<int>(g);
  Group group{mask, nullptr};
  if (!regions_.empty() && mask != body_region::all) {
    std::vector<int> faces;
    for (std::size_t f = 0; f < regions_.size(); ++f)
      if (regions_[f] & mask) faces.push_back(static_cast<int>(f));
    // A mask that matches nothing (or everything) falls back to the whole body:
    // an empty restriction would let the panel fall through the body.
    if (!faces.empty() && faces.size() < regions_.size())
      group.tree = std::make_unique<TriangleMeshBvh>(*mesh_, faces, BvhBuildOptions{}, *executor_);
  }
  groups_.push_back(std::move(group));
  return static_cast<int>(groups_.size()) - 1;
}

std::size_t BodyCollider::group_face_count(int group) const {
  const Group& g = groups_.at(group);
  return g.tree ? g.tree->face_count() : full_->face_count();
}

BodyContact BodyCollider::query(const Vec3& p, int group, double max_distance) const {
  const TriangleMeshBvh& tree = groups_[group].tree ? *groups_[group].tree : *full_;
  const TriangleMeshBvh::PointQuery q = tree.closest_point(p, max_distance);
  BodyContact c;
  if (q.face < 0) return c;
  c.face = q.face;
  c.point = q.point;
  const Vec3& n = face_normals_[q.face];
  const Vec3 d = p - q.point;
  const double dist = norm(d);
  const double side = dot(d, n);
  const double sign = side < 0 ? -1.0 : 1.0;
  c.signed_distance = sign * dist;
  // Push along the distance gradient (also right near edges and vertices);
  // on the surface itself along the face normal.
  c.normal = dist > 1e-12 ? d * (sign / dist) : n;
  if (dot(c.normal, n) < 0.0 && dist <= 1e-12) c.normal = n;
  return c;
}

void BodyCollider::prepare_vertex_queries(std::size_t vertices) {
  if (far_valid_ && far_.size() == vertices) return;
  far_.assign(vertices, 0);
  far_wait_.assign(vertices, 0);
  far_at_.resize(vertices);
  far_radius_.resize(vertices);
  far_valid_ = true;
}

BodyContact BodyCollider::query_vertex(std::size_t vertex, const Vec3& p, int group, double max_distance,
                                       double margin) {
  // Nothing within max_distance + margin at far_at_, and closer to it than the
  // margin (less a relative 1e-6 against rounding): nothing within max_distance.
  const double reach = margin * (1 - 1e-6);
  if (far_[vertex] && squared_norm(p - far_at_[vertex]) < reach * reach) return {};
  far_[vertex] = 0;
  const BodyContact c = query(p, group, max_distance);
  if (c.face >= 0) return c;
  // A vertex just beyond max_distance (hovering over the body) would pay a
  // second query per call: it asks again only every few calls.
  constexpr unsigned char kWait = 8;
  if (far_wait_[vertex] > 0) {
    --far_wait_[vertex];
  } else if (query(p, group, max_distance + margin).face < 0) {
    far_[vertex] = 1;
    far_at_[vertex] = p;
    far_radius_[vertex] = max_distance + margin;
  } else {
    far_wait_[vertex] = kWait;
  }
  return c;
}

bool BodyCollider::contains(const Vec3& p) const { return full_->contains(p); }

}  // namespace drape
