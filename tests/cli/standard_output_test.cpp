// A command whose standard output cannot be written (a full disk, a closed pipe's file) fails
// and says so, instead of exiting 0 as if its output had been delivered.
#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/cache/cache_file.hpp>
#include <spvtune/cache/cache_format.hpp>
#include <spvtune/cache/cache_location.hpp>

#include "cache/cache_samples.hpp"
#include "cache/temp_directory.hpp"
#include "spvtune_run.hpp"

namespace standard_output_test {

using namespace spvtune;
using namespace spvtune::tune::testing;
using spvtune::test::contains;
using spvtune::test::run_spvtune_writing_to;
namespace fs = std::filesystem;

TEST_CASE("every command fails with the reason when standard output cannot be written") {
    TempDirectory scratch;
    const fs::path directory = scratch.path() / "cache";
    fs::create_directories(directory);
    cache::CacheDocument document = cache::make_cache_document(sample_hardware());
    document.put(sample_address("1024"), sample_candidates(), {"n=1024", sample_entry()});
    const fs::path file = directory / cache::cache_file_name(sample_hardware());
    write_bytes(file, cache::serialize_cache(document));

    const std::vector<std::vector<std::string>> commands{
        {"cache", "show", "--json", file.string()},
        {"cache", "show", file.string()},
        {"cache", "--cache-dir", directory.string(), "list"},
        {"cache", "diff", directory.string(), directory.string()},
        {"devices", "--json"},
        {"completion", "bash"},
    };
    for (const auto& command : commands) {
        CAPTURE(command.at(1));
        const auto run = run_spvtune_writing_to(scratch, "/dev/full", command);
        CHECK_MESSAGE(run.exit_code == 1, run.err);
        CHECK_MESSAGE(contains(run.err, "spvtune: error: standard output: No space left on device"),
                      run.err);
    }
}

}  // namespace standard_output_test
