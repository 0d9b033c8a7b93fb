// The example at the top of <spvtune/vulkan/vulkan.hpp>, compiled and run with that header alone,
// under the validation layer: saxpy run once, checked, and timed.
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/vulkan/vulkan.hpp>

namespace front_door_test {

namespace {

using namespace spvtune;

std::vector<float> floats(const std::vector<std::byte>& bytes) {
    std::vector<float> values(bytes.size() / sizeof(float));
    std::memcpy(values.data(), bytes.data(), values.size() * sizeof(float));
    return values;
}

}  // namespace

TEST_CASE("the vulkan front door's example runs saxpy once, correctly, and times it") {
    std::vector<std::string> messages;
    vulkan::InstanceOptions options;
    options.validation = true;
    options.validation_sink = [&messages](const std::string& message) {
        messages.push_back(message);
    };
    {
        vulkan::Instance instance(options);
        vulkan::Device device(instance, vulkan::select_device(instance.devices(), ""));
        const auto module =
            vulkan::SpirvModule::load(std::string(SPVTUNE_KERNEL_DIR) + "/saxpy.spv");
        const vulkan::Specialization workgroup{0, std::uint32_t{64}};
        vulkan::ComputePipeline pipeline(device, module, "main", std::span(&workgroup, 1));

        const std::uint32_t n = 1000;
        const float a = 2.0f;
        const auto x_bytes =
            vulkan::make_fill(vulkan::ElementType::f32, n, vulkan::FillRandom{1, -1, 1});
        vulkan::Buffer x(device, n * sizeof(float));
        vulkan::Buffer y(device, n * sizeof(float));
        x.upload(x_bytes);
        y.upload(vulkan::make_fill(vulkan::ElementType::f32, n, vulkan::FillZeros{}));
        const vulkan::BufferBinding bindings[] = {{0, 0, &x}, {0, 1, &y}};
        std::vector<std::byte> push_constants(8);
        std::memcpy(push_constants.data(), &a, 4);
        std::memcpy(push_constants.data() + 4, &n, 4);
        vulkan::ComputeJob job(device, pipeline, bindings, push_constants, {(n + 63) / 64, 1, 1});

        job.run();
        const std::vector<float> in = floats(x_bytes);
        const std::vector<float> out = floats(y.download());
        REQUIRE(out.size() == n);
        for (std::uint32_t i = 0; i < n; ++i) {
            CHECK(out[i] == a * in[i]);
        }

        vulkan::BatchedTimer timer;
        const vulkan::DispatchTiming timing = timer.sample(job);
        CHECK(timing.per_dispatch_ns > 0);
        CHECK(timing.dispatches >= 1);
    }
    CHECK(messages.empty());
}

}  // namespace front_door_test
