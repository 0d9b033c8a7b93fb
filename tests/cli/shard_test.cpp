// tune --shard I/N and the array-job environments: shards partition the keys, agree between
// runs, and keep a bucket's keys together.
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include <doctest/doctest.h>

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
