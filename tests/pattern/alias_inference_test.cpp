// Aliases read from a panel's placement and seams when its name says nothing
// (a user's own pattern: "Piece 3"), checked against the aliases the
// designers' own panel names give.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "drape/pattern/alias.h"
#include "drape/pattern/pattern_io.h"

namespace drape {
namespace {

namespace fs = std::filesystem;
const fs::path kData = fs::path(DRAPE_DATA_DIR) / "patterns";
const fs::path kFixtures = fs::path(DRAPE_TEST_DATA_DIR) / "patterns";

// The pattern with every panel renamed "piece_<i>" and its alias inferred
// again from placement and seams alone (stitches refer to panels by index).
Pattern anonymous(Pattern pat) {
  for (std::size_t i = 0; i < pat.panels.size(); ++i) {
    pat.panels[i].name = "piece_" + std::to_string(i);
    pat.panels[i].alias.clear();
  }
  pat.warnings.clear();
  assign_aliases(pat, {});
  return pat;
}

TEST(AliasInference, NamelessPanelsGetTheAliasTheirNamesGive) {
  const std::vector<fs::path> files = {kData / "garmentcode/shirt_mean_specification.json",
                                       kData / "garmentcode/flare_skirt_specification.json",
                                       kData / "gpg/pants_straight_sides.json",
                                       kData / "gpg/skirt_2_panels.json",
                                       kData / "gpg/dress.json",
                                       kData / "gpg/jacket.json",
                                       kFixtures / "gpg_jacket_hood_sleeveless.json",
                                       kFixtures / "gpg_skirt_waistband.json",
                                       kFixtures / "gpg_jumpsuit.json",
                                       kFixtures / "gc_strapless_godet_dress_waistband.json"};
  int compared = 0, sleeves = 0, bands = 0, skirt_sides = 0, legs = 0;
  for (const fs::path& f : files) {
    const Pattern named = load_pattern(f);
    const Pattern nameless = anonymous(named);
    for (std::size_t i = 0; i < named.panels.size(); ++i) {
      const AliasInfo truth = parse_alias(named.panels[i].alias);
      if (truth.part == AliasPart::unknown) continue;
      const AliasInfo got = parse_alias(nameless.panels[i].alias);
      EXPECT_EQ(got.part, truth.part) << f.filename() << " " << named.panels[i].name;
      EXPECT_EQ(got.side, truth.side) << f.filename() << " " << named.panels[i].name;
      EXPECT_EQ(got.facing, truth.facing) << f.filename() << " " << named.panels[i].name;
      ++compared;
      sleeves += truth.part == AliasPart::sleeve;
      bands += truth.part == AliasPart::waistband;
      skirt_sides += truth.part == AliasPart::skirt && truth.side != AliasSide::centre;
      legs += truth.part == AliasPart::leg;
    }
  }
  // The cases the placement rules are for are all in the set: sleeves beside
  // the torso, waistbands, skirt pieces of one side (the godets: placed like
  // trouser legs, not sewn into tubes) and real trouser legs.
  EXPECT_GE(compared, 63);
  EXPECT_GE(sleeves, 16);
  EXPECT_GE(bands, 6);
  EXPECT_GE(skirt_sides, 4);
  EXPECT_GE(legs, 8);
}

TEST(AliasInference, ALegPlacedPieceIsASkirtUnlessSewnIntoATube) {
  // The trousers' front and back of one leg meet at the out- and inseam; cut
  // the inseam stitch and the same pieces are two halves of a skirt.
  Pattern pants = load_pattern(kData / "gpg/pants_straight_sides.json");
  Pattern nameless = anonymous(pants);
  for (const Panel& p : nameless.panels) EXPECT_EQ(parse_alias(p.alias).part, AliasPart::leg) << p.alias;
  // Keep, between two panels of one side, only the first of their stitches.
  std::vector<Stitch> kept;
  for (const Stitch& s : pants.stitches) {
    const AliasInfo a = parse_alias(pants.panels[static_cast<std::size_t>(s.a.panel)].alias);
    const AliasInfo b = parse_alias(pants.panels[static_cast<std::size_t>(s.b.panel)].alias);
    bool seen = false;
    for (const Stitch& k : kept)
      seen |= (k.a.panel == s.a.panel && k.b.panel == s.b.panel) ||
              (k.a.panel == s.b.panel && k.b.panel == s.a.panel);
    if (a.side == b.side && seen) continue;
    kept.push_back(s);
  }
  ASSERT_LT(kept.size(), pants.stitches.size());
  pants.stitches = kept;
  for (const Panel& p : anonymous(pants).panels)
    EXPECT_EQ(parse_alias(p.alias).part, AliasPart::skirt) << p.alias;
}

}  // namespace
}  // namespace drape
