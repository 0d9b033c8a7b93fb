#include <algorithm>
#include <chrono>
#include <set>
#include <string>

#include <spvtune/base/duration_text.hpp>
#include <spvtune/vulkan/compute_job.hpp>
#include <spvtune/vulkan/error.hpp>

namespace spvtune::vulkan {
namespace {

std::string where(std::uint32_t set, std::uint32_t binding) {
    return "set " + std::to_string(set) + " binding " + std::to_string(binding);
}

void memory_barrier(VkCommandBuffer commands, VkPipelineStageFlags src_stages,
                    VkAccessFlags src_access, VkPipelineStageFlags dst_stages,
                    VkAccessFlags dst_access) {
    VkMemoryBarrier barrier{};
    barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    barrier.srcAccessMask = src_access;
    barrier.dstAccessMask = dst_access;
    vkCmdPipelineBarrier(commands, src_stages, dst_stages, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

constexpr VkAccessFlags shader_access = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;

/// Uploads (host writes, staging copies in earlier submissions) become visible to the shaders.
void uploads_to_compute_barrier(VkCommandBuffer commands) {
    memory_barrier(commands, VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_HOST_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, shader_access);
}

/// A restore's copy writes a buffer only after the last submission's shaders, and the uploads
/// of the host or of staging copies that filled its source, are done with it.
void before_restores_barrier(VkCommandBuffer commands) {
    memory_barrier(
        commands,
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_HOST_BIT |
            VK_PIPELINE_STAGE_TRANSFER_BIT,
        VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_HOST_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
        VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
}

/// A repeated dispatch sees its predecessor's writes.
void compute_to_compute_barrier(VkCommandBuffer commands) {
    memory_barrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, shader_access);
}

/// Makes the shaders' writes visible to host reads and to transfers (staging downloads).
void compute_to_host_barrier(VkCommandBuffer commands) {
    memory_barrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                   VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_HOST_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT);
}

/// The windows of one submission cannot together take longer than the host waited for the
/// whole submission (recording, submitting and reading the stamps back included). Readings that
/// do are not times: a driver that misstates timestampPeriod or the valid bits, or stamps
/// written out of order (a window that wraps around to a huge interval), each off by a large
/// factor. Beyond the host's time: 5% for the two clocks' rates (a driver that estimates its
/// period, as MoltenVK does, may be a little off), two ticks of rounding and 50 us.
void check_timestamps_plausible(const std::string& name, double device_ns, double host_ns,
                                const PhysicalDeviceInfo& info) {
    const double period = static_cast<double>(info.limits.timestampPeriod);
    if (device_ns <= host_ns * 1.05 + 2 * period + 50'000) {
        return;
    }
    throw TimestampError(name + ": the device's timestamps read " +
                         base::duration_text(device_ns / 1e9) + " for a submission that took " +
                         base::duration_text(host_ns / 1e9) +
                         " by the host clock, which cannot be: " + info.identity.device_name +
                         "'s timestamps (a period of " + std::to_string(period) + " ns, " +
                         std::to_string(info.timestamp_valid_bits) +
                         " valid bits) are not times, so nothing is timed with them");
}

}  // namespace

double timestamp_interval_ns(std::uint64_t begin, std::uint64_t end, std::uint32_t valid_bits,
                             float period_ns) noexcept {
    const std::uint64_t mask =
        valid_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << valid_bits) - 1;
    const std::uint64_t ticks = ((end & mask) - (begin & mask)) & mask;
    return static_cast<double>(ticks) * static_cast<double>(period_ns);
}

struct ComputeJob::Prepared {
    const ComputePipeline* pipeline = nullptr;
    std::vector<std::byte> push_constants;
    std::array<std::uint32_t, 3> group_counts{};
    UniqueHandle<VkDescriptorPool> descriptor_pool;
    std::vector<VkDescriptorSet> descriptor_sets;
};

namespace {

void check_group_counts(const std::string& name, const std::array<std::uint32_t, 3>& group_counts,
                        const VkPhysicalDeviceLimits& limits) {
    for (std::size_t axis = 0; axis < 3; ++axis) {
        if (group_counts[axis] == 0 || group_counts[axis] > limits.maxComputeWorkGroupCount[axis]) {
            throw Error(name + ": workgroup count " + static_cast<char>('x' + axis) + " = " +
                        std::to_string(group_counts[axis]) + " is outside 1.." +
                        std::to_string(limits.maxComputeWorkGroupCount[axis]) +
                        " (maxComputeWorkGroupCount)");
        }
    }
}

/// Every buffer given names a descriptor the shader uses, has a buffer, and is given once.
void check_given_bindings(const std::string& name, const ComputeEntryPoint& entry,
                          std::span<const BufferBinding> bindings) {
    std::set<std::pair<std::uint32_t, std::uint32_t>> used;
    for (const DescriptorBinding& binding : entry.bindings) {
        used.emplace(binding.set, binding.binding);
    }
    std::set<std::pair<std::uint32_t, std::uint32_t>> bound;
    for (const BufferBinding& binding : bindings) {
        if (!used.contains({binding.set, binding.binding})) {
            throw Error(name + " uses no descriptor at " + where(binding.set, binding.binding));
        }
        if (binding.buffer == nullptr) {
            throw Error(name + ": no buffer given for " + where(binding.set, binding.binding));
        }
        if (!bound.emplace(binding.set, binding.binding).second) {
            throw Error(name + ": " + where(binding.set, binding.binding) + " is bound twice");
        }
    }
}

/// What is bound to the shader's `binding`, or null.
const BufferBinding* bound_buffer(std::span<const BufferBinding> bindings,
                                  const DescriptorBinding& binding) {
    const auto it = std::find_if(bindings.begin(), bindings.end(), [&](const BufferBinding& b) {
        return b.set == binding.set && b.binding == binding.binding;
    });
    return it == bindings.end() ? nullptr : &*it;
}

/// The bytes the shader sees through `bound`.
VkDeviceSize bound_size(const BufferBinding& bound) {
    return bound.range == VK_WHOLE_SIZE ? bound.buffer->size() - bound.offset : bound.range;
}

/// How many descriptors of each type a job's pool must hold.
struct DescriptorCounts {
    std::uint32_t storage = 0;
    std::uint32_t uniform = 0;
};

/// Every descriptor the shader uses has a buffer of a type it can be and of a size the shader's
/// block and the device's range limit allow; counts them by type.
DescriptorCounts check_used_bindings(const std::string& name, const ComputeEntryPoint& entry,
                                     std::span<const BufferBinding> bindings,
                                     const VkPhysicalDeviceLimits& limits) {
    DescriptorCounts counts;
    for (const DescriptorBinding& binding : entry.bindings) {
        const BufferBinding* bound = bound_buffer(bindings, binding);
        if (bound == nullptr) {
            throw Error(name + " uses " + std::string(to_string(binding.type)) + " " +
                        where(binding.set, binding.binding) + " but no buffer is bound to it");
        }
        const bool storage = binding.type == DescriptorType::storage_buffer;
        if (!storage && binding.type != DescriptorType::uniform_buffer) {
            throw Error(name + ": " + where(binding.set, binding.binding) + " is a " +
                        std::string(to_string(binding.type)) +
                        "; only storage and uniform buffers can be bound");
        }
        if (binding.count != 1) {
            throw Error(name + ": " + where(binding.set, binding.binding) +
                        " is an array of descriptors, which is not supported");
        }
        const VkDeviceSize alignment = storage ? limits.minStorageBufferOffsetAlignment
                                               : limits.minUniformBufferOffsetAlignment;
        if (bound->offset > bound->buffer->size() || bound->offset % alignment != 0 ||
            (bound->range != VK_WHOLE_SIZE &&
             bound->range > bound->buffer->size() - bound->offset)) {
            throw Error(name + ": the range bound at " + where(binding.set, binding.binding) +
                        " (offset " + std::to_string(bound->offset) + ") is not within its " +
                        std::to_string(bound->buffer->size()) +
                        "-byte buffer at an offset aligned to " + std::to_string(alignment));
        }
        const VkDeviceSize size = bound_size(*bound);
        if (size < binding.block_size) {
            throw Error(name + ": the buffer at " + where(binding.set, binding.binding) + " has " +
                        std::to_string(size) + " bytes but the shader's block needs at least " +
                        std::to_string(binding.block_size));
        }
        const std::uint64_t range_limit =
            storage ? limits.maxStorageBufferRange : limits.maxUniformBufferRange;
        if (size > range_limit) {
            throw Error(name + ": the buffer at " + where(binding.set, binding.binding) + " has " +
                        std::to_string(size) + " bytes, more than the device's " +
                        (storage ? "maxStorageBufferRange" : "maxUniformBufferRange") + " of " +
                        std::to_string(range_limit));
        }
        (storage ? counts.storage : counts.uniform) += 1;
    }
    return counts;
}

UniqueHandle<VkDescriptorPool> make_descriptor_pool(VkDevice handle, std::size_t set_count,
                                                    const DescriptorCounts& counts) {
    std::vector<VkDescriptorPoolSize> sizes;
    if (counts.storage > 0) {
        sizes.push_back({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, counts.storage});
    }
    if (counts.uniform > 0) {
        sizes.push_back({VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, counts.uniform});
    }
    VkDescriptorPoolCreateInfo pool_info{};
    pool_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    pool_info.maxSets = static_cast<std::uint32_t>(set_count);
    pool_info.poolSizeCount = static_cast<std::uint32_t>(sizes.size());
    pool_info.pPoolSizes = sizes.data();
    VkDescriptorPool pool = VK_NULL_HANDLE;
    check(vkCreateDescriptorPool(handle, &pool_info, nullptr, &pool), "vkCreateDescriptorPool");
    return UniqueHandle<VkDescriptorPool>(
        pool, [handle](VkDescriptorPool p) { vkDestroyDescriptorPool(handle, p, nullptr); });
}

/// One descriptor set per layout of the pipeline, from `pool`.
std::vector<VkDescriptorSet> allocate_descriptor_sets(VkDevice handle, VkDescriptorPool pool,
                                                      const ComputePipeline& pipeline) {
    std::vector<VkDescriptorSetLayout> raw_layouts;
    for (const auto& layout : pipeline.set_layouts()) {
        raw_layouts.push_back(layout.get());
    }
    VkDescriptorSetAllocateInfo allocate{};
    allocate.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    allocate.descriptorPool = pool;
    allocate.descriptorSetCount = static_cast<std::uint32_t>(raw_layouts.size());
    allocate.pSetLayouts = raw_layouts.data();
    std::vector<VkDescriptorSet> sets(raw_layouts.size());
    check(vkAllocateDescriptorSets(handle, &allocate, sets.data()), "vkAllocateDescriptorSets");
    return sets;
}

/// Points every descriptor the shader uses at its bound range.
void write_descriptor_sets(VkDevice handle, const ComputeEntryPoint& entry,
                           std::span<const BufferBinding> bindings,
                           const std::vector<VkDescriptorSet>& sets) {
    std::vector<VkDescriptorBufferInfo> infos;
    // Reserved: each write points into it.
    infos.reserve(entry.bindings.size());
    std::vector<VkWriteDescriptorSet> writes;
    for (const DescriptorBinding& binding : entry.bindings) {
        const BufferBinding& bound = *bound_buffer(bindings, binding);
        infos.push_back({bound.buffer->handle(), bound.offset, bound.range});
        VkWriteDescriptorSet write{};
        write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        write.dstSet = sets[binding.set];
        write.dstBinding = binding.binding;
        write.descriptorCount = 1;
        write.descriptorType = to_vk(binding.type);
        write.pBufferInfo = &infos.back();
        writes.push_back(write);
    }
    vkUpdateDescriptorSets(handle, static_cast<std::uint32_t>(writes.size()), writes.data(), 0,
                           nullptr);
}

}  // namespace

void ComputeJob::prepare(Device& device, const Dispatch& dispatch, Prepared& out) {
    const ComputePipeline& pipeline = *dispatch.pipeline;
    const std::span<const BufferBinding> bindings = dispatch.bindings;
    out.pipeline = &pipeline;
    out.push_constants = dispatch.push_constants;
    out.group_counts = dispatch.group_counts;
    const std::string& name = pipeline.display_name();
    const ComputeEntryPoint& entry = pipeline.entry_point();
    const VkPhysicalDeviceLimits& limits = device.info().limits;

    check_group_counts(name, out.group_counts, limits);
    if (out.push_constants.size() != entry.push_constants.size) {
        throw Error(name + ": the shader's push-constant block is " +
                    std::to_string(entry.push_constants.size) + " bytes but " +
                    std::to_string(out.push_constants.size()) + " bytes were given");
    }
    check_given_bindings(name, entry, bindings);
    const DescriptorCounts counts = check_used_bindings(name, entry, bindings, limits);

    if (!pipeline.set_layouts().empty()) {
        VkDevice handle = device.handle();
        out.descriptor_pool = make_descriptor_pool(handle, pipeline.set_layouts().size(), counts);
        out.descriptor_sets = allocate_descriptor_sets(handle, out.descriptor_pool.get(), pipeline);
        write_descriptor_sets(handle, entry, bindings, out.descriptor_sets);
    }
}

ComputeJob::ComputeJob(Device& device, const ComputePipeline& pipeline,
                       std::span<const BufferBinding> bindings,
                       std::vector<std::byte> push_constants,
                       std::array<std::uint32_t, 3> group_counts)
    : ComputeJob(device, {Dispatch{&pipeline,
                                   {bindings.begin(), bindings.end()},
                                   std::move(push_constants),
                                   group_counts}}) {}

ComputeJob::ComputeJob(Device& device, std::vector<Dispatch> dispatches,
                       std::vector<BufferCopy> restores)
    : device_(&device), restores_(std::move(restores)) {
    if (dispatches.empty()) {
        throw Error("a compute job needs at least one dispatch");
    }
    for (std::size_t i = 0; i < restores_.size(); ++i) {
        const BufferCopy& copy = restores_[i];
        if (copy.from == nullptr || copy.to == nullptr || copy.size == 0 ||
            !copy.from->fits(copy.from_offset, copy.size) ||
            !copy.to->fits(copy.to_offset, copy.size)) {
            throw Error("restore " + std::to_string(i) +
                        " of a compute job does not fit its buffers: " + std::to_string(copy.size) +
                        " bytes");
        }
    }
    dispatches_.resize(dispatches.size());
    for (std::size_t i = 0; i < dispatches.size(); ++i) {
        if (dispatches[i].pipeline == nullptr) {
            throw Error("dispatch " + std::to_string(i) + " of a compute job has no pipeline");
        }
        prepare(device, dispatches[i], dispatches_[i]);
    }
    if (device.timestamps_enabled()) {
        reserve_queries(2);
    }
}

void ComputeJob::reserve_queries(std::uint32_t count) {
    if (count <= query_capacity_) {
        return;
    }
    VkDevice handle = device_->handle();
    VkQueryPoolCreateInfo query_info{};
    query_info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
    query_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    query_info.queryCount = count;
    VkQueryPool queries = VK_NULL_HANDLE;
    check(vkCreateQueryPool(handle, &query_info, nullptr, &queries), "vkCreateQueryPool");
    query_pool_ = UniqueHandle<VkQueryPool>(
        queries, [handle](VkQueryPool q) { vkDestroyQueryPool(handle, q, nullptr); });
    query_capacity_ = count;
}

ComputeJob::~ComputeJob() = default;

void ComputeJob::record(VkCommandBuffer commands, std::uint32_t repetitions, std::uint32_t windows,
                        bool timestamps, bool empty, bool restore) const {
    VkQueryPool queries = query_pool_.get();
    if (timestamps) {
        vkCmdResetQueryPool(commands, queries, 0, windows + 1);
    }
    const bool restoring = restore && !empty && !restores_.empty();
    if (restoring) {
        record_restores(commands);
    }
    uploads_to_compute_barrier(commands);
    if (timestamps) {
        // A top-of-pipe stamp may be written while the restores' copies still run, which would
        // time them with the first window: after copies, the first stamp waits for them to end.
        vkCmdWriteTimestamp(
            commands,
            restoring ? VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT : VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
            queries, 0);
    }
    // One barrier between any two dispatches, within a window or across windows alike.
    const auto per_window = static_cast<std::uint64_t>(repetitions) * dispatches_.size();
    for (std::uint64_t i = 0; i < per_window * windows; ++i) {
        if (i > 0) {
            compute_to_compute_barrier(commands);
        }
        const Prepared& dispatch = dispatches_[i % dispatches_.size()];
        // Bound again for every dispatch: the passes of a job use different pipelines, and a
        // bind costs nothing next to a dispatch.
        const ComputePipeline& pipeline = *dispatch.pipeline;
        vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.handle());
        if (!dispatch.descriptor_sets.empty()) {
            vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout(), 0,
                                    static_cast<std::uint32_t>(dispatch.descriptor_sets.size()),
                                    dispatch.descriptor_sets.data(), 0, nullptr);
        }
        if (!dispatch.push_constants.empty()) {
            vkCmdPushConstants(commands, pipeline.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0,
                               static_cast<std::uint32_t>(dispatch.push_constants.size()),
                               dispatch.push_constants.data());
        }
        const auto counts = empty ? std::array<std::uint32_t, 3>{} : dispatch.group_counts;
        vkCmdDispatch(commands, counts[0], counts[1], counts[2]);
        // A window ends when its work has: the stamp after it is the next one's start, since a
        // top-of-pipe stamp after a barrier could be written before the window before it ends.
        if (timestamps && (i + 1) % per_window == 0) {
            vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries,
                                static_cast<std::uint32_t>((i + 1) / per_window));
        }
    }
    compute_to_host_barrier(commands);
}

