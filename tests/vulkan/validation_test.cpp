#include <memory>
#include <mutex>

#include <doctest/doctest.h>

#include <spvtune/vulkan/device.hpp>
#include <spvtune/vulkan/device_selector.hpp>
#include <spvtune/vulkan/instance.hpp>

using namespace spvtune;

// The Vulkan tests rely on the validation layer reporting misuse through the instance's sink;
// this proves that path works, so a silent layer cannot make them pass vacuously.
TEST_CASE("validation messages reach the sink") {
    auto messages = std::make_shared<std::vector<std::string>>();
    auto mutex = std::make_shared<std::mutex>();
    vulkan::InstanceOptions options;
    options.validation = true;
    options.validation_sink = [messages, mutex](const std::string& message) {
        std::lock_guard lock(*mutex);
        messages->push_back(message);
    };
    {
        vulkan::Instance instance(options);
        vulkan::Device device(instance, vulkan::select_device(instance.devices(), ""));
        VkBufferCreateInfo info{};
        info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
        info.size = 64;
        info.usage = 0;  // invalid: at least one usage bit is required
        VkBuffer buffer = VK_NULL_HANDLE;
        vkCreateBuffer(device.handle(), &info, nullptr, &buffer);
        vkDestroyBuffer(device.handle(), buffer, nullptr);
    }
    std::lock_guard lock(*mutex);
    REQUIRE_FALSE(messages->empty());
    CHECK(messages->front().find("validation error") != std::string::npos);
}
