#include <spvtune/run/device_bridge.hpp>

namespace spvtune::run {

tune::HardwareIdentity hardware_identity(const vulkan::DeviceIdentity& identity) {
    return {identity.key(),       identity.vendor_id,      identity.device_id,
            identity.device_name, identity.driver_version, identity.to_json()};
}

tune::Sample to_sample(const vulkan::DispatchTiming& timing) {
    const tune::TimingMethod method = timing.method == vulkan::TimingMethod::device_timestamps
                                          ? tune::TimingMethod::device_timestamps
                                          : tune::TimingMethod::host_clock;
    return {timing.per_dispatch_ns, method, timing.dispatches};
}

}  // namespace spvtune::run
