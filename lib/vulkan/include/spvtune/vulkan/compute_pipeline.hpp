#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include <vulkan/vulkan.h>

#include <spvtune/vulkan/device.hpp>
#include <spvtune/vulkan/spirv_module.hpp>
#include <spvtune/vulkan/unique_handle.hpp>

namespace spvtune::vulkan {

/// A value for one specialization constant, by SpecId. Its type must be the declared one.
struct Specialization {
    std::uint32_t id = 0;
    SpecializationValue value;
};

/// The workgroup size of `entry` with `specializations` applied (the defaults for constants
/// not given), sizes computed with OpSpecConstantOp included. Throws SpirvError when such a
/// computation fails (a division by zero) or a size does not fit 32 bits.
std::array<std::uint32_t, 3> specialized_workgroup_size(
    const ComputeEntryPoint& entry, std::span<const Specialization> specializations);

/// A compute pipeline for one entry point of a module, with its layout built from reflection.
///
/// Construction checks what the driver would otherwise reject or mis-run: every specialization
/// id exists with the declared type, and the effective workgroup size is within the device's
/// limits. Errors name the module and entry point.
class ComputePipeline {
  public:
    ComputePipeline(Device& device, const SpirvModule& module, std::string_view entry_point,
                    std::span<const Specialization> specializations = {},
                    VkPipelineCache cache = VK_NULL_HANDLE);

    VkPipeline handle() const noexcept { return pipeline_.get(); }
    VkPipelineLayout layout() const noexcept { return layout_.get(); }
    /// One layout per set number from 0 to the highest used (gaps get empty layouts).
    const std::vector<UniqueHandle<VkDescriptorSetLayout>>& set_layouts() const noexcept {
        return set_layouts_;
    }
    const ComputeEntryPoint& entry_point() const noexcept { return entry_; }
    /// "file.spv:main", for messages.
    const std::string& display_name() const noexcept { return display_name_; }
    /// The workgroup size after specialization.
    const std::array<std::uint32_t, 3>& workgroup_size() const noexcept { return workgroup_size_; }

  private:
    ComputeEntryPoint entry_;
    std::string display_name_;
    std::array<std::uint32_t, 3> workgroup_size_{};
    std::vector<UniqueHandle<VkDescriptorSetLayout>> set_layouts_;
    UniqueHandle<VkPipelineLayout> layout_;
    UniqueHandle<VkPipeline> pipeline_;
};

}  // namespace spvtune::vulkan
