#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "spvtune_run.hpp"

namespace devices_command_test {

using spvtune::test::contains;
using spvtune::test::run_spvtune;
using spvtune::tune::testing::TempDirectory;

TEST_CASE("devices lists every device with its identity, as a table and as JSON") {
    TempDirectory scratch;
    const auto json_run = run_spvtune(scratch, {"devices", "--json"});
    REQUIRE(json_run.exit_code == 0);
    const auto devices = nlohmann::json::parse(json_run.out);
    REQUIRE(devices.is_array());
    REQUIRE_FALSE(devices.empty());  // lavapipe at least, on a machine without a GPU
    for (const auto& device : devices) {
        CHECK_FALSE(device.at("device_name").get<std::string>().empty());
        CHECK(device.at("identity").get<std::string>().size() > 17);
        CHECK(device.at("timestamps").is_boolean());
        CHECK(device.at("capabilities").is_array());
        CHECK(device.at("pipeline_cache_uuid").get<std::string>().size() == 36);
    }

    const auto table = run_spvtune(scratch, {"devices"});
    REQUIRE(table.exit_code == 0);
    for (const auto& device : devices) {
        CHECK(contains(table.out, device.at("device_name").get<std::string>()));
        CHECK(contains(table.out, device.at("identity").get<std::string>()));
    }
    CHECK(contains(table.out, "timestamps"));
}

TEST_CASE("a device selector that matches nothing is a clear error listing every device") {
    TempDirectory scratch;
    const auto listed = run_spvtune(scratch, {"devices", "--json"});
    REQUIRE(listed.exit_code == 0);
    std::string expected =
        "spvtune: error: no device name contains 'no-such-gpu'; available devices:\n";
    for (const auto& device : nlohmann::json::parse(listed.out)) {
        expected += "  " + device.at("index").dump() + ": " +
                    device.at("device_name").get<std::string>() + " (" +
                    device.at("device_type").get<std::string>() + ", " +
                    device.at("device_uuid").get<std::string>() + ")\n";
    }
    const auto run = run_spvtune(
        scratch, {"cache", "path", "--device", "no-such-gpu", "--cache-dir", scratch.path()});
    CHECK(run.exit_code == 1);
    CHECK(run.err == expected);
    CHECK(run.out.empty());
}

}  // namespace devices_command_test
