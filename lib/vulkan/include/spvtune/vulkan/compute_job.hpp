#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <vulkan/vulkan.h>

#include <spvtune/vulkan/buffer.hpp>
#include <spvtune/vulkan/compute_pipeline.hpp>
#include <spvtune/vulkan/device.hpp>
#include <spvtune/vulkan/unique_handle.hpp>

namespace spvtune::vulkan {

/// A buffer bound to one (set, binding) of a pipeline: `range` bytes of it from `offset`, so a
/// buffer can hold memory the shader does not see (guard zones around the data).
struct BufferBinding {
    std::uint32_t set = 0;
    std::uint32_t binding = 0;
    const Buffer* buffer = nullptr;
    /// A multiple of the device's minStorageBufferOffsetAlignment (minUniformBufferOffsetAlignment
    /// for a uniform buffer).
    VkDeviceSize offset = 0;
    /// VK_WHOLE_SIZE: from `offset` to the end of the buffer.
    VkDeviceSize range = VK_WHOLE_SIZE;
};

/// Which clock measured a duration: results keep it so numbers are never mistaken.
enum class TimingMethod {
    device_timestamps,  ///< GPU timestamp queries around the measured dispatches
    host_clock,         ///< steady host clock around submit + wait (no timestamp support)
};

/// The duration of a batch of identical runs of a job (each run is all of its dispatches).
struct DispatchTiming {
    /// From before the first dispatch to after the last.
    double total_ns = 0;
    /// total_ns / dispatches: what one run of the job costs.
    double per_dispatch_ns = 0;
    std::uint32_t dispatches = 0;  ///< runs of the job in the batch
    /// Device timestamps when the queue has them, else the host clock around submit and wait
    /// (which then includes submission overhead).
    TimingMethod method = TimingMethod::device_timestamps;
};

/// One dispatch of a job: a pipeline with its buffers, push constants and workgroup counts.
struct Dispatch {
    const ComputePipeline* pipeline = nullptr;
    std::vector<BufferBinding> bindings;
    std::vector<std::byte> push_constants;
    std::array<std::uint32_t, 3> group_counts{};
};

/// A copy of `size` bytes from one buffer to another that a job makes at the start of every
/// submission that runs its dispatches, before the first timestamp: a buffer the job changes (an
/// inout) starts every submission from the contents kept in `from`, with no host upload, staging
/// copy or submission of its own.
struct BufferCopy {
    const Buffer* from = nullptr;
    VkDeviceSize from_offset = 0;
    const Buffer* to = nullptr;
    VkDeviceSize to_offset = 0;
    VkDeviceSize size = 0;
};

/// Ready-to-run dispatches, recorded in order into one command buffer, each separated from the
/// one before by a memory barrier so that it sees its predecessor's writes (a pass that reads
/// what the previous pass wrote; repeated launches of a real workload).
///
/// Construction checks each dispatch's bindings against its pipeline's reflection (every
/// binding the shader uses is bound to a buffer of a compatible descriptor type and large
/// enough; nothing extra), the push-constant bytes against the block size, and the group counts
/// against the device's limits, naming the pipeline in every error. The pipelines and buffers
/// must outlive the job.
class ComputeJob {
  public:
    /// A job of one dispatch.
    ComputeJob(Device& device, const ComputePipeline& pipeline,
               std::span<const BufferBinding> bindings, std::vector<std::byte> push_constants,
               std::array<std::uint32_t, 3> group_counts);
    /// A job of one or more dispatches, run in this order, that makes the `restores` copies
    /// (BufferCopy) before them in every submission of run(), time() and time_samples(); without
    /// timestamps, in a submission of their own before the host clock starts. A copy that does
    /// not fit its buffers is refused.
    ComputeJob(Device& device, std::vector<Dispatch> dispatches,
               std::vector<BufferCopy> restores = {});
    ~ComputeJob();
    ComputeJob(const ComputeJob&) = delete;
    ComputeJob& operator=(const ComputeJob&) = delete;

    /// One run (every dispatch once), waited for; its writes are visible to the host afterwards.
    void run();

    /// Every dispatch once with no workgroups, waited for: runs no shader code and touches no
    /// buffer (nor restores any), but makes a driver that compiles a pipeline at its first dispatch
    /// (lavapipe, some GPU drivers) do so now, so that the compile is not counted as a run's time.
    void warm_up();

    /// `repetitions` back-to-back runs between one pair of timestamps, every dispatch separated
    /// from the one before by a memory barrier.
    DispatchTiming time(std::uint32_t repetitions);

    /// `samples` windows of `repetitions` back-to-back runs each, in one submission, a memory
    /// barrier between one window and the next: a timestamp before the first and one after each,
    /// a window's time the difference between the stamps around it. The submission's fixed cost
    /// (recording, submit, fence wait) is paid once for all of them.
    /// The windows run on from one another: buffers are not restored between them, as they are
    /// not between the runs of a window. Without timestamps each window is its own submission timed
    /// by the host clock. At most max_samples_per_submission windows.
    std::vector<DispatchTiming> time_samples(std::uint32_t repetitions, std::uint32_t samples);

    static constexpr std::uint32_t max_samples_per_submission = 64;

    /// Runs of the job completed so far, by run() or timed (time, time_samples); warm_up() counts
    /// none.
    std::uint64_t runs() const noexcept { return runs_; }

  private:
    struct Prepared;
    /// Checks `dispatch` against its pipeline and the device, and writes its descriptor sets.
    static void prepare(Device& device, const Dispatch& dispatch, Prepared& out);

    /// The restores, `windows` windows of `repetitions` runs, window w between timestamps w and
    /// w + 1 when `timestamps`. `empty`: no restores, and every dispatch with group counts of zero
    /// (warm_up). `restore`: whether the restores are made here.
    void record(VkCommandBuffer commands, std::uint32_t repetitions, std::uint32_t windows,
                bool timestamps, bool empty = false, bool restore = true) const;
    /// The restores' copies, after a barrier that orders them behind earlier writes.
    void record_restores(VkCommandBuffer commands) const;
    /// The restores alone, in a submission of their own (before a host-clock window).
    void restore_alone();
    /// Makes the query pool hold at least `count` timestamps (a new pool when it is too small).
    void reserve_queries(std::uint32_t count);

    Device* device_;
    std::vector<Prepared> dispatches_;
    std::vector<BufferCopy> restores_;
    UniqueHandle<VkQueryPool> query_pool_;
    std::uint32_t query_capacity_ = 0;
    std::uint64_t runs_ = 0;
};

/// Duration in ns between two raw timestamps: ticks masked to the valid bits, subtracted modulo
/// 2^valid_bits (so a counter wrap between them still gives the right answer), scaled by the
/// period in double.
double timestamp_interval_ns(std::uint64_t begin, std::uint64_t end, std::uint32_t valid_bits,
                             float period_ns) noexcept;

}  // namespace spvtune::vulkan
