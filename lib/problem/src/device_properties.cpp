#include <algorithm>
#include <string>

#include <spvtune/problem/device_properties.hpp>

namespace spvtune::problem {
namespace {

constexpr std::string_view names[] = {
    "device.max_shared_memory",    "device.max_workgroup_invocations", "device.max_workgroup_size",
    "device.max_workgroup_size_y", "device.max_workgroup_size_z",      "device.subgroup_size"};

}  // namespace

std::span<const std::string_view> device_variable_names() {
    return names;
}

bool is_device_variable(std::string_view name) {
    return std::find(std::begin(names), std::end(names), name) != std::end(names);
}

void set_device_variables(Scope& scope, const DeviceProperties& device) {
    const auto set = [&scope](std::string_view name, std::uint32_t value) {
        scope.set(std::string(name), Value(static_cast<std::int64_t>(value)));
    };
    set("device.max_shared_memory", device.max_shared_memory);
    set("device.max_workgroup_invocations", device.max_workgroup_invocations);
    set("device.max_workgroup_size", device.max_workgroup_size[0]);
    set("device.max_workgroup_size_y", device.max_workgroup_size[1]);
    set("device.max_workgroup_size_z", device.max_workgroup_size[2]);
    set("device.subgroup_size", device.subgroup_size);
}

}  // namespace spvtune::problem
