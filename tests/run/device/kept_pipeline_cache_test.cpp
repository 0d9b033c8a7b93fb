// The pipeline cache kept on disk between runs: a second run's cache starts from the first's,
// and a bad file is noted, ignored and replaced, never trusted nor fatal.
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/cache/pipeline_cache_file.hpp>
#include <spvtune/run/device_executor.hpp>
#include <spvtune/run/kept_pipeline_cache.hpp>
#include <spvtune/run/key_plan.hpp>

#include "problem/problem_test_support.hpp"
#include "temp_directory.hpp"
#include "vulkan/vulkan_fixture.hpp"

namespace kept_pipeline_cache_test {

using namespace spvtune;
using namespace spvtune::problem;
using namespace spvtune::run;
using spvtune::tune::testing::read_bytes;
using spvtune::tune::testing::TempDirectory;
using spvtune::tune::testing::write_bytes;

namespace {

/// Runs every candidate of saxpy with `cache`, as a tune does.
void build_all(test::VulkanFixture& vulkan, KeptPipelineCache& cache) {
    const Problem problem = testing::parse(testing::saxpy_json());
    const KeyPlan plan = plan_key(problem, problem.keys.front().key, nullptr);
    DeviceExecutor executor(problem, vulkan.device(), {}, default_max_prepared_candidates,
                            {&cache, 0});
    for (const ResolvedCandidate& candidate : plan.runnable) {
        REQUIRE(executor.run(candidate, plan));
    }
}

}  // namespace

TEST_CASE("a kept pipeline cache is saved and seeds the next run's cache") {
    test::VulkanFixture vulkan;
    TempDirectory directory;
    const auto file = directory.path() / "gpu.pipelines";
    std::vector<std::string> notes;
    const auto note = [&](const std::string& text) { notes.push_back(text); };
    {
        KeptPipelineCache first(vulkan.device(), file, note);
        CHECK_FALSE(first.loaded());
        build_all(vulkan, first);
    }
    REQUIRE(std::filesystem::exists(file));
    const auto saved = cache::read_pipeline_cache_file(file);
    REQUIRE(saved);
    CHECK_FALSE(saved.value().empty());
    {
        KeptPipelineCache second(vulkan.device(), file, note);
        CHECK(second.loaded());
        build_all(vulkan, second);
    }
    CHECK(notes.empty());
}

TEST_CASE("a damaged, truncated or foreign pipeline cache file is ignored, noted and replaced") {
    test::VulkanFixture vulkan;
    TempDirectory directory;
    const auto file = directory.path() / "gpu.pipelines";
    {
        KeptPipelineCache good(vulkan.device(), file);
        build_all(vulkan, good);
    }
    const std::string whole = read_bytes(file);
    auto data = cache::read_pipeline_cache_file(file).value();

    std::string bad;
    SUBCASE("garbage") {
        bad = std::string(whole.size(), '\x7f');
    }
    SUBCASE("truncated") {
        bad = whole.substr(0, whole.size() / 2);
    }
    SUBCASE("another driver's pipeline cache UUID, in a sound envelope") {
        data[offsetof(VkPipelineCacheHeaderVersionOne, pipelineCacheUUID) + 3] ^= std::byte{0x40};
        bad = cache::pipeline_cache_file_content(data);
    }
    SUBCASE("a header longer than the data, in a sound envelope") {
        const std::uint32_t huge = 0x7fffffff;
        std::memcpy(data.data(), &huge, sizeof huge);
        bad = cache::pipeline_cache_file_content(data);
    }
    write_bytes(file, bad);

    std::vector<std::string> notes;
    {
        KeptPipelineCache cache(vulkan.device(), file,
                                [&](const std::string& text) { notes.push_back(text); });
        CHECK_FALSE(cache.loaded());
        build_all(vulkan, cache);
    }
    REQUIRE(notes.size() == 1);
    CHECK(notes.front().find("ignoring the pipeline cache") != std::string::npos);
    // Replaced by a sound one that the next run uses.
    CHECK(read_bytes(file) != bad);
    KeptPipelineCache next(vulkan.device(), file);
    CHECK(next.loaded());
}

TEST_CASE("a pipeline cache that cannot be saved is noted, not thrown") {
    test::VulkanFixture vulkan;
    TempDirectory directory;
    write_bytes(directory.path() / "file", "not a directory");
    std::vector<std::string> notes;
    {
        KeptPipelineCache cache(vulkan.device(), directory.path() / "file" / "gpu.pipelines",
                                [&](const std::string& text) { notes.push_back(text); });
        build_all(vulkan, cache);
    }
    REQUIRE_FALSE(notes.empty());
    CHECK(notes.back().find("not saved") != std::string::npos);
}

}  // namespace kept_pipeline_cache_test
