#include <algorithm>
#include <functional>
#include <utility>

#include <spvtune/vulkan/capabilities.hpp>

namespace spvtune::vulkan {
namespace {

using Test = std::function<bool(const PhysicalDeviceInfo&)>;

Test subgroup(VkSubgroupFeatureFlags bit) {
    return [bit](const PhysicalDeviceInfo& d) { return (d.subgroups.operations & bit) != 0; };
}

const std::vector<std::pair<std::string, Test>>& table() {
    static const std::vector<std::pair<std::string, Test>> entries{
        {"subgroup_basic", subgroup(VK_SUBGROUP_FEATURE_BASIC_BIT)},
        {"subgroup_vote", subgroup(VK_SUBGROUP_FEATURE_VOTE_BIT)},
        {"subgroup_arithmetic", subgroup(VK_SUBGROUP_FEATURE_ARITHMETIC_BIT)},
        {"subgroup_ballot", subgroup(VK_SUBGROUP_FEATURE_BALLOT_BIT)},
        {"subgroup_shuffle", subgroup(VK_SUBGROUP_FEATURE_SHUFFLE_BIT)},
        {"subgroup_shuffle_relative", subgroup(VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT)},
        {"subgroup_clustered", subgroup(VK_SUBGROUP_FEATURE_CLUSTERED_BIT)},
        {"subgroup_quad", subgroup(VK_SUBGROUP_FEATURE_QUAD_BIT)},
        {"float64", [](const PhysicalDeviceInfo& d) { return d.features.float64; }},
        {"int64", [](const PhysicalDeviceInfo& d) { return d.features.int64; }},
        {"int16", [](const PhysicalDeviceInfo& d) { return d.features.int16; }},
        {"float16", [](const PhysicalDeviceInfo& d) { return d.features.float16; }},
        {"int8", [](const PhysicalDeviceInfo& d) { return d.features.int8; }},
        {"storage_buffer_8bit",
         [](const PhysicalDeviceInfo& d) { return d.features.storage_buffer_8bit; }},
        {"storage_buffer_16bit",
         [](const PhysicalDeviceInfo& d) { return d.features.storage_buffer_16bit; }},
    };
    return entries;
}

}  // namespace

const std::vector<std::string>& known_capabilities() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> list;
        for (const auto& [name, test] : table()) {
            list.push_back(name);
        }
        return list;
    }();
    return names;
}

bool is_known_capability(std::string_view name) {
    const auto& names = known_capabilities();
    return std::find(names.begin(), names.end(), name) != names.end();
}

bool has_capability(const PhysicalDeviceInfo& device, std::string_view name) {
    for (const auto& [known, test] : table()) {
        if (known == name) {
            return test(device);
        }
    }
    return false;
}

std::vector<std::string> capabilities(const PhysicalDeviceInfo& device) {
    std::vector<std::string> names;
    for (const auto& [name, test] : table()) {
        if (test(device)) {
            names.push_back(name);
        }
    }
    return names;
}

}  // namespace spvtune::vulkan
