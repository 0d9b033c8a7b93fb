#include <doctest/doctest.h>

#include <spvtune/vulkan/spirv_module.hpp>

#include "spirv_test_support.hpp"

namespace spvtune::vulkan::spirv_reflection_test {
namespace {

using test::assemble;

const DescriptorBinding* find_binding(const ComputeEntryPoint& entry, std::uint32_t set,
                                      std::uint32_t binding) {
    for (const auto& candidate : entry.bindings) {
        if (candidate.set == set && candidate.binding == binding) {
            return &candidate;
        }
    }
    return nullptr;
}

void check_dimension(const WorkgroupDimension& dimension, std::uint32_t size,
                     std::optional<std::uint32_t> spec_id) {
    CHECK(dimension.size == size);
    CHECK(dimension.spec_id == spec_id);
}

TEST_CASE("spirv reflection: the shipped saxpy kernel") {
    const SpirvModule module = SpirvModule::load(test::kernel_dir / "saxpy.spv");
    REQUIRE(module.entry_points().size() == 1);
    const ComputeEntryPoint& entry = module.entry_point("main");
    CHECK(entry.name == "main");

    REQUIRE(entry.bindings.size() == 2);
    const DescriptorBinding& x = entry.bindings[0];
    CHECK(x.set == 0);
    CHECK(x.binding == 0);
    CHECK(x.type == DescriptorType::storage_buffer);
    CHECK(x.count == 1);
    CHECK(x.access == Access::read_only);
    CHECK(x.name == "X");
    CHECK(x.block_size == 0);
    CHECK(x.runtime_array_stride == 4);
    const DescriptorBinding& y = entry.bindings[1];
    CHECK(y.set == 0);
    CHECK(y.binding == 1);
    CHECK(y.type == DescriptorType::storage_buffer);
    CHECK(y.access == Access::read_write);
    CHECK(y.name == "Y");
    CHECK(y.runtime_array_stride == 4);

    CHECK(entry.push_constants.size == 8);
    REQUIRE(entry.push_constants.members.size() == 2);
    CHECK(entry.push_constants.members[0].name == "a");
    CHECK(entry.push_constants.members[0].offset == 0);
    CHECK(entry.push_constants.members[1].name == "n");
    CHECK(entry.push_constants.members[1].offset == 4);
    CHECK(entry.push_constants.members[1].size == 4);

    REQUIRE(entry.specialization_constants.size() == 1);
    CHECK(entry.specialization_constants[0].id == 0);
    CHECK(entry.specialization_constants[0].default_value == SpecializationValue{1U});
    CHECK(type_name(entry.specialization_constants[0].default_value) == "uint32");

    check_dimension(entry.workgroup_size[0], 1, 0U);
    check_dimension(entry.workgroup_size[1], 1, std::nullopt);
    check_dimension(entry.workgroup_size[2], 1, std::nullopt);
}

TEST_CASE("spirv reflection: literal workgroup size, every descriptor kind, named constants") {
    const SpirvModule module = SpirvModule::load(test::test_kernel_dir / "reflect_literal.spv");
    const ComputeEntryPoint& entry = module.entry_point("main");

    check_dimension(entry.workgroup_size[0], 64, std::nullopt);
    check_dimension(entry.workgroup_size[1], 2, std::nullopt);
    check_dimension(entry.workgroup_size[2], 1, std::nullopt);

    // set 0 binding 1 is declared but never used by main.
    CHECK(find_binding(entry, 0, 1) == nullptr);
    CHECK(entry.bindings.size() == 8);
    for (std::size_t i = 1; i < entry.bindings.size(); ++i) {
        const auto& a = entry.bindings[i - 1];
        const auto& b = entry.bindings[i];
        CHECK((a.set < b.set || (a.set == b.set && a.binding < b.binding)));
    }

    const DescriptorBinding* params = find_binding(entry, 0, 2);
    REQUIRE(params != nullptr);
    CHECK(params->type == DescriptorType::uniform_buffer);
    CHECK(params->name == "params");
    CHECK(params->block_size == 20);  // vec4 at 0, uint at 16
    CHECK(params->runtime_array_stride == 0);
    CHECK(params->access == Access::read_only);

    const DescriptorBinding* image = find_binding(entry, 0, 3);
    REQUIRE(image != nullptr);
    CHECK(image->type == DescriptorType::storage_image);
    CHECK(image->access == Access::read_only);
    CHECK(image->block_size == 0);

    const DescriptorBinding* textures = find_binding(entry, 0, 4);
    REQUIRE(textures != nullptr);
    CHECK(textures->type == DescriptorType::combined_image_sampler);
    CHECK(textures->count == 3);

    const DescriptorBinding* texels = find_binding(entry, 0, 5);
    REQUIRE(texels != nullptr);
    CHECK(texels->type == DescriptorType::uniform_texel_buffer);

    const DescriptorBinding* counters = find_binding(entry, 0, 6);
    REQUIRE(counters != nullptr);
    CHECK(counters->type == DescriptorType::storage_texel_buffer);
    CHECK(counters->access == Access::read_write);

    const DescriptorBinding* out = find_binding(entry, 1, 0);
    REQUIRE(out != nullptr);
    CHECK(out->type == DescriptorType::storage_buffer);
    CHECK(out->access == Access::write_only);
    CHECK(out->block_size == 16);  // float head[4] before the runtime array
    CHECK(out->runtime_array_stride == 8);

    const DescriptorBinding* separate_texture = find_binding(entry, 2, 0);
    REQUIRE(separate_texture != nullptr);
    CHECK(separate_texture->type == DescriptorType::sampled_image);
    const DescriptorBinding* separate_sampler = find_binding(entry, 2, 1);
    REQUIRE(separate_sampler != nullptr);
    CHECK(separate_sampler->type == DescriptorType::sampler);
    CHECK(to_vk(separate_sampler->type) == VK_DESCRIPTOR_TYPE_SAMPLER);

    const PushConstantBlock& push = entry.push_constants;
    CHECK(push.size == 96);
    REQUIRE(push.members.size() == 4);
    const std::array<std::string, 4> names{"n", "alpha", "offset", "transform"};
    const std::array<std::uint32_t, 4> offsets{0, 4, 16, 32};
    const std::array<std::uint32_t, 4> sizes{4, 4, 16, 64};
    for (std::size_t i = 0; i < 4; ++i) {
        CHECK(push.members[i].name == names[i]);
        CHECK(push.members[i].offset == offsets[i]);
        CHECK(push.members[i].size == sizes[i]);
    }

    const auto& constants = entry.specialization_constants;
    REQUIRE(constants.size() == 3);
    CHECK(constants[0].id == 3);
    CHECK(constants[0].name == "use_bias");
    CHECK(constants[0].default_value == SpecializationValue{true});
    CHECK(constants[1].id == 5);
    CHECK(constants[1].name == "shift");
    CHECK(constants[1].default_value == SpecializationValue{std::int32_t{-7}});
    CHECK(constants[2].id == 7);
    CHECK(constants[2].name == "scale");
    CHECK(constants[2].default_value == SpecializationValue{2.5F});
}

TEST_CASE("spirv reflection: the storage buffers whose runtime array's length is taken") {
    const SpirvModule module =
        SpirvModule::load(test::test_kernel_dir / "reflect_array_length.spv");
    const ComputeEntryPoint& entry = module.entry_point("main");
    REQUIRE(entry.bindings.size() == 4);
    const DescriptorBinding* sized = find_binding(entry, 0, 0);
    REQUIRE(sized != nullptr);
    CHECK(sized->uses_array_length);
    const DescriptorBinding* plain = find_binding(entry, 0, 1);
    REQUIRE(plain != nullptr);
    CHECK_FALSE(plain->uses_array_length);
    const DescriptorBinding* params = find_binding(entry, 0, 2);
    REQUIRE(params != nullptr);
    CHECK_FALSE(params->uses_array_length);
    // Only parts[1] is measured, through an access chain; the binding holds both.
    const DescriptorBinding* parts = find_binding(entry, 0, 3);
    REQUIRE(parts != nullptr);
    CHECK(parts->count == 2);
    CHECK(parts->uses_array_length);
}

TEST_CASE("spirv reflection: LocalSizeId, 64-bit constants and per-entry-point bindings") {
    const SpirvModule module = SpirvModule::from_words(
        assemble("local_size_id.spvasm", SPV_ENV_VULKAN_1_3), "local_size_id.spvasm");
    REQUIRE(module.entry_points().size() == 2);  // the fragment entry point is not offered
    CHECK(module.entry_points()[0].name == "main");
    CHECK(module.entry_points()[1].name == "second");

    const ComputeEntryPoint& main = module.entry_point("main");
    check_dimension(main.workgroup_size[0], 32, 10U);
    check_dimension(main.workgroup_size[1], 4, std::nullopt);
    check_dimension(main.workgroup_size[2], 2, 12U);
    REQUIRE(main.bindings.size() == 1);
    CHECK(main.bindings[0].binding == 0);
    CHECK(main.push_constants.size == 0);
    CHECK(main.push_constants.members.empty());

    const ComputeEntryPoint& second = module.entry_point("second");
    check_dimension(second.workgroup_size[0], 8, std::nullopt);
    check_dimension(second.workgroup_size[1], 8, std::nullopt);
    check_dimension(second.workgroup_size[2], 1, std::nullopt);
    REQUIRE(second.bindings.size() == 1);
    CHECK(second.bindings[0].binding == 1);

    const auto& constants = main.specialization_constants;
    REQUIRE(constants.size() == 5);  // SpecId 10 is declared twice but is one constant
    CHECK(constants[0].id == 10);
    CHECK(constants[0].name == "wg_x");
    CHECK(constants[1].id == 12);
    CHECK(constants[1].default_value == SpecializationValue{2U});
    CHECK(constants[2].id == 20);
    CHECK(constants[2].name == "big");
    CHECK(constants[2].default_value == SpecializationValue{std::int64_t{-5000000000}});
    CHECK(type_name(constants[2].default_value) == "int64");
    CHECK(constants[3].id == 21);
    CHECK(constants[3].default_value == SpecializationValue{~std::uint64_t{0}});
    CHECK(constants[4].id == 22);
    CHECK(constants[4].default_value == SpecializationValue{0.125});
    CHECK(type_name(constants[4].default_value) == "float64");
}

TEST_CASE("spirv reflection: descriptor types name their Vulkan counterparts") {
    CHECK(to_string(DescriptorType::storage_buffer) == "storage buffer");
    CHECK(to_vk(DescriptorType::storage_buffer) == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
    CHECK(to_string(DescriptorType::uniform_texel_buffer) == "uniform texel buffer");
    CHECK(to_vk(DescriptorType::uniform_texel_buffer) == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER);
    CHECK(to_vk(DescriptorType::combined_image_sampler) ==
          VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER);
    CHECK(to_vk(DescriptorType::acceleration_structure) ==
          VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR);
    CHECK(type_name(SpecializationValue{1.0F}) == "float32");
}

}  // namespace
}  // namespace spvtune::vulkan::spirv_reflection_test
