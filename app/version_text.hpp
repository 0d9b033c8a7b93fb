#pragma once

#include <string>

namespace spvtune::app {

/// What `spvtune --version` prints: the version, the git commit it was built from (with
/// "-modified" when the tree had uncommitted changes), and the Vulkan loader's version.
std::string version_text();

}  // namespace spvtune::app
