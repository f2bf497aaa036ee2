// The generic AABB tree (bvh/bvh.h) against brute force over random boxes.

#include "drape/bvh/bvh.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <set>

#include "drape/bvh/wide_bvh.h"
#include "drape/core/exceptions.h"

using namespace drape;

namespace {

std::vector<Aabb> random_boxes(int n, double size, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 1), s(0, size);
  std::vector<Aabb> b(n);
  for (auto& x : b) {
    x.min = {u(rng), u(rng), u(rng)};
    x.max = x.min + Vec3{s(rng), s(rng), s(rng)};
  }
  return b;
}

struct Config {
  BvhBuilder builder;
  int leaf;
};
const Config kConfigs[] = {{BvhBuilder::midpoint, 1},
                           {BvhBuilder::midpoint, 4},
                           {BvhBuilder::binned_sah, 1},
                           {BvhBuilder::binned_sah, 4},
                           {BvhBuilder::binned_sah, 8}};

// Structural invariants: every primitive once, node boxes contain their
// children and primitives (conservatively), children after parents.
void expect_valid(const Bvh& t, std::span<const Aabb> boxes, int max_leaf) {
  ASSERT_EQ(t.primitive_count(), static_cast<int>(boxes.size()));
  std::vector<int> seen(boxes.size(), 0);
  for (int p : t.primitive_order()) ++seen[p];
  for (int s : seen) ASSERT_EQ(s, 1);
  const auto nodes = t.nodes();
  int leaves = 0;
  for (int i = 0; i < t.node_count(); ++i) {
    const BvhNode& n = nodes[i];
    if (n.count < 0) continue;
    const Aabb nb = n.box().to_aabb();
    if (n.is_leaf()) {
      ++leaves;
      EXPECT_LE(n.count, max_leaf);
      for (int k = n.index; k < n.index + n.count; ++k) {
        const Aabb& b = boxes[t.primitive_order()[k]];
        EXPECT_TRUE(nb.contains(b.min) && nb.contains(b.max));
        const Aabb pb = t.primitive_boxes()[k].to_aabb();
        EXPECT_TRUE(pb.contains(b.min) && pb.contains(b.max));
      }
    } else {
      EXPECT_GT(n.index, i);
      EXPECT_EQ(n.index % 2, 0);  // siblings share a cache line
      for (int c : {n.index, n.index + 1}) {
        const Aabb cb = nodes[c].box().to_aabb();
        EXPECT_TRUE(nb.contains(cb.min) && nb.contains(cb.max));
      }
    }
  }
  EXPECT_EQ(leaves, t.leaf_count());
  EXPECT_LE(t.depth(), Bvh::kMaxDepth);
}

std::vector<int> brute_overlap(std::span<const Aabb> boxes, const Aabb& q) {
  std::vector<int> r;
  for (int i = 0; i < static_cast<int>(boxes.size()); ++i)
    if (boxes[i].overlaps(q)) r.push_back(i);
  return r;
}

}  // namespace

TEST(Bvh, BoxQueriesMatchBruteForceForEveryBuilder) {
  const auto boxes = random_boxes(3000, 0.05, 1);
  const auto queries = random_boxes(300, 0.2, 2);
  for (const Config& c : kConfigs) {
    const Bvh t = Bvh::build(boxes, {c.builder, c.leaf});
    expect_valid(t, boxes, c.leaf);
    for (const Aabb& q : queries) {
      std::vector<int> got;
      t.for_each_overlap(q, [&](int p) { got.push_back(p); });
      std::sort(got.begin(), got.end());
      // Float boxes are rounded outwards: a superset, exact up to float rounding.
      const auto expect = brute_overlap(boxes, q);
      const auto loose = brute_overlap(boxes, q.inflated(1e-6));
      EXPECT_TRUE(std::includes(got.begin(), got.end(), expect.begin(), expect.end()));
      EXPECT_TRUE(std::includes(loose.begin(), loose.end(), got.begin(), got.end()));
    }
  }
}

