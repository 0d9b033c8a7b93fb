#include <algorithm>
#include <cstring>
#include <map>

#include <spvtune/vulkan/compute_pipeline.hpp>
#include <spvtune/vulkan/error.hpp>

#include "spirv/spec_computation.hpp"

namespace spvtune::vulkan {
namespace {

/// Packs the values as Vulkan expects them: each at its own offset, booleans as VkBool32.
struct PackedSpecialization {
    std::vector<VkSpecializationMapEntry> entries;
    std::vector<std::byte> data;

    void add(std::uint32_t id, const SpecializationValue& value) {
        const auto offset = static_cast<std::uint32_t>(data.size());
        std::visit(
            [&](auto v) {
                if constexpr (std::is_same_v<decltype(v), bool>) {
                    append(static_cast<VkBool32>(v ? VK_TRUE : VK_FALSE));
                } else {
                    append(v);
                }
            },
            value);
        entries.push_back({id, offset, data.size() - offset});
    }

  private:
    template <typename T>
    void append(T value) {
        const auto* bytes = reinterpret_cast<const std::byte*>(&value);
        data.insert(data.end(), bytes, bytes + sizeof value);
    }
};

std::uint32_t as_workgroup_extent(const SpecializationValue& value) {
    return std::visit(
        [](auto v) -> std::uint32_t {
            if constexpr (std::is_same_v<decltype(v), bool>) {
                return v ? 1 : 0;
            } else if constexpr (std::is_same_v<decltype(v), Float16>) {
                return 0;  // not a size: the limits check rejects it
            } else {
                // Out of the 32-bit range it is no size; 0 makes the limits check reject it.
                return v < 0 || static_cast<std::uint64_t>(v) > UINT32_MAX
                           ? 0
                           : static_cast<std::uint32_t>(v);
            }
        },
        value);
}

}  // namespace

std::array<std::uint32_t, 3> specialized_workgroup_size(
    const ComputeEntryPoint& entry, std::span<const Specialization> specializations) {
    std::map<std::uint32_t, SpecializationValue> given;
    for (const Specialization& specialization : specializations) {
        given.emplace(specialization.id, specialization.value);
    }
    std::array<std::uint32_t, 3> size{};
    for (std::size_t axis = 0; axis < 3; ++axis) {
        const WorkgroupDimension& dimension = entry.workgroup_size[axis];
        size[axis] = dimension.size;
        if (dimension.spec_id) {
            if (auto it = given.find(*dimension.spec_id); it != given.end()) {
                size[axis] = as_workgroup_extent(it->second);
            }
        } else if (dimension.computed) {
            const std::string what = std::string("workgroup size ") +
                                     static_cast<char>('x' + axis) + " of '" + entry.name + "'";
            const std::uint64_t value = detail::evaluate(*dimension.computed, given, what);
            // Beyond 32 bits it is no size; 0 makes the limits check reject it.
            size[axis] = value > UINT32_MAX ? 0 : static_cast<std::uint32_t>(value);
        }
    }
    return size;
}

namespace {

/// The given values, checked against the constants the entry point declares (each id declared,
/// of the declared type, given once), packed for VkSpecializationInfo.
PackedSpecialization pack_specializations(const ComputeEntryPoint& entry,
                                          std::span<const Specialization> specializations,
                                          const std::string& name) {
    PackedSpecialization packed;
    std::map<std::uint32_t, SpecializationValue> chosen;
    for (const Specialization& specialization : specializations) {
        const auto declared = std::find_if(
            entry.specialization_constants.begin(), entry.specialization_constants.end(),
            [&](const SpecializationConstant& c) { return c.id == specialization.id; });
        if (declared == entry.specialization_constants.end()) {
            std::string known;
            for (const auto& c : entry.specialization_constants) {
                known += (known.empty() ? "" : ", ") + std::to_string(c.id);
            }
            throw SpirvError(name + " has no specialization constant with id " +
                             std::to_string(specialization.id) +
                             " (declared ids: " + (known.empty() ? "none" : known) + ")");
        }
        if (declared->default_value.index() != specialization.value.index()) {
            throw SpirvError(name + ": specialization constant " +
                             std::to_string(specialization.id) + " is " +
                             std::string(type_name(declared->default_value)) + ", not " +
                             std::string(type_name(specialization.value)));
        }
        if (!chosen.emplace(specialization.id, specialization.value).second) {
            throw SpirvError(name + ": specialization constant " +
                             std::to_string(specialization.id) + " is given twice");
        }
        packed.add(specialization.id, specialization.value);
    }
    return packed;
}

/// The workgroup size once specialized, checked against the device's limits per axis and in
/// invocations.
std::array<std::uint32_t, 3> checked_workgroup_size(const Device& device,
                                                    const ComputeEntryPoint& entry,
                                                    std::span<const Specialization> specializations,
                                                    const std::string& name) {
    const VkPhysicalDeviceLimits& limits = device.info().limits;
    const std::array<std::uint32_t, 3> size = specialized_workgroup_size(entry, specializations);
    std::uint64_t invocations = 1;
    for (std::size_t axis = 0; axis < 3; ++axis) {
        const std::uint32_t extent = size[axis];
        const char axis_name = static_cast<char>('x' + axis);
        if (extent == 0 || extent > limits.maxComputeWorkGroupSize[axis]) {
            throw Error(name + ": workgroup size " + axis_name + " = " + std::to_string(extent) +
                        " is outside 1.." + std::to_string(limits.maxComputeWorkGroupSize[axis]) +
                        " (maxComputeWorkGroupSize) of " + device.info().identity.device_name);
        }
        invocations *= extent;
    }
    if (invocations > limits.maxComputeWorkGroupInvocations) {
        throw Error(name + ": a workgroup of " + std::to_string(invocations) +
                    " invocations exceeds " +
                    std::to_string(limits.maxComputeWorkGroupInvocations) +
                    " (maxComputeWorkGroupInvocations) of " + device.info().identity.device_name);
    }
    return size;
}

/// One layout per descriptor set, 0 up to the highest set the entry point uses.
std::vector<UniqueHandle<VkDescriptorSetLayout>> make_set_layouts(VkDevice handle,
                                                                  const ComputeEntryPoint& entry) {
    std::uint32_t set_count = 0;
    for (const DescriptorBinding& binding : entry.bindings) {
        set_count = std::max(set_count, binding.set + 1);
    }
    std::vector<UniqueHandle<VkDescriptorSetLayout>> layouts;
    for (std::uint32_t set = 0; set < set_count; ++set) {
        std::vector<VkDescriptorSetLayoutBinding> layout_bindings;
        for (const DescriptorBinding& binding : entry.bindings) {
            if (binding.set == set) {
                layout_bindings.push_back({binding.binding, to_vk(binding.type),
                                           std::max(binding.count, 1U), VK_SHADER_STAGE_COMPUTE_BIT,
                                           nullptr});
            }
        }
        VkDescriptorSetLayoutCreateInfo info{};
        info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
        info.bindingCount = static_cast<std::uint32_t>(layout_bindings.size());
        info.pBindings = layout_bindings.data();
        VkDescriptorSetLayout layout = VK_NULL_HANDLE;
        check(vkCreateDescriptorSetLayout(handle, &info, nullptr, &layout),
              "vkCreateDescriptorSetLayout");
        layouts.emplace_back(layout, [handle](VkDescriptorSetLayout l) {
            vkDestroyDescriptorSetLayout(handle, l, nullptr);
        });
    }
    return layouts;
}

/// The set layouts and the push-constant range (checked against the device's limit).
UniqueHandle<VkPipelineLayout> make_pipeline_layout(
    const Device& device, const std::vector<UniqueHandle<VkDescriptorSetLayout>>& set_layouts,
    const ComputeEntryPoint& entry, const std::string& name) {
    std::vector<VkDescriptorSetLayout> raw_layouts;
    for (const auto& layout : set_layouts) {
        raw_layouts.push_back(layout.get());
    }
    const VkPhysicalDeviceLimits& limits = device.info().limits;
    VkPushConstantRange push_range{VK_SHADER_STAGE_COMPUTE_BIT, 0, entry.push_constants.size};
    if (push_range.size > limits.maxPushConstantsSize) {
        throw Error(name + ": push constants of " + std::to_string(push_range.size) +
                    " bytes exceed " + std::to_string(limits.maxPushConstantsSize) +
                    " (maxPushConstantsSize) of " + device.info().identity.device_name);
    }
    VkPipelineLayoutCreateInfo layout_info{};
    layout_info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    layout_info.setLayoutCount = static_cast<std::uint32_t>(raw_layouts.size());
    layout_info.pSetLayouts = raw_layouts.data();
    layout_info.pushConstantRangeCount = push_range.size > 0 ? 1 : 0;
    layout_info.pPushConstantRanges = &push_range;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkDevice handle = device.handle();
    check(vkCreatePipelineLayout(handle, &layout_info, nullptr, &layout), "vkCreatePipelineLayout");
    return UniqueHandle<VkPipelineLayout>(
        layout, [handle](VkPipelineLayout l) { vkDestroyPipelineLayout(handle, l, nullptr); });
}

/// Only needed while the pipeline is created.
UniqueHandle<VkShaderModule> make_shader_module(VkDevice handle, const SpirvModule& module) {
    const auto code = module.words();
    VkShaderModuleCreateInfo module_info{};
    module_info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    module_info.codeSize = code.size_bytes();
    module_info.pCode = code.data();
    VkShaderModule shader = VK_NULL_HANDLE;
    check(vkCreateShaderModule(handle, &module_info, nullptr, &shader), "vkCreateShaderModule");
    return UniqueHandle<VkShaderModule>(
        shader, [handle](VkShaderModule s) { vkDestroyShaderModule(handle, s, nullptr); });
}

UniqueHandle<VkPipeline> make_pipeline(VkDevice handle, VkPipelineCache cache,
                                       VkShaderModule shader, std::string_view entry_point,
                                       VkPipelineLayout layout,
                                       const PackedSpecialization& packed) {
    VkSpecializationInfo specialization_info{};
    specialization_info.mapEntryCount = static_cast<std::uint32_t>(packed.entries.size());
    specialization_info.pMapEntries = packed.entries.data();
    specialization_info.dataSize = packed.data.size();
    specialization_info.pData = packed.data.data();

    const std::string entry_name(entry_point);
    VkComputePipelineCreateInfo pipeline_info{};
    pipeline_info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    pipeline_info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    pipeline_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    pipeline_info.stage.module = shader;
    pipeline_info.stage.pName = entry_name.c_str();
    pipeline_info.stage.pSpecializationInfo =
        packed.entries.empty() ? nullptr : &specialization_info;
    pipeline_info.layout = layout;
    VkPipeline pipeline = VK_NULL_HANDLE;
    check(vkCreateComputePipelines(handle, cache, 1, &pipeline_info, nullptr, &pipeline),
          "vkCreateComputePipelines");
    return UniqueHandle<VkPipeline>(
        pipeline, [handle](VkPipeline p) { vkDestroyPipeline(handle, p, nullptr); });
}

}  // namespace

ComputePipeline::ComputePipeline(Device& device, const SpirvModule& module,
                                 std::string_view entry_point,
                                 std::span<const Specialization> specializations,
                                 VkPipelineCache cache)
    : entry_(module.entry_point(entry_point)),
      display_name_(module.display_name() + ":" + std::string(entry_point)) {
    const PackedSpecialization packed =
        pack_specializations(entry_, specializations, display_name_);
    workgroup_size_ = checked_workgroup_size(device, entry_, specializations, display_name_);
    VkDevice handle = device.handle();
    set_layouts_ = make_set_layouts(handle, entry_);
    layout_ = make_pipeline_layout(device, set_layouts_, entry_, display_name_);
    const UniqueHandle<VkShaderModule> shader = make_shader_module(handle, module);
    pipeline_ = make_pipeline(handle, cache, shader.get(), entry_point, layout_.get(), packed);
}

}  // namespace spvtune::vulkan
