#include "validation.hpp"

#include <spirv-tools/libspirv.hpp>

#include <spvtune/vulkan/error.hpp>

namespace spvtune::vulkan::detail {
namespace {

struct TargetEnv {
    spv_target_env env;
    const char* description;
};

// The oldest Vulkan environment that accepts the module's SPIR-V version: its rules are what any
// driver able to load the module enforces, and newer environments would not add checks for it.
TargetEnv target_env_for(std::uint32_t version_word, const std::string& display_name) {
    const std::uint32_t major = (version_word >> 16) & 0xffU;
    const std::uint32_t minor = (version_word >> 8) & 0xffU;
    if (major == 1) {
        switch (minor) {
            case 0:
                return {SPV_ENV_VULKAN_1_0, "Vulkan 1.0"};
            case 1:
            case 2:
            case 3:
                return {SPV_ENV_VULKAN_1_1, "Vulkan 1.1"};
            case 4:
                return {SPV_ENV_VULKAN_1_1_SPIRV_1_4, "Vulkan 1.1 with SPIR-V 1.4"};
            case 5:
                return {SPV_ENV_VULKAN_1_2, "Vulkan 1.2"};
            case 6:
                return {SPV_ENV_VULKAN_1_3, "Vulkan 1.3"};
            default:
                break;
        }
    }
    throw SpirvError("'" + display_name + "' declares SPIR-V version " + std::to_string(major) +
                     "." + std::to_string(minor) +
                     ", expected 1.0 to 1.6 (the versions Vulkan 1.0 to 1.3 accept)");
}

}  // namespace

void validate_spirv(std::span<const std::uint32_t> words, const std::string& display_name) {
    const TargetEnv target = target_env_for(words[1], display_name);
    spvtools::SpirvTools tools(target.env);
    std::string messages;
    tools.SetMessageConsumer([&messages](spv_message_level_t, const char*,
                                         const spv_position_t& position, const char* message) {
        if (!messages.empty()) {
            messages += '\n';
        }
        messages += "instruction " + std::to_string(position.index) + ": " + message;
    });
    if (!tools.Validate(words.data(), words.size(), spvtools::ValidatorOptions())) {
        throw SpirvError(
            "'" + display_name + "' failed SPIR-V validation (" + target.description +
            " rules): " + (messages.empty() ? "no message from the validator" : messages));
    }
}

}  // namespace spvtune::vulkan::detail
