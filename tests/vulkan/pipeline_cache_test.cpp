// VkPipelineCache data from disk is hostile input: its header must name this device and driver
// before a driver sees it.
#include <cstring>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/vulkan/compute_pipeline.hpp>
#include <spvtune/vulkan/pipeline_cache.hpp>
#include <spvtune/vulkan/spirv_module.hpp>

#include "spirv_test_support.hpp"
#include "vulkan_fixture.hpp"

namespace pipeline_cache_test {

using namespace spvtune;
using namespace spvtune::vulkan;

namespace {

DeviceIdentity some_device() {
    DeviceIdentity identity;
    identity.vendor_id = 0x10005;
    identity.device_id = 0x0000;
    for (std::size_t i = 0; i < identity.pipeline_cache_uuid.size(); ++i) {
        identity.pipeline_cache_uuid[i] = static_cast<std::uint8_t>(i * 3 + 1);
    }
    return identity;
}

std::vector<std::byte> data_for(const DeviceIdentity& identity, std::size_t extra = 16) {
    VkPipelineCacheHeaderVersionOne header{};
    header.headerSize = sizeof header;
    header.headerVersion = VK_PIPELINE_CACHE_HEADER_VERSION_ONE;
    header.vendorID = identity.vendor_id;
    header.deviceID = identity.device_id;
    std::memcpy(header.pipelineCacheUUID, identity.pipeline_cache_uuid.data(), VK_UUID_SIZE);
    std::vector<std::byte> data(sizeof header + extra, std::byte{0x5a});
    std::memcpy(data.data(), &header, sizeof header);
    return data;
}

template <class Field>
void patch(std::vector<std::byte>& data, std::size_t offset, Field value) {
    std::memcpy(data.data() + offset, &value, sizeof value);
}

}  // namespace

TEST_CASE("pipeline cache data whose header names this device and driver is accepted") {
    const DeviceIdentity identity = some_device();
    CHECK_FALSE(pipeline_cache_data_problem(data_for(identity), identity));
    CHECK_FALSE(pipeline_cache_data_problem({}, identity));  // an empty cache
}

TEST_CASE("pipeline cache data for another device, driver or header version is rejected") {
    const DeviceIdentity identity = some_device();
    std::vector<std::byte> data = data_for(identity);
    SUBCASE("another pipeline cache UUID (another driver build)") {
        data[offsetof(VkPipelineCacheHeaderVersionOne, pipelineCacheUUID) + 5] ^= std::byte{1};
        const auto problem = pipeline_cache_data_problem(data, identity);
        REQUIRE(problem);
        CHECK(problem->find("UUID") != std::string::npos);
    }
    SUBCASE("another vendor") {
        patch(data, offsetof(VkPipelineCacheHeaderVersionOne, vendorID), std::uint32_t{0x10de});
        CHECK(pipeline_cache_data_problem(data, identity));
    }
    SUBCASE("another device") {
        patch(data, offsetof(VkPipelineCacheHeaderVersionOne, deviceID), std::uint32_t{7});
        CHECK(pipeline_cache_data_problem(data, identity));
    }
    SUBCASE("another header version") {
        patch(data, offsetof(VkPipelineCacheHeaderVersionOne, headerVersion), std::uint32_t{2});
        CHECK(pipeline_cache_data_problem(data, identity));
    }
    SUBCASE("a header size too small, or larger than the data") {
        patch(data, 0, std::uint32_t{8});
        CHECK(pipeline_cache_data_problem(data, identity));
        patch(data, 0, static_cast<std::uint32_t>(data.size() + 1));
        CHECK(pipeline_cache_data_problem(data, identity));
        patch(data, 0, std::uint32_t{0xffffffff});
        CHECK(pipeline_cache_data_problem(data, identity));
    }
    SUBCASE("a truncated header") {
        for (std::size_t size = 1; size < sizeof(VkPipelineCacheHeaderVersionOne); ++size) {
            CAPTURE(size);
            CHECK(pipeline_cache_data_problem(std::span(data).first(size), identity));
        }
    }
}

TEST_CASE("a pipeline cache seeded with its own data is used, and foreign or garbage data is not") {
    spvtune::test::VulkanFixture vulkan;
    const SpirvModule module = SpirvModule::load(vulkan::test::kernel_dir / "saxpy.spv");
    std::vector<std::byte> kept;
    {
        PipelineCache cache(vulkan.device(), {});
        CHECK_FALSE(cache.seeded());
        ComputePipeline pipeline(vulkan.device(), module, "main", {}, cache.handle());
        kept = cache.data();
    }
    CHECK_FALSE(pipeline_cache_data_problem(kept, vulkan.device().info().identity));
    PipelineCache again(vulkan.device(), kept);
    CHECK(again.seeded());
    CHECK_FALSE(again.rejected());
    ComputePipeline pipeline(vulkan.device(), module, "main", {}, again.handle());

    std::vector<std::byte> foreign = kept;
    foreign[offsetof(VkPipelineCacheHeaderVersionOne, pipelineCacheUUID)] ^= std::byte{0xff};
    PipelineCache rejected(vulkan.device(), foreign);
    CHECK_FALSE(rejected.seeded());
    CHECK(rejected.rejected());
    const std::vector<std::byte> garbage(kept.size(), std::byte{0xee});
    CHECK_FALSE(PipelineCache(vulkan.device(), garbage).seeded());
}

}  // namespace pipeline_cache_test
