// tune --shard I/N and the array-job environments: shards partition the keys, agree between
// runs, and keep a bucket's keys together.
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <spvtune/cache/cache_format.hpp>
#include <spvtune/cache/cache_location.hpp>

#include "cache/cache_samples.hpp"
#include "support/scoped_env.hpp"
#include "tune_fixture.hpp"

namespace shard_test {

using namespace spvtune::test;

namespace {

/// The exact keys one run tuned or found, as printed in the --json report.
std::multiset<std::string> keys_of(const TuneFixture& fixture) {
    std::multiset<std::string> keys;
    for (const auto& key : fixture.keys()) {
        keys.insert(key.at("key").dump());
    }
    return keys;
}

std::multiset<std::string> shard_keys(const std::vector<std::string>& extra) {
    TuneFixture fixture;
    std::vector<std::string> args{"--compile-only"};
    args.insert(args.end(), extra.begin(), extra.end());
    const SpvtuneRun run = fixture.tune("many_keys.json", args);
    REQUIRE_MESSAGE(run.exit_code == 0, run.out << run.err);
    CHECK(contains(run.err, "spvtune: shard "));
    return keys_of(fixture);
}

}  // namespace

TEST_CASE("tune --shard: the shards of a problem partition its keys") {
    TuneFixture whole;
    REQUIRE(whole.tune("many_keys.json", {"--compile-only"}).exit_code == 0);
    const std::multiset<std::string> all = keys_of(whole);
    REQUIRE(all.size() >= 4);

    std::multiset<std::string> union_of_shards;
    std::size_t non_empty = 0;
    for (const char* shard : {"1/3", "2/3", "3/3"}) {
        const auto keys = shard_keys({"--shard", shard});
        non_empty += keys.empty() ? 0 : 1;
        union_of_shards.insert(keys.begin(), keys.end());
    }
    CHECK(union_of_shards == all);
    CHECK(non_empty >= 2);
    // The same shard twice: the same keys.
    CHECK(shard_keys({"--shard", "2/3"}) == shard_keys({"--shard", "2/3"}));
}

namespace {

/// many_keys.json with the keys n=1000, 1001, 1002 and 3003, whose estimated costs are
/// 2 candidates x n: the last as costly as the other three together.
struct UnevenKeys : TuneFixture {
    std::filesystem::path file = scratch.path() / "uneven.json";

    UnevenKeys() {
        nlohmann::json problem = nlohmann::json::parse(
            spvtune::tune::testing::read_bytes(std::filesystem::path(problems) / "many_keys.json"));
        problem["keys"] = {{"list", {{{"n", 1000}}, {{"n", 1001}}, {{"n", 1002}}, {{"n", 3003}}}}};
        spvtune::tune::testing::write_bytes(file, problem.dump());
    }

