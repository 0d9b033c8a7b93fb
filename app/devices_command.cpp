#include <iomanip>
#include <iostream>

#include <nlohmann/json.hpp>

#include <spvtune/vulkan/capabilities.hpp>
#include <spvtune/vulkan/instance.hpp>
#include <spvtune/vulkan/selected_device.hpp>

#include "command.hpp"

namespace spvtune::app {
namespace {

nlohmann::json describe(const vulkan::PhysicalDeviceInfo& device) {
    nlohmann::json json = device.identity.to_json();
    json["index"] = device.index;
    json["compute"] = device.supports_compute();
    if (device.compute_queue_family) {
        json["queue_family"] = *device.compute_queue_family;
    }
    json["timestamps"] = device.supports_timestamps();
    json["timestamp_valid_bits"] = device.timestamp_valid_bits;
    json["timestamp_period_ns"] = device.limits.timestampPeriod;
    json["subgroup_size"] = device.subgroups.size;
    json["capabilities"] = vulkan::capabilities(device);
    return json;
}

void print_table(const std::vector<vulkan::PhysicalDeviceInfo>& devices) {
    if (devices.empty()) {
        std::cout << "No Vulkan devices found. On a machine without a GPU, install "
                     "mesa-vulkan-drivers for lavapipe.\n";
        return;
    }
    for (const auto& device : devices) {
        const auto& id = device.identity;
        std::cout << "[" << device.index << "] " << id.device_name << " ("
                  << vulkan::to_string(id.device_type) << ")\n";
        auto row = [](const char* label, const std::string& value) {
            std::cout << "    " << std::left << std::setw(20) << label << value << '\n';
        };
        const nlohmann::json fields = id.to_json();
        row("identity", id.key());
        row("vendor / device", fields["vendor_id"].get<std::string>() + " / " +
                                   fields["device_id"].get<std::string>());
        row("driver", id.driver_name + " " + id.driver_version + " (" + id.driver_info + ")");
        row("driver id", fields["driver_id"].get<std::string>());
        row("api version", vulkan::decode_api_version(id.api_version));
        row("device uuid", vulkan::uuid_to_string(id.device_uuid));
        row("driver uuid", vulkan::uuid_to_string(id.driver_uuid));
        row("pipeline cache", vulkan::uuid_to_string(id.pipeline_cache_uuid));
        row("compute queue", device.compute_queue_family
                                 ? "family " + std::to_string(*device.compute_queue_family)
                                 : std::string("none"));
        row("timestamps", device.supports_timestamps()
                              ? "yes (" + std::to_string(device.timestamp_valid_bits) +
                                    " valid bits, " +
                                    std::to_string(device.limits.timestampPeriod) + " ns/tick)"
                              : std::string("no (timing falls back to the host clock)"));
        std::string capabilities;
        for (const std::string& name : vulkan::capabilities(device)) {
            capabilities += (capabilities.empty() ? "" : " ") + name;
        }
        row("subgroup size", std::to_string(device.subgroups.size));
        row("capabilities", capabilities.empty() ? "none" : capabilities);
    }
}

}  // namespace

CommandAction register_devices_command(CLI::App& parent) {
    auto* command = parent.add_subcommand("devices", "List Vulkan devices and their identity");
    auto json = std::make_shared<bool>(false);
    command->add_flag("--json", *json, "Print the device list as JSON");
    return [json] {
        const vulkan::Instance instance(vulkan::instance_options_from_environment());
        if (*json) {
            nlohmann::json list = nlohmann::json::array();
            for (const auto& device : instance.devices()) {
                list.push_back(describe(device));
            }
            std::cout << list.dump(2) << '\n';
        } else {
            print_table(instance.devices());
        }
        return exit_success;
    };
}

}  // namespace spvtune::app
