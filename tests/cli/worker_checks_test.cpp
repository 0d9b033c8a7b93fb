// A worker process compares a checked run's outputs with the reference's where it ran, and
// sends back only a verdict (and the buffers of a candidate that differs). Every check must
// come out as it does in process: the same statuses and the same messages, for a candidate
// that writes into an input, one that writes past a buffer's end, a reference that gives NaN
// where two candidates agree, and a reference that stops early.

#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tune_fixture.hpp"

namespace worker_checks_test {

using namespace spvtune::test;

namespace {

/// Each key's candidates as "name: status: reason", in report order.
std::string verdicts(TuneFixture& fixture, const std::string& problem, bool in_process) {
    const SpvtuneRun run =
        in_process ? fixture.tune(problem, {"--in-process", "--retune"}) : fixture.tune(problem);
    std::string text = "exit " + std::to_string(run.exit_code) + "\n";
    for (const auto& key : fixture.keys()) {
        text += key.at("key").dump() + " " + key.value("status", "") + " " +
                key.value("error", "") + "\n";
        for (const auto& candidate : key.at("candidates")) {
            // Which of the correct ones won or tied depends on timing; a check's verdict does
            // not, and comes with a reason.
            const std::string status = candidate.value("status", "");
            const bool timing =
                status == "winner" || status == "tied" || status == "slower" || status == "ok";
            text += "  " + candidate.at("name").get<std::string>() + ": " +
                    (timing ? "passed" : status) + ": " + candidate.value("reason", "") + "\n";
        }
    }
    return text;
}

}  // namespace

TEST_CASE("tune: checks in the worker give the verdicts and messages they give in process") {
    for (const char* problem : {"input_write.json", "overrun.json", "nan_reference.json",
                                "nan_reference_list.json", "broken_reference_list.json"}) {
        CAPTURE(std::string(problem));
        TuneFixture fixture;
        const std::string in_worker = verdicts(fixture, problem, false);
        // A check failed: a candidate's, or the key's for its reference.
        const bool checked = contains(in_worker, "wrong output") || contains(in_worker, "refer");
        CHECK_MESSAGE(checked, in_worker);
        CHECK(in_worker == verdicts(fixture, problem, true));
    }
}

}  // namespace worker_checks_test
