#pragma once
// Pictures of the lab tests for a person to look at.

#include "drape/fabric_lab/cantilever.h"
#include "drape/render/image.h"

namespace drape {

/// Side view of the settled cantilever strip: the ledge, the 41.5 degree line
/// from its edge, and the strip's centre line.
Image cantilever_picture(const CantileverResult& result);

}  // namespace drape
