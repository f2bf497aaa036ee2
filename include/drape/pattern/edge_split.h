#pragma once
// Splitting a panel edge in two without changing the garment: the outline
// keeps its shape, and a sewn edge's partner is split at the point sewn to the
// split point, so the stitch becomes two that sew the same points together.
// Grading (src/body/pattern_grading.cpp) splits an edge where the grading
// factor peaks along it, so each half can follow the factor with one cubic.

#include <vector>

#include "drape/pattern/pattern.h"

namespace drape {

/// Indices into `pattern.stitches` of the stitches with a side on edge
/// `edge` of panel `panel`, in order (none for a free edge; one for an edge
/// sewn once; a stitch sewing the edge to itself is listed once).
std::vector<int> stitches_of_edge(const Pattern& pattern, int panel, int edge);

/// The curve parameter of edge `g` at arc-length fraction `s` in [0, 1]
/// (s = 0.5: the point halfway along the edge's length).
double parameter_at_length_fraction(const EdgeGeometry& g, double s);

/// Arc-length fraction in [0, 1] of edge `g`'s point at curve parameter `t`.
double length_fraction_at_parameter(const EdgeGeometry& g, double t);

/// Splits edge `edge` of panel `panel` at arc-length fraction `s` (0 < s < 1)
/// into two edges meeting at a new outline vertex (appended to the panel's
/// vertices); both halves keep the edge's label. Every stitch side naming a
/// later edge of that panel is renumbered. When the edge is sewn (one stitch),
/// the other side is split at the point the mesher sews to the split point
/// (fraction 1 - s of its length, s with right_wrong) and the stitch becomes
/// two, the first sewing the halves that hold the original stitch's side-a start.
/// Returns false and leaves the pattern unchanged when s is not inside (0, 1),
/// the edge is in more than one stitch, its partner edge is in more than one,
/// or the stitch sews the edge to itself.
bool split_edge(Pattern& pattern, int panel, int edge, double s);

/// Splits both sides of stitch `stitch`, side a at arc-length fraction s_a
/// and side b at s_b (each in (0, 1)), and makes the stitch two that sew
/// the split points together: the first holds side a's first half, its
/// partner the half of b sewn to it as before (b's second half when the end
/// meets the start, its first with right_wrong). With s_b other than the
/// point sewn to s_a (split_edge's choice) the points between are sewn a
/// little apart from where they were, each piece proportionally. Returns
/// false and leaves the pattern unchanged when a fraction is outside (0, 1),
/// either edge is in another stitch, or the stitch sews an edge to itself.
bool split_stitch(Pattern& pattern, int stitch, double s_a, double s_b);

}  // namespace drape
