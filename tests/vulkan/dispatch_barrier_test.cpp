// Lavapipe runs dispatches in order and the validation layer shipped with Debian 12 does not
// report two back-to-back dispatches with no barrier between them, so a missing barrier in a
// timed batch passes every behavioural test. This test watches the recorded commands instead:
// the test executable defines vkCmdDispatch and vkCmdPipelineBarrier itself, which takes
// precedence over the loader's exports for the statically linked engine, logs them while a
// recorder is active, and forwards each call to the loader.

#include <atomic>
#include <dlfcn.h>
#include <mutex>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "saxpy_job.hpp"
#include "vulkan_fixture.hpp"

namespace dispatch_barrier_test {

namespace {

struct RecordedCommands {
    std::mutex mutex;
    std::string log;  // 'D' per dispatch, 'B' per barrier from compute writes to compute access
};

std::atomic<RecordedCommands*> active_recorder{nullptr};

template <class Function>
Function loader_function(const char* name) {
    void* symbol = dlsym(RTLD_NEXT, name);
    REQUIRE_MESSAGE(symbol != nullptr, "the Vulkan loader exports no " << name);
    return reinterpret_cast<Function>(symbol);
}

void record(char command) {
    if (RecordedCommands* recorder = active_recorder.load()) {
        const std::lock_guard lock(recorder->mutex);
        recorder->log += command;
    }
}

constexpr VkAccessFlags shader_reads_and_writes =
    VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;

bool orders_compute_after_compute(VkPipelineStageFlags src_stages, VkPipelineStageFlags dst_stages,
                                  std::uint32_t count, const VkMemoryBarrier* barriers) {
    if ((src_stages & VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT) == 0 ||
        (dst_stages & VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT) == 0) {
        return false;
    }
    for (std::uint32_t i = 0; i < count; ++i) {
        if ((barriers[i].srcAccessMask & VK_ACCESS_SHADER_WRITE_BIT) != 0 &&
            (barriers[i].dstAccessMask & shader_reads_and_writes) == shader_reads_and_writes) {
            return true;
        }
    }
    return false;
}

}  // namespace

extern "C" {

VKAPI_ATTR void VKAPI_CALL vkCmdDispatch(VkCommandBuffer commands, std::uint32_t x, std::uint32_t y,
                                         std::uint32_t z) {
    static const auto forward = loader_function<PFN_vkCmdDispatch>("vkCmdDispatch");
    record('D');
    forward(commands, x, y, z);
}

VKAPI_ATTR void VKAPI_CALL vkCmdPipelineBarrier(
    VkCommandBuffer commands, VkPipelineStageFlags src_stages, VkPipelineStageFlags dst_stages,
    VkDependencyFlags flags, std::uint32_t memory_count, const VkMemoryBarrier* memory,
    std::uint32_t buffer_count, const VkBufferMemoryBarrier* buffers, std::uint32_t image_count,
    const VkImageMemoryBarrier* images) {
    static const auto forward = loader_function<PFN_vkCmdPipelineBarrier>("vkCmdPipelineBarrier");
    if (orders_compute_after_compute(src_stages, dst_stages, memory_count, memory)) {
        record('B');
    }
    forward(commands, src_stages, dst_stages, flags, memory_count, memory, buffer_count, buffers,
            image_count, images);
}

}  // extern "C"

namespace {

/// The log of one timed submission of `samples` batches of `runs` runs of a job of `steps` saxpy
/// dispatches.
std::string commands_of_batch(std::uint32_t runs, std::size_t steps = 1,
                              std::uint32_t samples = 1) {
    spvtune::test::VulkanFixture vulkan;
    spvtune::test::SaxpyJob saxpy(vulkan.device(), 1024, 64);
    const auto job = saxpy.chained(vulkan.device(), steps);
    RecordedCommands recorded;
    active_recorder = &recorded;
    job->time_samples(runs, samples);
    active_recorder = nullptr;
    return recorded.log;
}

}  // namespace

TEST_CASE("every dispatch of a timed batch waits for the writes of the one before") {
    // Four dispatches with a compute-to-compute barrier between each pair; none before the
    // first (the upload barrier orders it) is also fine, so only the pattern between counts.
    std::string between = commands_of_batch(4);
    between.erase(0, between.find('D'));
    CHECK(between == "DBDBDBD");
}

TEST_CASE("every dispatch of a multi-step job waits for the writes of the step before") {
    // Two runs of a job of three dispatches: a barrier between the steps of a run and between
    // the last step of one run and the first of the next.
    std::string between = commands_of_batch(2, 3);
    between.erase(0, between.find('D'));
    CHECK(between == "DBDBDBDBDBD");
}

TEST_CASE("the samples of one submission are ordered like the runs of one batch") {
    // Three samples of two runs: the last run of a sample and the first of the next are
    // separated like any two runs.
    std::string between = commands_of_batch(2, 1, 3);
    between.erase(0, between.find('D'));
    CHECK(between == "DBDBDBDBDBD");
}

TEST_CASE("the command watcher sees the dispatches that reach the loader") {
    // Guards the test above: if the engine stopped calling these entry points directly (say,
    // through pointers from vkGetDeviceProcAddr), the log would be empty, not wrong.
    CHECK(commands_of_batch(1) == "D");
}

}  // namespace dispatch_barrier_test
