#pragma once

#include <algorithm>
#include <chrono>
#include <optional>
#include <string_view>

#include <spvtune/vulkan/device.hpp>

namespace spvtune::run {

/// The fence timeout under a kernel timeout: the engine's default, or the kernel timeout plus
/// the 1 s a request gets for transfers when that is longer, so that the option which raises
/// one raises the other.
inline std::chrono::milliseconds fence_timeout_for(std::optional<double> kernel_timeout_s) {
    const std::chrono::milliseconds least = vulkan::DeviceOptions{}.fence_timeout;
    if (!kernel_timeout_s) {
        return least;
    }
    const auto wanted = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::duration<double>(*kernel_timeout_s + 1));
    return std::max(least, wanted);
}

/// What a dispatch that missed the fence timeout but finished says to do.
inline constexpr std::string_view fence_timeout_hint =
    "raise the kernel timeout (tune --kernel-timeout SECONDS, or the problem's "
    "settings.kernel_timeout_s), which the fence timeout follows";

}  // namespace spvtune::run
