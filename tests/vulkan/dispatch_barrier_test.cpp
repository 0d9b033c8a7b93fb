// Lavapipe runs dispatches in order and the validation layer shipped with Debian 12 does not
// report two back-to-back dispatches with no barrier between them, so a missing barrier in a
// timed batch passes every behavioural test; nor does lavapipe write a timestamp before the
// commands ahead of it end, as a GPU may. This test watches the recorded commands instead: the
// test executable defines vkCmdDispatch, vkCmdPipelineBarrier, vkCmdCopyBuffer and
// vkCmdWriteTimestamp itself, which takes precedence over the loader's exports for the
// statically linked engine, logs them while a recorder is active, and forwards each call to the
// loader.

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
    // 'D' per dispatch, 'B' per barrier from compute writes to compute access, 'X' per barrier
    // from transfer writes to compute access, 'C' per buffer copy, 'T' per timestamp written at
    // the top of the pipe and 'E' per one written at its end.
    std::string log;
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

/// Whether the barrier makes the writes of `src_access` in `src_stage` visible to the compute
/// shaders' reads and writes.
bool orders_compute_after(VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                          VkPipelineStageFlags src_stages, VkPipelineStageFlags dst_stages,
                          std::uint32_t count, const VkMemoryBarrier* barriers) {
    if ((src_stages & src_stage) == 0 || (dst_stages & VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT) == 0) {
        return false;
    }
    for (std::uint32_t i = 0; i < count; ++i) {
        if ((barriers[i].srcAccessMask & src_access) != 0 &&
            (barriers[i].dstAccessMask & shader_reads_and_writes) == shader_reads_and_writes) {
            return true;
        }
    }
    return false;
}

/// The letters of `log` that are among `kept`.
std::string only(const std::string& log, const std::string& kept) {
    std::string out;
    for (const char command : log) {
        if (kept.find(command) != std::string::npos) {
            out += command;
        }
    }
    return out;
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
    if (orders_compute_after(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                             src_stages, dst_stages, memory_count, memory)) {
        record('B');
    }
    if (orders_compute_after(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                             src_stages, dst_stages, memory_count, memory)) {
        record('X');
    }
    forward(commands, src_stages, dst_stages, flags, memory_count, memory, buffer_count, buffers,
            image_count, images);
}

VKAPI_ATTR void VKAPI_CALL vkCmdCopyBuffer(VkCommandBuffer commands, VkBuffer from, VkBuffer to,
                                           std::uint32_t count, const VkBufferCopy* regions) {
    static const auto forward = loader_function<PFN_vkCmdCopyBuffer>("vkCmdCopyBuffer");
    record('C');
    forward(commands, from, to, count, regions);
}

VKAPI_ATTR void VKAPI_CALL vkCmdWriteTimestamp(VkCommandBuffer commands,
                                               VkPipelineStageFlagBits stage, VkQueryPool pool,
                                               std::uint32_t query) {
    static const auto forward = loader_function<PFN_vkCmdWriteTimestamp>("vkCmdWriteTimestamp");
    record(stage == VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT      ? 'T'
           : stage == VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT ? 'E'
                                                           : '?');
    forward(commands, stage, pool, query);
}

}  // extern "C"

namespace {

/// The log of one timed submission of `samples` batches of `runs` runs of `job`.
std::string commands_of_submission(spvtune::vulkan::ComputeJob& job, std::uint32_t runs,
                                   std::uint32_t samples) {
    RecordedCommands recorded;
    active_recorder = &recorded;
    job.time_samples(runs, samples);
    active_recorder = nullptr;
    return recorded.log;
}

/// The dispatches and compute-to-compute barriers of one timed submission of `samples` batches
/// of `runs` runs of a job of `steps` saxpy dispatches.
std::string commands_of_batch(std::uint32_t runs, std::size_t steps = 1,
                              std::uint32_t samples = 1) {
    spvtune::test::VulkanFixture vulkan;
    spvtune::test::SaxpyJob saxpy(vulkan.device(), 1024, 64);
    const auto job = saxpy.chained(vulkan.device(), steps);
    return only(commands_of_submission(*job, runs, samples), "DB");
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

TEST_CASE("a job's restores are copied, and the first timestamp waits for them to end") {
    spvtune::test::VulkanFixture vulkan;
    spvtune::test::SaxpyJob saxpy(vulkan.device(), 1024, 64);
    // Without restores: the first stamp at the top of the pipe, as before any copy existed.
    const auto plain = saxpy.chained(vulkan.device(), 1);
    CHECK(only(commands_of_submission(*plain, 2, 1), "CXTED") == "XTDDE");
    // With them: copied, made visible to the shaders, and only then the first stamp (at the end
    // of the pipe, so that a GPU cannot write it while the copy still runs).
    const auto restoring = saxpy.restoring(vulkan.device());
    CHECK(only(commands_of_submission(*restoring, 2, 1), "CXTED") == "CXEDDE");
    // Warming up copies nothing.
    RecordedCommands recorded;
    active_recorder = &recorded;
    restoring->warm_up();
    active_recorder = nullptr;
    CHECK(only(recorded.log, "C") == "");
}

TEST_CASE("the command watcher sees the dispatches that reach the loader") {
    // Guards the test above: if the engine stopped calling these entry points directly (say,
    // through pointers from vkGetDeviceProcAddr), the log would be empty, not wrong.
    CHECK(commands_of_batch(1) == "D");
}

}  // namespace dispatch_barrier_test
