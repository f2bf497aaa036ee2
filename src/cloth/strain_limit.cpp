// Strain limiting (ClothSettings::strain_limit): after a step's XPBD
// iterations, Gauss-Seidel passes over the edge springs that shorten every
// edge longer than (1 + limit) L0 to that length (Provot 1995's "inverse
// dynamic" correction in position form; docs/CLOTH.md "Strain limiting").
#include <atomic>
#include <cmath>

#include "drape/cloth/seam_sewing.h"
#include "simulation_impl.h"

namespace drape {

// Invariant after each pass: every edge spring processed in it is at most
// (1 + limit) L0 long when it was visited (a later spring of the pass may
// lengthen it again; the passes converge on the limit), and every joined seam
// pair is one point again (welded), so the correction is not lost at the
// step's own weld. Compressed and slightly stretched edges are untouched: the
// limit is an inequality, not a constraint of its own rest length; a step in
// which no edge is over the limit leaves every position as it was.
// The limit acts under XPBD once gravity is on and every seam pair of a
// garment with seams is joined: the sewing needs panels that stretch towards
// their partners.
bool ClothSimulation::Impl::strain_limit_acts() const {
  return settings.integrator == Integrator::xpbd && settings.strain_limit > 0 &&
         settings.strain_limit_iterations > 0 && st.gravity_on_frame >= 0 && !model.seam_a.empty() &&
         all_joined();
}

// `held` (the rounds after the body's response): an edge between a vertex the
// body holds and a free one moves the free end only, so the limit lifts the
// hanging cloth instead of dragging what rests on the body off it (a skirt
// held by friction at the hips slid down with both ends moved); an edge
// with both ends held or both free moves both, mass-weighted.
void ClothSimulation::Impl::limit_strain(const std::vector<unsigned char>* held) {
  std::vector<Vec3>& x = st.x;
  const double stretch = 1 + settings.strain_limit;
  for (int pass = 0; pass < settings.strain_limit_iterations; ++pass) {
    std::atomic<bool> acted{false};
    for (std::size_t c = 0; c + 1 < model.colour_offsets.size(); ++c) {
      ex->for_each(
          model.colour_offsets[c], model.colour_offsets[c + 1],
          [&](std::size_t k) {
            const int s = model.colour_springs[k];
            if (!model.spring_is_edge[s]) return;
            const int a = model.spring_a[s], b = model.spring_b[s];
            double wa = model.inv_mass[a], wb = model.inv_mass[b];
            if (held && (*held)[a] != (*held)[b]) ((*held)[a] ? wa : wb) = 0;
            if (wa + wb == 0) return;
            const Vec3 d = x[b] - x[a];
            const double L = norm(d);
            const double L_max = stretch * model.spring_rest[s];
            if (!(L > L_max)) return;
            const Vec3 corr = d * ((L - L_max) / (L * (wa + wb)));
            x[a] += corr * wa;
            x[b] -= corr * wb;
            acted.store(true, std::memory_order_relaxed);
          },
          512);
    }
    if (!acted.load()) return;  // every edge within the limit: nothing to weld, no pass left to do
    if (!model.seam_a.empty()) weld_joined_pairs(model, st.seam_joined, x, moved, *ex);
  }
}

}  // namespace drape
