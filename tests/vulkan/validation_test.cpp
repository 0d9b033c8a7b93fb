#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/vulkan/buffer.hpp>
#include <spvtune/vulkan/device.hpp>
#include <spvtune/vulkan/device_selector.hpp>
#include <spvtune/vulkan/instance.hpp>

namespace validation_test {

using namespace spvtune;

// The Vulkan tests rely on the validation layer reporting misuse through the instance's sink;
// this proves that path works, so a silent layer cannot make them pass vacuously.
namespace {

/// Messages a validation-enabled instance reported while `work` ran on its default device.
std::vector<std::string> messages_while(bool synchronization,
                                        const std::function<void(vulkan::Device&)>& work) {
    auto messages = std::make_shared<std::vector<std::string>>();
    auto mutex = std::make_shared<std::mutex>();
    vulkan::InstanceOptions options;
    options.validation = true;
    options.synchronization_validation = synchronization;
    options.validation_sink = [messages, mutex](const std::string& message) {
        std::lock_guard lock(*mutex);
        messages->push_back(message);
    };
    {
        vulkan::Instance instance(options);
        vulkan::Device device(instance, vulkan::select_device(instance.devices(), ""));
        work(device);
    }
    std::lock_guard lock(*mutex);
    return *messages;
}

/// Two fills of one buffer with no barrier between them: a write-after-write hazard that only
/// synchronization validation sees.
void unordered_writes(vulkan::Device& device) {
    vulkan::Buffer buffer(device, 256);
    device.submit_and_wait([&](VkCommandBuffer commands) {
        vkCmdFillBuffer(commands, buffer.handle(), 0, VK_WHOLE_SIZE, 1);
        vkCmdFillBuffer(commands, buffer.handle(), 0, VK_WHOLE_SIZE, 2);
    });
}

}  // namespace

TEST_CASE("validation messages reach the sink") {
    const std::vector<std::string> messages = messages_while(false, [](vulkan::Device& device) {
        VkBufferCreateInfo info{};
        info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
        info.size = 64;
        info.usage = 0;  // invalid: at least one usage bit is required
        VkBuffer buffer = VK_NULL_HANDLE;
        vkCreateBuffer(device.handle(), &info, nullptr, &buffer);
        vkDestroyBuffer(device.handle(), buffer, nullptr);
    });
    REQUIRE_FALSE(messages.empty());
    CHECK(messages.front().find("validation error") != std::string::npos);
}

// The fixture's synchronization validation is what makes a dropped barrier fail the tests on
// lavapipe, which runs dispatches in order; this proves it is on and reports such a hazard.
TEST_CASE("synchronization validation reports writes with no barrier between them") {
    CHECK(messages_while(false, unordered_writes).empty());
    const std::vector<std::string> messages = messages_while(true, unordered_writes);
    REQUIRE(messages.size() == 1);
    CHECK(messages.front().find("SYNC-HAZARD-WRITE-AFTER-WRITE") != std::string::npos);
}

}  // namespace validation_test
