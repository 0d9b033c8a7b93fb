// The device a command or an application chose: an instance with the environment's options, the
// selected physical device, and a logical device only when one is asked for.
#include <stdexcept>

#include <doctest/doctest.h>

#include <spvtune/vulkan/error.hpp>
#include <spvtune/vulkan/selected_device.hpp>

#include "support/scoped_env.hpp"

namespace selected_device_test {

using namespace spvtune;

TEST_CASE("SPVTUNE_VALIDATION=1, and only 1, turns on validation with synchronization checks") {
    test::ScopedEnv validation("SPVTUNE_VALIDATION", std::nullopt);
    CHECK_FALSE(vulkan::instance_options_from_environment().validation);
    validation.set("0");
    CHECK_FALSE(vulkan::instance_options_from_environment().validation);
    validation.set("1");
    const vulkan::InstanceOptions options = vulkan::instance_options_from_environment();
    CHECK(options.validation);
    CHECK(options.synchronization_validation);
}

TEST_CASE("a device selected for its description only has no logical device") {
    vulkan::SelectedDevice selected("", vulkan::DeviceAccess::physical);
    CHECK_FALSE(selected.has_device());
    CHECK_THROWS_AS(selected.device(), std::logic_error);
    CHECK_FALSE(selected.info().identity.device_name.empty());
}

TEST_CASE("a device selected to run kernels holds a logical device on the selected one") {
    vulkan::SelectedDevice selected("");
    REQUIRE(selected.has_device());
    CHECK(selected.device().info().identity.device_uuid == selected.info().identity.device_uuid);
    CHECK(&selected.info() == &selected.instance().devices()[selected.info().index]);
}

TEST_CASE("a selector that names no device is an error naming it") {
    CHECK_THROWS_WITH_AS(vulkan::SelectedDevice("no such device 1234"),
                         doctest::Contains("no such device 1234"), vulkan::DeviceSelectionError);
}

}  // namespace selected_device_test