void ComputeJob::run() {
    device_->submit_and_wait([&](VkCommandBuffer commands) { record(commands, 1, 1, false); });
    ++runs_;
}

void ComputeJob::record_restores(VkCommandBuffer commands) const {
    before_restores_barrier(commands);
    for (const BufferCopy& copy : restores_) {
        const VkBufferCopy region{copy.from_offset, copy.to_offset, copy.size};
        vkCmdCopyBuffer(commands, copy.from->handle(), copy.to->handle(), 1, &region);
    }
}

void ComputeJob::restore_alone() {
    if (!restores_.empty()) {
        device_->submit_and_wait([&](VkCommandBuffer commands) { record_restores(commands); });
    }
}

void ComputeJob::warm_up() {
    device_->submit_and_wait(
        [&](VkCommandBuffer commands) { record(commands, 1, 1, false, /*empty=*/true); },
        device_->options().compile_timeout, "the compile timeout");
}

DispatchTiming ComputeJob::time(std::uint32_t repetitions) {
    return time_samples(repetitions, 1).front();
}

std::vector<DispatchTiming> ComputeJob::time_samples(std::uint32_t repetitions,
                                                     std::uint32_t samples) {
    const std::string& name = dispatches_.front().pipeline->display_name();
    if (repetitions == 0) {
        throw Error(name + ": cannot time 0 runs");
    }
    if (samples == 0 || samples > max_samples_per_submission) {
        throw Error(name + ": cannot take " + std::to_string(samples) +
                    " samples in one submission (1 to " +
                    std::to_string(max_samples_per_submission) + ")");
    }
    std::vector<DispatchTiming> timings(samples);
    if (query_pool_) {
        reserve_queries(samples + 1);
        const auto submitted = std::chrono::steady_clock::now();
        device_->submit_and_wait(
            [&](VkCommandBuffer commands) { record(commands, repetitions, samples, true); });
        std::vector<std::uint64_t> stamps(std::size_t{samples} + 1);
        check(vkGetQueryPoolResults(device_->handle(), query_pool_.get(), 0, samples + 1,
                                    stamps.size() * sizeof(std::uint64_t), stamps.data(),
                                    sizeof(std::uint64_t),
                                    VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
              "vkGetQueryPoolResults");
        const double host_ns =
            std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - submitted)
                .count();
        const PhysicalDeviceInfo& info = device_->info();
        double device_ns = 0;
        for (std::uint32_t i = 0; i < samples; ++i) {
            timings[i].total_ns = timestamp_interval_ns(
                stamps[i], stamps[i + 1], info.timestamp_valid_bits, info.limits.timestampPeriod);
            timings[i].method = TimingMethod::device_timestamps;
            device_ns += timings[i].total_ns;
        }
        check_timestamps_plausible(name, device_ns, host_ns, info);
    } else {
        // The host clock sees only a whole submission: one each, so that each sample is one. The
        // restores come before the first, on their own, so that no window times them.
        restore_alone();
        for (DispatchTiming& timing : timings) {
            const auto start = std::chrono::steady_clock::now();
            device_->submit_and_wait([&](VkCommandBuffer commands) {
                record(commands, repetitions, 1, false, false, /*restore=*/false);
            });
            const auto elapsed = std::chrono::steady_clock::now() - start;
            timing.total_ns = std::chrono::duration<double, std::nano>(elapsed).count();
            timing.method = TimingMethod::host_clock;
        }
    }
    for (DispatchTiming& timing : timings) {
        timing.dispatches = repetitions;
        timing.per_dispatch_ns = timing.total_ns / repetitions;
    }
    runs_ += std::uint64_t{repetitions} * samples;
    return timings;
}

}  // namespace spvtune::vulkan