// The 4-wide traversal finds what the binary one finds, before and after a refit.
TEST(BvhWide, BoxQueriesMatchTheBinaryTreeAndBruteForce) {
  auto boxes = random_boxes(3000, 0.05, 11);
  const auto queries = random_boxes(300, 0.2, 12);
  for (const Config& c : kConfigs) {
    Bvh t = Bvh::build(boxes, {c.builder, c.leaf});
    BvhWide w(t);
    for (int round = 0; round < 2; ++round) {
      for (const Aabb& q : queries) {
        std::vector<int> wide, binary;
        w.for_each_overlap(t, q, [&](int p) { wide.push_back(p); });
        t.for_each_overlap(q, [&](int p) { binary.push_back(p); });
        std::sort(wide.begin(), wide.end());
        std::sort(binary.begin(), binary.end());
        EXPECT_EQ(wide, binary);
        const auto expect = brute_overlap(boxes, q);
        EXPECT_TRUE(std::includes(wide.begin(), wide.end(), expect.begin(), expect.end()));
      }
      for (Aabb& b : boxes) b = b.inflated(0.01);  // then refit both and ask again
      t.refit(boxes);
      w.refit(t);
    }
  }
  // An unbounded query finds everything.
  const Bvh t = Bvh::build(boxes);
  const double inf = std::numeric_limits<double>::infinity();
  std::size_t all_binary = 0, all_wide = 0;
  t.for_each_overlap(Aabb{{-inf, -inf, -inf}, {inf, inf, inf}}, [&](int) { ++all_binary; });
  BvhWide(t).for_each_overlap(t, Aabb{{-inf, -inf, -inf}, {inf, inf, inf}}, [&](int) { ++all_wide; });
  EXPECT_EQ(all_binary, boxes.size());
  EXPECT_EQ(all_wide, boxes.size());
  const Bvh empty = Bvh::build(std::span<const Aabb>{});
  int calls = 0;
  BvhWide(empty).for_each_overlap(empty, Aabb{{-1e9, -1e9, -1e9}, {1e9, 1e9, 1e9}}, [&](int) { ++calls; });
  EXPECT_EQ(calls, 0);
}

TEST(Bvh, TreeVsTreeAndSelfMatchBruteForce) {
  const auto a = random_boxes(1500, 0.04, 3);
  const auto b = random_boxes(1200, 0.04, 4);
  std::set<std::pair<int, int>> cross, self;
  for (int i = 0; i < 1500; ++i)
    for (int j = 0; j < 1200; ++j)
      if (a[i].overlaps(b[j])) cross.insert({i, j});
  for (int i = 0; i < 1500; ++i)
    for (int j = i + 1; j < 1500; ++j)
      if (a[i].overlaps(a[j])) self.insert({i, j});
  for (const Config& c : kConfigs) {
    const Bvh ta = Bvh::build(a, {c.builder, c.leaf});
    const Bvh tb = Bvh::build(b, {BvhBuilder::binned_sah, 4});
    std::vector<std::pair<int, int>> got;
    ta.for_each_overlapping_pair(tb, [&](int i, int j) { got.emplace_back(i, j); });
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got.size(), cross.size());
    EXPECT_TRUE(std::equal(got.begin(), got.end(), cross.begin(), cross.end()));
    got.clear();
    ta.for_each_self_overlap([&](int i, int j) {
      EXPECT_LT(i, j);
      got.emplace_back(i, j);
    });
    std::sort(got.begin(), got.end());
    EXPECT_TRUE(std::adjacent_find(got.begin(), got.end()) == got.end());  // each pair once
    EXPECT_TRUE(std::equal(got.begin(), got.end(), self.begin(), self.end()));
  }
}

TEST(Bvh, RefitAfterDeformationMatchesBruteForce) {
  auto boxes = random_boxes(2000, 0.05, 5);
  for (const Config& c : kConfigs) {
    Bvh t = Bvh::build(boxes, {c.builder, c.leaf});
    std::mt19937 rng(6);
    std::normal_distribution<double> g(0, 0.1);
    auto moved = boxes;
    for (auto& b : moved) {
      const Vec3 d{g(rng), g(rng), g(rng)};
      b.min += d;
      b.max += d;
    }
    t.refit(moved);
    expect_valid(t, moved, c.leaf);
    for (const Aabb& q : random_boxes(200, 0.2, 7)) {
      std::vector<int> got;
      t.for_each_overlap(q, [&](int p) { got.push_back(p); });
      std::sort(got.begin(), got.end());
      const auto expect = brute_overlap(moved, q);
      EXPECT_TRUE(std::includes(got.begin(), got.end(), expect.begin(), expect.end()));
    }
  }
  Bvh t = Bvh::build(boxes);
  EXPECT_THROW(t.refit(std::span<const Aabb>(boxes).first(10)), InvalidInput);
}

