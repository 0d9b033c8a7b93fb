#include <cstring>
#include <iostream>

#include <spvtune/vulkan/device_identity.hpp>
#include <spvtune/vulkan/error.hpp>
#include <spvtune/vulkan/instance.hpp>

#include "driver_pinning.hpp"
#include "feature_chain.hpp"

namespace spvtune::vulkan {
namespace {

constexpr const char* validation_layer = "VK_LAYER_KHRONOS_validation";

bool has_layer(const char* name) {
    std::uint32_t count = 0;
    check(vkEnumerateInstanceLayerProperties(&count, nullptr),
          "vkEnumerateInstanceLayerProperties");
    std::vector<VkLayerProperties> layers(count);
    check(vkEnumerateInstanceLayerProperties(&count, layers.data()),
          "vkEnumerateInstanceLayerProperties");
    for (const auto& layer : layers) {
        if (std::strcmp(layer.layerName, name) == 0) {
            return true;
        }
    }
    return false;
}

std::uint32_t instance_api_version() {
    std::uint32_t version = VK_API_VERSION_1_0;
    check(vkEnumerateInstanceVersion(&version), "vkEnumerateInstanceVersion");
    return version >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3 : version;
}

std::optional<std::uint32_t> choose_compute_family(VkPhysicalDevice device,
                                                   std::uint32_t& timestamp_bits) {
    std::uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());

