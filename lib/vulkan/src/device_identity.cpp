#include <cctype>
#include <cstdio>
#include <string_view>

#include <spvtune/base/digest.hpp>
#include <spvtune/base/enum_names.hpp>
#include <spvtune/vulkan/device_identity.hpp>

namespace spvtune::vulkan {
namespace {

constexpr std::uint32_t vendor_nvidia = 0x10de;
constexpr std::uint32_t vendor_intel = 0x8086;

std::string join_version(std::initializer_list<std::uint32_t> parts) {
    std::string text;
    for (std::uint32_t part : parts) {
        if (!text.empty()) {
            text += '.';
        }
        text += std::to_string(part);
    }
    return text;
}

std::string hex32(std::uint32_t value) {
    char text[11];
    std::snprintf(text, sizeof text, "0x%04x", value);
    return text;
}

/// Lower-case letters and digits with single dashes: safe in a file name on every platform.
std::string slug(const std::string& name) {
    std::string text;
    for (char c : name) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u)) {
            text += static_cast<char>(std::tolower(u));
        } else if (!text.empty() && text.back() != '-') {
            text += '-';
        }
        if (text.size() >= 40) {
            break;
        }
    }
    while (!text.empty() && text.back() == '-') {
        text.pop_back();
    }
    return text.empty() ? "device" : text;
}

constexpr base::EnumNames<VkDriverId, 23> driver_id_names{{
    {VK_DRIVER_ID_AMD_PROPRIETARY, "AMD_PROPRIETARY"},
    {VK_DRIVER_ID_AMD_OPEN_SOURCE, "AMD_OPEN_SOURCE"},
    {VK_DRIVER_ID_MESA_RADV, "MESA_RADV"},
    {VK_DRIVER_ID_NVIDIA_PROPRIETARY, "NVIDIA_PROPRIETARY"},
    {VK_DRIVER_ID_INTEL_PROPRIETARY_WINDOWS, "INTEL_PROPRIETARY_WINDOWS"},
    {VK_DRIVER_ID_INTEL_OPEN_SOURCE_MESA, "INTEL_OPEN_SOURCE_MESA"},
    {VK_DRIVER_ID_IMAGINATION_PROPRIETARY, "IMAGINATION_PROPRIETARY"},
    {VK_DRIVER_ID_QUALCOMM_PROPRIETARY, "QUALCOMM_PROPRIETARY"},
    {VK_DRIVER_ID_ARM_PROPRIETARY, "ARM_PROPRIETARY"},
    {VK_DRIVER_ID_GOOGLE_SWIFTSHADER, "GOOGLE_SWIFTSHADER"},
    {VK_DRIVER_ID_GGP_PROPRIETARY, "GGP_PROPRIETARY"},
    {VK_DRIVER_ID_BROADCOM_PROPRIETARY, "BROADCOM_PROPRIETARY"},
    {VK_DRIVER_ID_MESA_LLVMPIPE, "MESA_LLVMPIPE"},
    {VK_DRIVER_ID_MOLTENVK, "MOLTENVK"},
    {VK_DRIVER_ID_COREAVI_PROPRIETARY, "COREAVI_PROPRIETARY"},
    {VK_DRIVER_ID_JUICE_PROPRIETARY, "JUICE_PROPRIETARY"},
    {VK_DRIVER_ID_VERISILICON_PROPRIETARY, "VERISILICON_PROPRIETARY"},
    {VK_DRIVER_ID_MESA_TURNIP, "MESA_TURNIP"},
    {VK_DRIVER_ID_MESA_V3DV, "MESA_V3DV"},
    {VK_DRIVER_ID_MESA_PANVK, "MESA_PANVK"},
    {VK_DRIVER_ID_SAMSUNG_PROPRIETARY, "SAMSUNG_PROPRIETARY"},
    {VK_DRIVER_ID_MESA_VENUS, "MESA_VENUS"},
    {VK_DRIVER_ID_MESA_DOZEN, "MESA_DOZEN"},
}};

std::string driver_id_name(VkDriverId id) {
    if (const auto name = base::find_name(driver_id_names, id)) {
        return std::string(*name);
    }
    return "DRIVER_ID_" + std::to_string(static_cast<int>(id));
}

constexpr base::EnumNames<VkPhysicalDeviceType, 4> device_type_names{{
    {VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU, "integrated-gpu"},
    {VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, "discrete-gpu"},
    {VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU, "virtual-gpu"},
    {VK_PHYSICAL_DEVICE_TYPE_CPU, "cpu"},
}};

}  // namespace

std::string decode_driver_version(std::uint32_t vendor_id, VkDriverId driver_id,
                                  std::uint32_t version) {
    if (vendor_id == vendor_nvidia) {
        return join_version({(version >> 22) & 0x3ffU, (version >> 14) & 0xffU,
                             (version >> 6) & 0xffU, version & 0x3fU});
    }
    if (vendor_id == vendor_intel && driver_id == VK_DRIVER_ID_INTEL_PROPRIETARY_WINDOWS) {
        return join_version({version >> 14, version & 0x3fffU});
    }
    return decode_api_version(version);
}

std::string decode_api_version(std::uint32_t version) {
    return join_version({VK_API_VERSION_MAJOR(version), VK_API_VERSION_MINOR(version),
                         VK_API_VERSION_PATCH(version)});
}

std::string uuid_to_string(const std::array<std::uint8_t, VK_UUID_SIZE>& uuid) {
    std::string text;
    for (std::size_t i = 0; i < uuid.size(); ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) {
            text += '-';
        }
        char pair[3];
        std::snprintf(pair, sizeof pair, "%02x", uuid[i]);
        text += pair;
    }
    return text;
}

std::string to_string(VkPhysicalDeviceType type) {
    return std::string(base::name_of(device_type_names, type, "other"));
}

std::string DeviceIdentity::key() const {
    base::Fnv1a hash;
    hash.add(vendor_id).add(device_id).add(driver_version_raw);
    hash.add(std::as_bytes(std::span(pipeline_cache_uuid)));
    return slug(device_name) + "-" + base::to_hex(hash.value());
}

nlohmann::json DeviceIdentity::to_json() const {
    return {
        {"vendor_id", hex32(vendor_id)},
        {"device_id", hex32(device_id)},
        {"device_name", device_name},
        {"device_type", to_string(device_type)},
        {"driver_id", driver_id_name(driver_id)},
        {"driver_name", driver_name},
        {"driver_info", driver_info},
        {"driver_version", driver_version},
        {"driver_version_raw", driver_version_raw},
        {"api_version", decode_api_version(api_version)},
        {"device_uuid", uuid_to_string(device_uuid)},
        {"driver_uuid", uuid_to_string(driver_uuid)},
        {"pipeline_cache_uuid", uuid_to_string(pipeline_cache_uuid)},
        {"identity", key()},
    };
}

}  // namespace spvtune::vulkan
