#pragma once

#include <spvtune/tune/client.hpp>
#include <spvtune/vulkan/physical_device_info.hpp>

namespace spvtune::vulkan {

/// The tuner's view of a Vulkan device: its hardware identity, which decides which tuners and
/// cache entries the device shares with others.
class TuneClient final : public tune::TuneClient {
  public:
    explicit TuneClient(const PhysicalDeviceInfo& device)
        : identity_(device.identity.to_tune_identity()) {}

    const tune::HardwareIdentity& hardware_identity() const override { return identity_; }

  private:
    tune::HardwareIdentity identity_;
};

}  // namespace spvtune::vulkan
