#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <spvtune/vulkan/buffer.hpp>
#include <spvtune/vulkan/compute_job.hpp>
#include <spvtune/vulkan/compute_pipeline.hpp>
#include <spvtune/vulkan/spirv_module.hpp>

namespace spvtune::test {

/// The shipped saxpy kernel (y = a*x + y) set up on a device with deterministic inputs.
class SaxpyJob {
  public:
    SaxpyJob(vulkan::Device& device, std::uint32_t n, std::uint32_t workgroup_size, float a = 2.5f);

    vulkan::ComputeJob& job() { return *job_; }
    /// A job of `dispatches` saxpy dispatches on the same buffers, run in one command buffer.
    std::unique_ptr<vulkan::ComputeJob> chained(vulkan::Device& device,
                                                std::size_t dispatches) const;
    /// A job of one saxpy dispatch that restores y to its first contents (kept in a buffer of
    /// their own) at the start of every submission.
    std::unique_ptr<vulkan::ComputeJob> restoring(vulkan::Device& device);
    /// The saxpy dispatch on this object's buffers.
    const vulkan::Dispatch& dispatch() const { return dispatch_; }
    /// y as the kernel left it.
    std::vector<float> result() const;
    /// y after `runs` dispatches, computed on the host in float like the kernel.
    std::vector<float> expected(int runs) const;

  private:
    std::uint32_t n_;
    float a_;
    std::vector<float> x_;
    std::vector<float> y_;
    vulkan::SpirvModule module_;
    std::unique_ptr<vulkan::ComputePipeline> pipeline_;
    std::unique_ptr<vulkan::Buffer> x_buffer_;
    std::unique_ptr<vulkan::Buffer> y_buffer_;
    std::unique_ptr<vulkan::Buffer> y_first_;  ///< y's first contents, for restoring()
    std::unique_ptr<vulkan::ComputeJob> job_;
    vulkan::Dispatch dispatch_;
};

}  // namespace spvtune::test
