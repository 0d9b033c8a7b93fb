// The pipeline cache file's envelope: what comes back is what was written whole, and a file
// that is damaged in any way is an error (to be ignored), never an exception or a crash.
#include <cstddef>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/cache/pipeline_cache_file.hpp>

#include "temp_directory.hpp"

namespace pipeline_cache_file_test {

using namespace spvtune;
using spvtune::tune::testing::files_containing;
using spvtune::tune::testing::read_bytes;
using spvtune::tune::testing::TempDirectory;
using spvtune::tune::testing::write_bytes;

namespace {

std::vector<std::byte> sample_data(std::size_t size) {
    std::vector<std::byte> data(size);
    for (std::size_t i = 0; i < size; ++i) {
        data[i] = static_cast<std::byte>((i * 131 + 7) & 0xff);
    }
    return data;
}

}  // namespace

TEST_CASE("a pipeline cache file is named after the hardware identity, next to its cache file") {
    tune::HardwareIdentity hardware;
    hardware.key = "llvmpipe-0123456789abcdef";
    CHECK(cache::pipeline_cache_file_name(hardware) == "llvmpipe-0123456789abcdef.pipelines");
    hardware.key = "../evil";
    CHECK_THROWS_AS(cache::pipeline_cache_file_name(hardware), std::invalid_argument);
}

TEST_CASE("pipeline cache data written to a file reads back byte for byte") {
    TempDirectory directory;
    const auto file = directory.path() / "sub" / "gpu.pipelines";  // the directory is made
    const auto data = sample_data(5000);
    cache::write_pipeline_cache_file(file, data);
    const auto read = cache::read_pipeline_cache_file(file);
    REQUIRE(read);
    CHECK(read.value() == data);

    // Replaced atomically by the next save, and no temporary is left behind.
    const auto newer = sample_data(100);
    cache::write_pipeline_cache_file(file, newer);
    CHECK(cache::read_pipeline_cache_file(file).value() == newer);
    CHECK(files_containing(file.parent_path(), ".tmp").empty());
}

TEST_CASE("a missing pipeline cache file is an empty cache, not an error") {
    TempDirectory directory;
    const auto read = cache::read_pipeline_cache_file(directory.path() / "none.pipelines");
    REQUIRE(read);
    CHECK(read.value().empty());
}

TEST_CASE("a damaged pipeline cache file is an error, whatever the damage") {
    TempDirectory directory;
    const auto file = directory.path() / "gpu.pipelines";
    cache::write_pipeline_cache_file(file, sample_data(300));
    const std::string whole = read_bytes(file);

    SUBCASE("truncated anywhere") {
        for (std::size_t size = 0; size < whole.size(); size += 7) {
            write_bytes(file, whole.substr(0, size));
            CAPTURE(size);
            CHECK_FALSE(cache::read_pipeline_cache_file(file));
        }
    }
    SUBCASE("one byte changed anywhere") {
        for (std::size_t at = 0; at < whole.size(); ++at) {
            std::string damaged = whole;
            damaged[at] = static_cast<char>(damaged[at] ^ 0x20);
            write_bytes(file, damaged);
            CAPTURE(at);
            CHECK_FALSE(cache::read_pipeline_cache_file(file));
        }
    }
    SUBCASE("bytes appended") {
        write_bytes(file, whole + "x");
        CHECK_FALSE(cache::read_pipeline_cache_file(file));
    }
    SUBCASE("garbage, or a size field far beyond the file") {
        write_bytes(file, std::string(4096, '\xff'));
        CHECK_FALSE(cache::read_pipeline_cache_file(file));
        std::string huge = whole.substr(0, 32);
        for (std::size_t i = 16; i < 24; ++i) {
            huge[i] = '\xff';
        }
        write_bytes(file, huge);
        const auto read = cache::read_pipeline_cache_file(file);
        REQUIRE_FALSE(read);
        CHECK(read.error().find("truncated") != std::string::npos);
    }
    SUBCASE("a directory where the file should be") {
        std::filesystem::remove(file);
        std::filesystem::create_directory(file);
        CHECK_FALSE(cache::read_pipeline_cache_file(file));
    }
}

}  // namespace pipeline_cache_file_test
