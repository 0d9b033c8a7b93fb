#pragma once

#include <spvtune/tune/client.hpp>
#include <spvtune/tune/hardware_identity.hpp>
#include <spvtune/tune/sampling.hpp>
#include <spvtune/vulkan/compute_job.hpp>
#include <spvtune/vulkan/device_identity.hpp>
#include <spvtune/vulkan/physical_device_info.hpp>

/// The glue between the two sibling libraries that do not know each other: the Vulkan engine
/// (devices, timed dispatches) and the backend-free tuner (hardware identities, samples).
namespace spvtune::run {

/// The tuner's view of a Vulkan device's hardware: the identity key names its cache file, the
/// vendor, device and driver let a shipped cache be matched loosely, and the record keeps every
/// identity field.
tune::HardwareIdentity hardware_identity(const vulkan::DeviceIdentity& identity);

/// A measured batch of dispatches as one tuner sample: the time of one dispatch, and its clock.
tune::Sample to_sample(const vulkan::DispatchTiming& timing);

/// The tuner's client for a Vulkan device: its hardware identity decides which tuners and
/// cache entries the device shares with others.
class DeviceClient final : public tune::TuneClient {
  public:
    explicit DeviceClient(const vulkan::PhysicalDeviceInfo& device)
        : identity_(run::hardware_identity(device.identity)) {}

    const tune::HardwareIdentity& hardware_identity() const override { return identity_; }

  private:
    tune::HardwareIdentity identity_;
};

}  // namespace spvtune::run
