// A cache directory or cache file the user may not read is an error naming it, never an empty
// directory: restored CI artifacts and shared directories often come with the wrong owner.
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

namespace unreadable_cache_test {

using namespace spvtune;
using namespace spvtune::tune::testing;
using spvtune::test::contains;
using spvtune::test::run_spvtune;
using spvtune::test::run_spvtune_unprivileged;
namespace fs = std::filesystem;

namespace {

const std::string problems = SPVTUNE_CLI_PROBLEM_DIR;

/// A directory holding one valid cache file.
fs::path cache_directory(const TempDirectory& scratch, const std::string& name) {
    const fs::path directory = scratch.path() / name;
    fs::create_directories(directory);
    cache::CacheDocument document = cache::make_cache_document(sample_hardware());
    document.put(sample_address("1024"), sample_candidates(), {"n=1024", sample_entry()});
    write_bytes(directory / cache::cache_file_name(sample_hardware()),
                cache::serialize_cache(document));
    return directory;
}

/// Takes every permission from `path` for its lifetime, so the scratch directory can be removed.
struct Unreadable {
    fs::path path;
    fs::perms before = fs::status(path).permissions();
    explicit Unreadable(fs::path taken) : path(std::move(taken)) {
        fs::permissions(path, fs::perms::none);
    }
    ~Unreadable() { fs::permissions(path, before); }
    Unreadable(const Unreadable&) = delete;
    Unreadable& operator=(const Unreadable&) = delete;
};

}  // namespace

TEST_CASE("every cache command names an unreadable cache directory and fails") {
    TempDirectory scratch;
    const fs::path readable = cache_directory(scratch, "readable");
    const fs::path directory = cache_directory(scratch, "locked");
    const Unreadable locked(directory);
    const std::vector<std::vector<std::string>> commands{
        {"cache", "--cache-dir", directory.string(), "list"},
        {"cache", "merge", directory.string(), "-o", (scratch.path() / "merged").string()},
        {"cache", "diff", readable.string(), directory.string()},
        {"cache", "compact", directory.string()},
        {"cache", "prune", directory.string(), "--problems", problems + "/compare.json",
         "--kernel-dir", SPVTUNE_CLI_TEST_KERNEL_DIR},
    };
    for (const auto& command : commands) {
        CAPTURE(command.at(1));
        const auto run = run_spvtune_unprivileged(scratch, command);
        if (!run) {
            MESSAGE("skipped: running as root without setpriv, permissions are not enforced");
            return;
        }
        CHECK_MESSAGE(run->exit_code != 0, run->out);
        CHECK_MESSAGE(contains(run->err, directory.string() + ": Permission denied"), run->err);
    }
}

TEST_CASE("cache compact says which file it could not compact and why, and fails") {
    TempDirectory scratch;
    const fs::path directory = scratch.path() / "cache";
    fs::create_directories(directory);
    const fs::path invalid = directory / cache::cache_file_name(sample_hardware());
    write_bytes(invalid, "{");
    const auto run = run_spvtune(scratch, {"cache", "compact", directory.string()});
    CHECK(run.exit_code == 2);
    CHECK_MESSAGE(contains(run.err, invalid.string()), run.err);
    CHECK_MESSAGE(contains(run.err, "not compacted"), run.err);
    CHECK_FALSE(contains(run.out, "now holds all its entries"));

    const fs::path unreadable_directory = cache_directory(scratch, "unreadable");
    const fs::path file = unreadable_directory / cache::cache_file_name(sample_hardware());
    const Unreadable locked(file);
    const auto denied =
        run_spvtune_unprivileged(scratch, {"cache", "compact", unreadable_directory.string()});
    if (!denied) {
        MESSAGE("skipped: running as root without setpriv, permissions are not enforced");
        return;
    }
    CHECK(denied->exit_code == 1);
    CHECK_MESSAGE(contains(denied->err, file.string() + ": Permission denied"), denied->err);
    CHECK_MESSAGE(contains(denied->err, "not compacted"), denied->err);
    CHECK_FALSE(contains(denied->out, "now holds all its entries"));
}

}  // namespace unreadable_cache_test