TEST(Bvh, RigidTransformKeepsEveryOverlap) {
  const auto boxes = random_boxes(2000, 0.05, 8);
  Bvh t = Bvh::build(boxes);
  const RigidTransform tr{Mat3::rotation_axis_angle(normalized(Vec3{1, 2, 3}), 0.7), {0.3, -1, 2}};
  t.transform(tr);
  std::vector<Aabb> moved;
  for (const Aabb& b : boxes) moved.push_back(b.transformed(tr));
  expect_valid(t, moved, 4);
  // Every primitive is found at the box of its transformed corners.
  for (int i = 0; i < 2000; i += 7) {
    bool found = false;
    t.for_each_overlap(moved[i], [&](int p) { found = found || p == i; });
    EXPECT_TRUE(found);
  }
}

TEST(Bvh, EmptyAndDegenerateInputs) {
  const Bvh empty = Bvh::build(std::span<const Aabb>{});
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(empty.primitive_count(), 0);
  int calls = 0;
  empty.for_each_overlap(Aabb{{-1e9, -1e9, -1e9}, {1e9, 1e9, 1e9}}, [&](int) { ++calls; });
  empty.for_each_self_overlap([&](int, int) { ++calls; });
  empty.for_each_overlapping_pair(empty, [&](int, int) { ++calls; });
  EXPECT_EQ(calls, 0);

  // All boxes identical: no split separates them; the median fallback still
  // ends in small leaves with a bounded depth.
  std::vector<Aabb> same(1000, Aabb{{0, 0, 0}, {1, 1, 1}});
  for (BvhBuilder b : {BvhBuilder::midpoint, BvhBuilder::binned_sah}) {
    const Bvh t = Bvh::build(same, {b, 1});
    expect_valid(t, same, 1);
    EXPECT_LE(t.depth(), 12);
    long long pairs = 0;
    t.for_each_self_overlap([&](int, int) { ++pairs; });
    EXPECT_EQ(pairs, 1000LL * 999 / 2);
  }
  // Exponentially spaced points: a midpoint tree would be a chain; depth stays bounded.
  std::vector<Aabb> expo;
  for (int i = 0; i < 2000; ++i) {
    const double x = std::ldexp(1.0, -i / 2);
    expo.push_back({{x, 0, 0}, {x, 0, 0}});
  }
  const Bvh te = Bvh::build(expo, {BvhBuilder::midpoint, 1});
  expect_valid(te, expo, 1);

  std::vector<Aabb> bad = random_boxes(10, 0.1, 9);
  bad[3].max.y = NAN;
  EXPECT_THROW(Bvh::build(bad), InvalidInput);
  bad[3] = {{1, 1, 1}, {0, 0, 0}};
  EXPECT_THROW(Bvh::build(bad), InvalidInput);
  EXPECT_THROW(Bvh::build(random_boxes(10, 0.1, 9), {BvhBuilder::binned_sah, 0}), InvalidInput);
}

TEST(Bvh, ParallelAndSequentialBuildsAreIdentical) {
  const auto boxes = random_boxes(40000, 0.01, 10);  // large enough for parallel subtrees
  const Executor one(1), many(4);
  for (BvhBuilder b : {BvhBuilder::midpoint, BvhBuilder::binned_sah}) {
    const Bvh x = Bvh::build(boxes, {b, 4}, one), y = Bvh::build(boxes, {b, 4}, many);
    ASSERT_EQ(x.node_count(), y.node_count());
    EXPECT_TRUE(
        std::equal(x.primitive_order().begin(), x.primitive_order().end(), y.primitive_order().begin()));
    for (int i = 0; i < x.node_count(); ++i) {
      EXPECT_EQ(x.nodes()[i].index, y.nodes()[i].index);
      EXPECT_EQ(x.nodes()[i].count, y.nodes()[i].count);
    }
    expect_valid(y, boxes, 4);
    const Aabb q{{0.4, 0.4, 0.4}, {0.45, 0.45, 0.45}};
    std::vector<int> got;
    y.for_each_overlap(q, [&](int p) { got.push_back(p); });
    std::sort(got.begin(), got.end());
    const auto expect = brute_overlap(boxes, q);
    EXPECT_TRUE(std::includes(got.begin(), got.end(), expect.begin(), expect.end()));
    EXPECT_FALSE(expect.empty());
  }
}

