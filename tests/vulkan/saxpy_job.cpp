#include "saxpy_job.hpp"

#include <cstring>
#include <span>

#include <spvtune/vulkan/host_data.hpp>

#include "vulkan_fixture.hpp"

namespace spvtune::test {
namespace {

std::vector<float> as_floats(const std::vector<std::byte>& bytes, std::size_t n) {
    std::vector<float> values(n);
    std::memcpy(values.data(), bytes.data(), n * sizeof(float));
    return values;
}

std::vector<std::byte> push_constants(float a, std::uint32_t n) {
    std::vector<std::byte> bytes(8);
    std::memcpy(bytes.data(), &a, 4);
    std::memcpy(bytes.data() + 4, &n, 4);
    return bytes;
}

}  // namespace

SaxpyJob::SaxpyJob(vulkan::Device& device, std::uint32_t n, std::uint32_t workgroup_size, float a)
    : n_(n), a_(a), module_(vulkan::SpirvModule::load(kernel_path("saxpy"))) {
    using namespace vulkan;
    const auto x_bytes = make_fill(ElementType::f32, n, FillRandom{7, -1.0, 1.0});
    const auto y_bytes = make_fill(ElementType::f32, n, FillIota{0.0, 0.5});
    x_ = as_floats(x_bytes, n);
    y_ = as_floats(y_bytes, n);

    const Specialization workgroup{0, workgroup_size};
    pipeline_ =
        std::make_unique<ComputePipeline>(device, module_, "main", std::span(&workgroup, 1));
    x_buffer_ = std::make_unique<Buffer>(device, x_bytes.size());
    y_buffer_ = std::make_unique<Buffer>(device, y_bytes.size());
    x_buffer_->upload(x_bytes);
    y_buffer_->upload(y_bytes);
    const BufferBinding bindings[] = {{0, 0, x_buffer_.get()}, {0, 1, y_buffer_.get()}};
    const std::uint32_t groups = (n + workgroup_size - 1) / workgroup_size;
    job_ = std::make_unique<ComputeJob>(device, *pipeline_, bindings, push_constants(a, n),
                                        std::array<std::uint32_t, 3>{groups, 1, 1});
    dispatch_ = {pipeline_.get(),
                 {std::begin(bindings), std::end(bindings)},
                 push_constants(a, n),
                 {groups, 1, 1}};
}

std::unique_ptr<vulkan::ComputeJob> SaxpyJob::chained(vulkan::Device& device,
                                                      std::size_t dispatches) const {
    return std::make_unique<vulkan::ComputeJob>(
        device, std::vector<vulkan::Dispatch>(dispatches, dispatch_));
}

std::unique_ptr<vulkan::ComputeJob> SaxpyJob::restoring(vulkan::Device& device) {
    const VkDeviceSize bytes = y_.size() * sizeof(float);
    y_first_ = std::make_unique<vulkan::Buffer>(device, bytes);
    y_first_->upload(std::as_bytes(std::span(y_)));
    return std::make_unique<vulkan::ComputeJob>(
        device, std::vector<vulkan::Dispatch>{dispatch_},
        std::vector<vulkan::BufferCopy>{{y_first_.get(), 0, y_buffer_.get(), 0, bytes}});
}

std::vector<float> SaxpyJob::result() const {
    return as_floats(y_buffer_->download(), n_);
}

std::vector<float> SaxpyJob::expected(int runs) const {
    std::vector<float> y = y_;
    for (int run = 0; run < runs; ++run) {
        for (std::size_t i = 0; i < y.size(); ++i) {
            y[i] = a_ * x_[i] + y[i];
        }
    }
    return y;
}

}  // namespace spvtune::test
