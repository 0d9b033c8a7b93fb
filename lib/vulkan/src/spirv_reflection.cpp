#include <spvtune/vulkan/spirv_reflection.hpp>

namespace spvtune::vulkan {

std::string_view to_string(DescriptorType type) noexcept {
    switch (type) {
        case DescriptorType::sampler:
            return "sampler";
        case DescriptorType::combined_image_sampler:
            return "combined image sampler";
        case DescriptorType::sampled_image:
            return "sampled image";
        case DescriptorType::storage_image:
            return "storage image";
        case DescriptorType::uniform_texel_buffer:
            return "uniform texel buffer";
        case DescriptorType::storage_texel_buffer:
            return "storage texel buffer";
        case DescriptorType::uniform_buffer:
            return "uniform buffer";
        case DescriptorType::storage_buffer:
            return "storage buffer";
        case DescriptorType::acceleration_structure:
            return "acceleration structure";
    }
    return "unknown descriptor type";
}

VkDescriptorType to_vk(DescriptorType type) noexcept {
    switch (type) {
        case DescriptorType::sampler:
            return VK_DESCRIPTOR_TYPE_SAMPLER;
        case DescriptorType::combined_image_sampler:
            return VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
        case DescriptorType::sampled_image:
            return VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
        case DescriptorType::storage_image:
            return VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
        case DescriptorType::uniform_texel_buffer:
            return VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
        case DescriptorType::storage_texel_buffer:
            return VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
        case DescriptorType::uniform_buffer:
            return VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
        case DescriptorType::storage_buffer:
            return VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        case DescriptorType::acceleration_structure:
            return VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR;
    }
    return VK_DESCRIPTOR_TYPE_MAX_ENUM;
}

std::string_view type_name(const SpecializationValue& value) noexcept {
    // Indexed like the alternatives of SpecializationValue.
    static constexpr std::string_view names[] = {"bool",  "int32",  "uint32", "float32",
                                                 "int64", "uint64", "float64"};
    static_assert(std::size(names) == std::variant_size_v<SpecializationValue>);
    return value.valueless_by_exception() ? "none" : names[value.index()];
}

}  // namespace spvtune::vulkan