TEST(Bvh, FloatBoxesRoundOutwards) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  std::uniform_int_distribution<int> e(-40, 40);
  for (int i = 0; i < 100000; ++i) {
    const double d = std::ldexp(u(rng), e(rng));
    const float lo = BvhBox::down(d), hi = BvhBox::up(d);
    ASSERT_LE(static_cast<double>(lo), d);
    ASSERT_GE(static_cast<double>(hi), d);
    EXPECT_LE(static_cast<double>(hi) - static_cast<double>(lo), std::abs(d) * 1e-6 + 1e-29);
  }
  for (double d : {0.0, -0.0, 1.0, -1.0, 1e-40, -1e-40}) {
    EXPECT_LE(static_cast<double>(BvhBox::down(d)), d);
    EXPECT_GE(static_cast<double>(BvhBox::up(d)), d);
  }
}

TEST(BvhWide, CollapsedTreeHoldsEveryPrimitiveOnceInsideItsBoxes) {
  // Every primitive in exactly one leaf lane; every lane box contains the
  // boxes below it (primitive boxes for leaves, child node lanes for inner
  // lanes); after a refit too.
  for (const Config& c : kConfigs) {
    std::vector<Aabb> boxes = random_boxes(3000, 0.05, 61);
    Bvh t = Bvh::build(boxes, {c.builder, c.leaf});
    BvhWide w(t);
    for (int pass = 0; pass < 2; ++pass) {
      const auto nodes = w.nodes();
      ASSERT_FALSE(nodes.empty());
      EXPECT_TRUE(w.in_float_range());
      std::vector<int> seen(boxes.size(), 0);
      auto lane_box = [](const BvhWideNode& n, int l) {
        return Aabb{{n.bounds[0][l], n.bounds[1][l], n.bounds[2][l]},
                    {n.bounds[3][l], n.bounds[4][l], n.bounds[5][l]}};
      };
      auto contains = [](const Aabb& outer, const Aabb& inner) {
        return outer.min.x <= inner.min.x && outer.min.y <= inner.min.y && outer.min.z <= inner.min.z &&
               outer.max.x >= inner.max.x && outer.max.y >= inner.max.y && outer.max.z >= inner.max.z;
      };
      for (std::size_t k = 0; k < nodes.size(); ++k) {
        const BvhWideNode& n = nodes[k];
        int lanes = 0;
        for (int l = 0; l < 4; ++l) {
          if (n.count[l] < 0) continue;
          ++lanes;
          const Aabb b = lane_box(n, l);
          if (n.count[l] > 0) {
            for (int i = n.child[l]; i < n.child[l] + n.count[l]; ++i) {
              ++seen[t.primitive_order()[i]];
              EXPECT_TRUE(contains(b, boxes[t.primitive_order()[i]]));
            }
          } else {
            ASSERT_GT(n.child[l], static_cast<int>(k));
            const BvhWideNode& ch = nodes[n.child[l]];
            for (int m = 0; m < 4; ++m) {
              if (ch.count[m] >= 0) {
                EXPECT_TRUE(contains(b, lane_box(ch, m)));
              }
            }
          }
        }
        EXPECT_GE(lanes, boxes.size() > 1 ? 2 : 1);
      }
      for (int s : seen) EXPECT_EQ(s, 1);
      // Move every box, refit both trees, check again.
      for (Aabb& b : boxes) {
        const Vec3 shift = Vec3{0.01, -0.02, 0.03} * b.min.x;
        b.min += shift;
        b.max += shift + Vec3{0.001, 0, 0};
      }
      t.refit(boxes);
      w.refit(t);
    }
  }
  EXPECT_TRUE(BvhWide(Bvh{}).empty());
}
