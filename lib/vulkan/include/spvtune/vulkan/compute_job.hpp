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

/// A buffer bound to one (set, binding) of a pipeline.
struct BufferBinding {
    std::uint32_t set = 0;
    std::uint32_t binding = 0;
    const Buffer* buffer = nullptr;
};

/// Which clock measured a duration: results keep it so numbers are never mistaken.
enum class TimingMethod {
    device_timestamps,  ///< GPU timestamp queries around the measured dispatches
    host_clock,         ///< steady host clock around submit + wait (no timestamp support)
};

/// The duration of a batch of identical dispatches.
struct DispatchTiming {
    /// From before the first dispatch to after the last.
    double total_ns = 0;
    /// total_ns / dispatches: what one dispatch costs.
    double per_dispatch_ns = 0;
    std::uint32_t dispatches = 0;
    /// Device timestamps when the queue has them, else the host clock around submit and wait
    /// (which then includes submission overhead).
    TimingMethod method = TimingMethod::device_timestamps;
};

/// A pipeline with its buffers, push constants and workgroup counts: one ready-to-run dispatch.
///
/// Construction checks the bindings against the pipeline's reflection (every binding the shader
/// uses is bound to a buffer of a compatible descriptor type and large enough; nothing extra),
/// the push-constant bytes against the block size, and the group counts against the device's
/// limits, naming the pipeline in every error. The pipeline and buffers must outlive the job.
class ComputeJob {
  public:
    ComputeJob(Device& device, const ComputePipeline& pipeline,
               std::span<const BufferBinding> bindings, std::vector<std::byte> push_constants,
               std::array<std::uint32_t, 3> group_counts);

    /// One dispatch, waited for; its writes are visible to the host afterwards.
    void run();

    /// `repetitions` back-to-back dispatches between one pair of timestamps, each separated by a
    /// memory barrier so that a dispatch sees its predecessor's writes (as repeated launches of
    /// a real workload would).
    DispatchTiming time(std::uint32_t repetitions);

  private:
    void record(VkCommandBuffer commands, std::uint32_t repetitions, bool timestamps) const;

    Device* device_;
    const ComputePipeline* pipeline_;
    std::vector<std::byte> push_constants_;
    std::array<std::uint32_t, 3> group_counts_;
    UniqueHandle<VkDescriptorPool> descriptor_pool_;
    std::vector<VkDescriptorSet> descriptor_sets_;
    UniqueHandle<VkQueryPool> query_pool_;
};

/// Duration in ns between two raw timestamps: ticks masked to the valid bits, subtracted modulo
/// 2^valid_bits (so a counter wrap between them still gives the right answer), scaled by the
/// period in double.
double timestamp_interval_ns(std::uint64_t begin, std::uint64_t end, std::uint32_t valid_bits,
                             float period_ns) noexcept;

}  // namespace spvtune::vulkan
