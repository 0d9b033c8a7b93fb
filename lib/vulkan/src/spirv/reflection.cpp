#include <array>
#include <cstddef>

#include <spvtune/vulkan/spirv_reflection.hpp>

namespace spvtune::vulkan {
namespace {

struct DescriptorTypeInfo {
    std::string_view name;
    VkDescriptorType vk;
};

// Indexed by DescriptorType, in its declaration order.
constexpr std::array<DescriptorTypeInfo, 9> descriptor_types{{
    {"sampler", VK_DESCRIPTOR_TYPE_SAMPLER},
    {"combined image sampler", VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER},
    {"sampled image", VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE},
    {"storage image", VK_DESCRIPTOR_TYPE_STORAGE_IMAGE},
    {"uniform texel buffer", VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER},
    {"storage texel buffer", VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER},
    {"uniform buffer", VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER},
    {"storage buffer", VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
    {"acceleration structure", VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR},
}};
static_assert(static_cast<std::size_t>(DescriptorType::acceleration_structure) + 1 ==
                  descriptor_types.size(),
              "every DescriptorType needs a row");

const DescriptorTypeInfo& info(DescriptorType type) noexcept {
    return descriptor_types[static_cast<std::size_t>(type)];
}

}  // namespace

std::string_view to_string(DescriptorType type) noexcept {
    return info(type).name;
}

VkDescriptorType to_vk(DescriptorType type) noexcept {
    return info(type).vk;
}

std::string_view type_name(const SpecializationValue& value) noexcept {
    // Indexed like the alternatives of SpecializationValue.
    static constexpr std::array<std::string_view, 12> names{
        "bool",    "int32", "uint32", "float32", "int64",  "uint64",
        "float64", "int8",  "uint8",  "int16",   "uint16", "float16"};
    static_assert(names.size() == std::variant_size_v<SpecializationValue>);
    return value.valueless_by_exception() ? "none" : names[value.index()];
}

}  // namespace spvtune::vulkan
