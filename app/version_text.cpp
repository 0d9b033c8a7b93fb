#include "version_text.hpp"

#include <spvtune_git_commit.hpp>

#include <spvtune/vulkan/instance.hpp>

namespace spvtune::app {

std::string version_text() {
    return std::string("spvtune ") + SPVTUNE_VERSION + " (commit " + SPVTUNE_GIT_COMMIT +
           ")\nVulkan loader " + vulkan::loader_version();
}

}  // namespace spvtune::app
