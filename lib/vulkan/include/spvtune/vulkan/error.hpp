#pragma once

#include <stdexcept>
#include <string>

#include <vulkan/vulkan.h>

namespace spvtune::vulkan {

/// Base of every error the Vulkan engine throws; `what()` is a complete sentence for the user.
class Error : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

/// A Vulkan call returned a failure code. `what()` names the call and the VkResult.
class VulkanCallError : public Error {
  public:
    VulkanCallError(std::string call, VkResult result);

    const std::string& call() const noexcept { return call_; }
    VkResult result() const noexcept { return result_; }

  private:
    std::string call_;
    VkResult result_;
};

/// The device was lost (VK_ERROR_DEVICE_LOST): nothing more can run on it.
class DeviceLostError : public VulkanCallError {
  public:
    explicit DeviceLostError(std::string call);
};

/// The device or host ran out of memory for a requested allocation.
class OutOfMemoryError : public Error {
  public:
    using Error::Error;
};

/// A wait on the device exceeded its timeout: a hung or far too slow dispatch.
class TimeoutError : public Error {
  public:
    using Error::Error;
};

/// Device timestamps that cannot be times: windows that together read longer than the host waited
/// for their whole submission.
class TimestampError : public Error {
  public:
    using Error::Error;
};

/// A SPIR-V file that is missing, unreadable, not SPIR-V, invalid, or lacks what was asked of it.
class SpirvError : public Error {
  public:
    using Error::Error;
};

/// A device selector that matches no device, or a device that cannot do compute.
class DeviceSelectionError : public Error {
  public:
    using Error::Error;
};

/// The symbolic name of a VkResult ("VK_ERROR_OUT_OF_DEVICE_MEMORY"), or its number.
std::string to_string(VkResult result);

/// Throws the matching error when `result` is a failure; `call` names the Vulkan function.
void check(VkResult result, const char* call);

}  // namespace spvtune::vulkan
