#include <cstdint>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/vulkan/compute_pipeline.hpp>
#include <spvtune/vulkan/spirv_module.hpp>

#include "spirv_test_support.hpp"
#include "vulkan_fixture.hpp"

// Workgroup sizes computed from specialization constants with OpSpecConstantOp
// (tests/vulkan/data/computed_size.spvasm: x = tile * 4, y = wide ? 2 : 1, z = 64 / tile).

namespace spvtune::vulkan::computed_workgroup_size_test {
namespace {

SpirvModule computed_size_module() {
    return SpirvModule::from_words(test::assemble("computed_size.spvasm", SPV_ENV_VULKAN_1_1),
                                   "computed_size.spvasm");
}

using Size = std::array<std::uint32_t, 3>;

}  // namespace

TEST_CASE("a computed workgroup size is reflected with its default value and its computation") {
    const SpirvModule module = computed_size_module();
    const ComputeEntryPoint& entry = module.entry_point("main");
    CHECK(entry.workgroup_size[0].size == 32);
    CHECK(entry.workgroup_size[1].size == 1);
    CHECK(entry.workgroup_size[2].size == 8);
    for (const WorkgroupDimension& dimension : entry.workgroup_size) {
        CHECK_FALSE(dimension.spec_id);
        CHECK(dimension.computed);
    }
    CHECK(specialized_workgroup_size(entry, {}) == Size{32, 1, 8});
}

TEST_CASE("a computed workgroup size follows the specialization values") {
    const SpirvModule module = computed_size_module();
    const ComputeEntryPoint& entry = module.entry_point("main");
    const std::vector<Specialization> values{{0, std::uint32_t{4}}, {1, true}};
    CHECK(specialized_workgroup_size(entry, values) == Size{16, 2, 16});
    const std::vector<Specialization> tile_only{{0, std::uint32_t{64}}};
    CHECK(specialized_workgroup_size(entry, tile_only) == Size{256, 1, 1});
}

TEST_CASE("a computed workgroup size that divides by zero is an error naming the axis") {
    const SpirvModule module = computed_size_module();
    const std::vector<Specialization> zero{{0, std::uint32_t{0}}};
    CHECK_THROWS_WITH_AS(specialized_workgroup_size(module.entry_point("main"), zero),
                         doctest::Contains("workgroup size z of 'main': UDiv divides by zero"),
                         SpirvError);
}

TEST_CASE("a pipeline takes the computed size and checks it against the device's limits") {
    spvtune::test::VulkanFixture vulkan;
    const SpirvModule module = computed_size_module();
    const std::vector<Specialization> values{{0, std::uint32_t{4}}, {1, true}};
    const ComputePipeline pipeline(vulkan.device(), module, "main", values);
    CHECK(pipeline.workgroup_size() == Size{16, 2, 16});

    // tile = 2048: x = 8192, beyond any device's maxComputeWorkGroupSize[0].
    const std::vector<Specialization> too_wide{{0, std::uint32_t{2048}}};
    CHECK_THROWS_WITH_AS(ComputePipeline(vulkan.device(), module, "main", too_wide),
                         doctest::Contains("workgroup size x = 8192 is outside 1.."), Error);
}

}  // namespace spvtune::vulkan::computed_workgroup_size_test
