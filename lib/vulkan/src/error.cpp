#include <string_view>
#include <utility>

#include <spvtune/base/enum_names.hpp>
#include <spvtune/vulkan/error.hpp>

namespace spvtune::vulkan {

namespace {

#define SPVTUNE_RESULT_NAME(name)     \
    std::pair {                       \
        name, std::string_view(#name) \
    }
constexpr base::EnumNames<VkResult, 25> result_names{{
    SPVTUNE_RESULT_NAME(VK_SUCCESS),
    SPVTUNE_RESULT_NAME(VK_NOT_READY),
    SPVTUNE_RESULT_NAME(VK_TIMEOUT),
    SPVTUNE_RESULT_NAME(VK_EVENT_SET),
    SPVTUNE_RESULT_NAME(VK_EVENT_RESET),
    SPVTUNE_RESULT_NAME(VK_INCOMPLETE),
    SPVTUNE_RESULT_NAME(VK_ERROR_OUT_OF_HOST_MEMORY),
    SPVTUNE_RESULT_NAME(VK_ERROR_OUT_OF_DEVICE_MEMORY),
    SPVTUNE_RESULT_NAME(VK_ERROR_INITIALIZATION_FAILED),
    SPVTUNE_RESULT_NAME(VK_ERROR_DEVICE_LOST),
    SPVTUNE_RESULT_NAME(VK_ERROR_MEMORY_MAP_FAILED),
    SPVTUNE_RESULT_NAME(VK_ERROR_LAYER_NOT_PRESENT),
    SPVTUNE_RESULT_NAME(VK_ERROR_EXTENSION_NOT_PRESENT),
    SPVTUNE_RESULT_NAME(VK_ERROR_FEATURE_NOT_PRESENT),
    SPVTUNE_RESULT_NAME(VK_ERROR_INCOMPATIBLE_DRIVER),
    SPVTUNE_RESULT_NAME(VK_ERROR_TOO_MANY_OBJECTS),
    SPVTUNE_RESULT_NAME(VK_ERROR_FORMAT_NOT_SUPPORTED),
    SPVTUNE_RESULT_NAME(VK_ERROR_FRAGMENTED_POOL),
    SPVTUNE_RESULT_NAME(VK_ERROR_UNKNOWN),
    SPVTUNE_RESULT_NAME(VK_ERROR_OUT_OF_POOL_MEMORY),
    SPVTUNE_RESULT_NAME(VK_ERROR_INVALID_EXTERNAL_HANDLE),
    SPVTUNE_RESULT_NAME(VK_ERROR_FRAGMENTATION),
    SPVTUNE_RESULT_NAME(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS),
    SPVTUNE_RESULT_NAME(VK_PIPELINE_COMPILE_REQUIRED),
    SPVTUNE_RESULT_NAME(VK_ERROR_INVALID_SHADER_NV),
}};
#undef SPVTUNE_RESULT_NAME

}  // namespace

std::string to_string(VkResult result) {
    if (const auto name = base::find_name(result_names, result)) {
        return std::string(*name);
    }
    return "VkResult(" + std::to_string(static_cast<int>(result)) + ")";
}

VulkanCallError::VulkanCallError(std::string call, VkResult result)
    : Error(call + " failed: " + to_string(result)), call_(std::move(call)), result_(result) {}

DeviceLostError::DeviceLostError(std::string call)
    : VulkanCallError(std::move(call), VK_ERROR_DEVICE_LOST) {}

void check(VkResult result, const char* call) {
    if (result >= VK_SUCCESS) {
        return;
    }
    if (result == VK_ERROR_DEVICE_LOST) {
        throw DeviceLostError(call);
    }
    throw VulkanCallError(call, result);
}

}  // namespace spvtune::vulkan