    /// Shards 1/2 and 2/2: the keys of each, after checking that both runs print `plan`.
    std::vector<std::multiset<std::string>> shards(const std::string& plan,
                                                   const std::vector<std::string>& extra = {}) {
        std::vector<std::multiset<std::string>> keys;
        for (const char* shard : {"1/2", "2/2"}) {
            std::vector<std::string> args{"tune",
                                          file.string(),
                                          "--compile-only",
                                          "--cache-dir",
                                          cache.string(),
                                          "--kernel-dir",
                                          SPVTUNE_CLI_TEST_KERNEL_DIR,
                                          "--json",
                                          report.string(),
                                          "--shard",
                                          shard};
            args.insert(args.end(), extra.begin(), extra.end());
            const SpvtuneRun run = run_spvtune(scratch, args);
            REQUIRE_MESSAGE(run.exit_code == 0, run.out << run.err);
            CHECK_MESSAGE(contains(run.err, plan), run.err);
            keys.push_back(keys_of(*this));
        }
        return keys;
    }
};

/// A cache entry of many-keys-test whose one ranked candidate took 10 samples of `median_ms`.
spvtune::tune::TuneEntry entry_taking(double median_ms) {
    spvtune::tune::TuneEntry entry;
    entry.winner_name = "fast";
    entry.winner_index = 1;
    spvtune::tune::RankedCandidate ranked;
    ranked.name = "fast";
    ranked.index = 1;
    const double ns = median_ms * 1e6;
    ranked.statistics = {10, ns, ns, ns, 0, ns, ns};
    entry.ranking = {ranked};
    return entry;
}

}  // namespace

TEST_CASE("tune --shard balances the shards by estimated cost and reports each shard's plan") {
    // n=3003 is as costly as the other three keys together: it is a shard's whole share.
    UnevenKeys fixture;
    const auto shards = fixture.shards(
        "planned cost (candidates x problem size): shard 1 6006 (1 key), shard 2 6006 (3 keys)");
    CHECK(shards[0] == std::multiset<std::string>{R"({"n":3003})"});
    CHECK(shards[1].size() == 3);
}

TEST_CASE("tune --shard-costs balances the shards by the tuning times an earlier cache records") {
    // The earlier cache says n=1000 took longer than the other three keys together, n=3003 far
    // less than its size suggests, and has no time for n=1002: n=1000 is a shard's whole share.
    UnevenKeys fixture;
    const std::filesystem::path earlier = fixture.scratch.path() / "earlier";
    std::filesystem::create_directories(earlier);
    auto document = spvtune::cache::make_cache_document(spvtune::tune::testing::sample_hardware());
    for (const auto& [n, median_ms] : {std::pair{1000, 600.0}, {1001, 100.0}, {3003, 200.0}}) {
        document.put({"many-keys-test", 42, nlohmann::json{{"n", n}}.dump()},
                     {{"slow", "a"}, {"fast", "b"}},
                     {"n=" + std::to_string(n), entry_taking(median_ms)});
    }
    spvtune::tune::testing::write_bytes(
        earlier / spvtune::cache::cache_file_name(document.hardware),
        spvtune::cache::serialize_cache(document));
    // 6 s, 1 s and 2 s recorded; n=1002 estimated at the recorded time per estimated cost:
    // 2004 x 9 s / (2000 + 2002 + 6006) = 1.802 s.
    const auto shards = fixture.shards(
        "planned cost (tuning time recorded for 3 of 4 cache "
        "entries, the rest estimated): shard 1 6 s (1 key), "
        "shard 2 4.802 s (3 keys)",
        {"--shard-costs", earlier.string()});
    CHECK(shards[0] == std::multiset<std::string>{R"({"n":1000})"});
    CHECK(shards[1].size() == 3);
}

TEST_CASE("tune takes its shard from Slurm, a Kubernetes indexed Job or GitLab, and says so") {
    const auto first = shard_keys({"--shard", "1/2"});
    {
        ScopedEnv id("SLURM_ARRAY_TASK_ID", "5");
        ScopedEnv min("SLURM_ARRAY_TASK_MIN", "5");
        ScopedEnv count("SLURM_ARRAY_TASK_COUNT", "2");
        CHECK(shard_keys({}) == first);
    }
    {
        ScopedEnv index("JOB_COMPLETION_INDEX", "0");
        CHECK(shard_keys({"--shard-count", "2"}) == first);
        TuneFixture fixture;
        const SpvtuneRun missing = fixture.tune("many_keys.json", {"--compile-only"});
        CHECK(missing.exit_code == 2);
        CHECK(contains(missing.err, "--shard-count"));
    }
    {
        ScopedEnv index("CI_NODE_INDEX", "1");
        ScopedEnv total("CI_NODE_TOTAL", "2");
        CHECK(shard_keys({}) == first);
    }
}

TEST_CASE("tune --shard rejects what is not I/N with I from 1 to N") {
    TuneFixture fixture;
    for (const char* bad : {"0/2", "3/2", "1", "a/b", "1/0"}) {
        CAPTURE(bad);
        const SpvtuneRun run = fixture.tune("many_keys.json", {"--shard", bad});
        CHECK(run.exit_code == 2);
        CHECK(contains(run.err, "expected I/N"));
    }
}

}  // namespace shard_test