    // Timestamps decide whether results are device-timed, so they outrank everything else.
    std::optional<std::uint32_t> chosen;
    for (std::uint32_t i = 0; i < count; ++i) {
        if ((families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) == 0 || families[i].queueCount == 0) {
            continue;
        }
        const bool better = !chosen || (families[i].timestampValidBits > 0 &&
                                        families[*chosen].timestampValidBits == 0);
        if (better) {
            chosen = i;
        }
    }
    timestamp_bits = chosen ? families[*chosen].timestampValidBits : 0;
    return chosen;
}

PhysicalDeviceInfo describe(VkPhysicalDevice handle, std::uint32_t index) {
    VkPhysicalDeviceProperties basic{};
    vkGetPhysicalDeviceProperties(handle, &basic);

    VkPhysicalDeviceSubgroupProperties subgroups{};
    subgroups.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
    VkPhysicalDeviceMaintenance3Properties maintenance3{};
    maintenance3.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES;
    maintenance3.pNext = &subgroups;
    VkPhysicalDeviceIDProperties ids{};
    ids.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
    ids.pNext = &maintenance3;
    VkPhysicalDeviceDriverProperties driver{};
    driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
    driver.pNext = &ids;
    VkPhysicalDeviceProperties2 properties{};
    properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    // Driver properties are core only from Vulkan 1.2; older devices report no driver id.
    properties.pNext = basic.apiVersion >= VK_API_VERSION_1_2 ? static_cast<void*>(&driver)
                                                              : static_cast<void*>(&ids);
    vkGetPhysicalDeviceProperties2(handle, &properties);

    PhysicalDeviceInfo info;
    info.handle = handle;
    info.index = index;
    info.limits = basic.limits;
    info.max_memory_allocation_size = maintenance3.maxMemoryAllocationSize;
    vkGetPhysicalDeviceMemoryProperties(handle, &info.memory);
    info.compute_queue_family = choose_compute_family(handle, info.timestamp_valid_bits);
    info.subgroups.size = subgroups.subgroupSize;
    if ((subgroups.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0) {
        info.subgroups.operations = subgroups.supportedOperations;
    }
    detail::FeatureChain features(basic.apiVersion >= VK_API_VERSION_1_2);
    vkGetPhysicalDeviceFeatures2(handle, &features.core);
    info.features = {
        .float64 = features.core.features.shaderFloat64 == VK_TRUE,
        .int64 = features.core.features.shaderInt64 == VK_TRUE,
        .int16 = features.core.features.shaderInt16 == VK_TRUE,
        .float16 = features.v12.shaderFloat16 == VK_TRUE,
        .int8 = features.v12.shaderInt8 == VK_TRUE,
        .storage_buffer_16bit = features.v11.storageBuffer16BitAccess == VK_TRUE,
        .storage_buffer_8bit = features.v12.storageBuffer8BitAccess == VK_TRUE,
    };

    DeviceIdentity& identity = info.identity;
    identity.vendor_id = basic.vendorID;
    identity.device_id = basic.deviceID;
    identity.device_name = basic.deviceName;
    identity.device_type = basic.deviceType;
    identity.driver_id = driver.driverID;
    identity.driver_name = driver.driverName;
    identity.driver_info = driver.driverInfo;
    identity.driver_version_raw = basic.driverVersion;
    identity.driver_version =
        decode_driver_version(basic.vendorID, driver.driverID, basic.driverVersion);
    identity.api_version = basic.apiVersion;
    std::memcpy(identity.device_uuid.data(), ids.deviceUUID, VK_UUID_SIZE);
    std::memcpy(identity.driver_uuid.data(), ids.driverUUID, VK_UUID_SIZE);
    std::memcpy(identity.pipeline_cache_uuid.data(), basic.pipelineCacheUUID, VK_UUID_SIZE);
    return info;
}

/// The messenger that sends the validation layer's messages to `info`'s callback (the instance
/// creation's own messages reach it through the create info's chain).
UniqueHandle<VkDebugUtilsMessengerEXT> create_messenger(
    VkInstance instance, const VkDebugUtilsMessengerCreateInfoEXT& info) {
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
    if (create == nullptr || destroy == nullptr) {
        throw Error("the validation layer does not provide VK_EXT_debug_utils");
    }
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    check(create(instance, &info, nullptr, &messenger), "vkCreateDebugUtilsMessengerEXT");
    return UniqueHandle<VkDebugUtilsMessengerEXT>(
        messenger,
        [instance, destroy](VkDebugUtilsMessengerEXT m) { destroy(instance, m, nullptr); });
}

std::vector<PhysicalDeviceInfo> enumerate_devices(VkInstance instance) {
    std::uint32_t count = 0;
    check(vkEnumeratePhysicalDevices(instance, &count, nullptr), "vkEnumeratePhysicalDevices");
    std::vector<VkPhysicalDevice> handles(count);
    check(vkEnumeratePhysicalDevices(instance, &count, handles.data()),
          "vkEnumeratePhysicalDevices");
    std::vector<PhysicalDeviceInfo> devices;
    for (std::uint32_t i = 0; i < count; ++i) {
        devices.push_back(describe(handles[i], i));
    }
    return devices;
}

}  // namespace

Instance::Instance(InstanceOptions options) : options_(std::move(options)) {
    if (options_.validation && !has_layer(validation_layer)) {
        throw Error(std::string("validation was requested but ") + validation_layer +
                    " is not installed (Debian package vulkan-validationlayers)");
    }

    VkApplicationInfo app{};
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.pApplicationName = "spvtune";
    app.pEngineName = "spvtune";
    app.apiVersion = instance_api_version();

    VkDebugUtilsMessengerCreateInfoEXT messenger_info{};
    messenger_info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
    messenger_info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                                     VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                                 VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                 VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messenger_info.pfnUserCallback = &Instance::on_message;
    messenger_info.pUserData = this;

    const VkValidationFeatureEnableEXT synchronization =
        VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
    VkValidationFeaturesEXT features{};
    features.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT;
    features.pNext = &messenger_info;
    features.enabledValidationFeatureCount = 1;
    features.pEnabledValidationFeatures = &synchronization;

    std::vector<const char*> layers;
    std::vector<const char*> extensions;
    const bool synchronization_validation =
        options_.validation && options_.synchronization_validation;
    if (options_.validation) {
        layers.push_back(validation_layer);
        extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    }
    if (synchronization_validation) {
        extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
    }

    VkInstanceCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    // Chained so that messages about instance creation itself reach the sink too.
    if (options_.validation) {
        info.pNext = synchronization_validation ? static_cast<const void*>(&features)
                                                : static_cast<const void*>(&messenger_info);
    }
    info.pApplicationInfo = &app;
    info.enabledLayerCount = static_cast<std::uint32_t>(layers.size());
    info.ppEnabledLayerNames = layers.data();
    info.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();

    VkInstance instance = VK_NULL_HANDLE;
    check(vkCreateInstance(&info, nullptr, &instance), "vkCreateInstance");
    instance_ =
        UniqueHandle<VkInstance>(instance, [](VkInstance i) { vkDestroyInstance(i, nullptr); });
    detail::pin_loaded_libraries_for_leak_checks();

    if (options_.validation) {
        messenger_ = create_messenger(instance, messenger_info);
    }
    devices_ = enumerate_devices(instance);
}

Instance::~Instance() {
    // The messenger must go before the instance; members die in reverse order, but spell it out.
    messenger_.reset();
    instance_.reset();
}

VkBool32 VKAPI_CALL Instance::on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                         VkDebugUtilsMessageTypeFlagsEXT /*types*/,
                                         const VkDebugUtilsMessengerCallbackDataEXT* data,
                                         void* user) {
    const auto* self = static_cast<const Instance*>(user);
    std::string message = severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT
                              ? "validation error: "
                              : "validation warning: ";
    if (data != nullptr && data->pMessage != nullptr) {
        message += data->pMessage;
    }
    if (self != nullptr && self->options_.validation_sink) {
        self->options_.validation_sink(message);
    } else {
        std::cerr << "spvtune: " << message << '\n';
    }
    return VK_FALSE;
}

std::string loader_version() {
    std::uint32_t version = VK_API_VERSION_1_0;
    if (vkEnumerateInstanceVersion(&version) != VK_SUCCESS) {
        return "unknown";
    }
    return decode_api_version(version);
}

}  // namespace spvtune::vulkan
