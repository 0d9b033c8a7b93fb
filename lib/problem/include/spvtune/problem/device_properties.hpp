#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include <spvtune/problem/scope.hpp>

namespace spvtune::problem {

/// The properties of the device a key runs on that a candidate's expressions may read as
/// `device.<name>` variables (constraints, priority, specialization, workgroups, push constants,
/// repeat counts): a kernel that assumes 16-lane subgroups says `device.subgroup_size == 16`
/// and is skipped, with that reason, elsewhere. They are known only per key on a device, so an
/// expression that uses one is never evaluated when the file is loaded.
struct DeviceProperties {
    std::uint32_t subgroup_size = 0;                    ///< device.subgroup_size
    std::uint32_t max_shared_memory = 0;                ///< device.max_shared_memory (bytes)
    std::array<std::uint32_t, 3> max_workgroup_size{};  ///< device.max_workgroup_size[_y,_z]
    std::uint32_t max_workgroup_invocations = 0;        ///< device.max_workgroup_invocations
};

/// Every `device.<name>` variable, sorted: `device.max_shared_memory`,
/// `device.max_workgroup_invocations`, `device.max_workgroup_size` (x),
/// `device.max_workgroup_size_y`, `device.max_workgroup_size_z`, `device.subgroup_size`.
std::span<const std::string_view> device_variable_names();

/// Whether `name` is one of device_variable_names().
bool is_device_variable(std::string_view name);

/// Defines every `device.<name>` variable of `device` in `scope`.
void set_device_variables(Scope& scope, const DeviceProperties& device);

}  // namespace spvtune::problem
