#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <spvtune/problem/problem.hpp>
#include <spvtune/problem/problem_key.hpp>
#include <spvtune/run/device_limits.hpp>
#include <spvtune/run/problem_runner.hpp>
#include <spvtune/tune/comparison.hpp>
#include <spvtune/tune/tune_entry.hpp>

namespace spvtune::run {

/// One side of a comparison: a candidate of a problem, run through that problem's runner. The
/// sides of one comparison may come from different problems (two problem files, or one file
/// loaded with two kernel directories) that describe the same keys.
struct ComparisonArm {
    const problem::Problem* problem = nullptr;
    ProblemRunner* runner = nullptr;
    std::size_t candidate = 0;  ///< index into problem->candidates
};

enum class ArmStatus {
    ok,            ///< its output matched its problem's reference; measured
    wrong_output,  ///< its output did not match: never measured
    skipped,       ///< it cannot run this key (constraints, device limits)
    failed,        ///< running or measuring it failed
};

/// "ok", "wrong output", "skipped" or "failed".
std::string_view arm_status_name(ArmStatus status) noexcept;

/// What happened to one arm for one key.
struct ArmReport {
    std::string name;
    ArmStatus status = ArmStatus::ok;
    std::string message;  ///< why it is not ok
    /// The candidate whose output was the truth for this arm's problem and key.
    std::string reference;
    std::vector<double> samples_ns;
};

/// One key's comparison: arm 0 is the baseline. `error` is set when the key could not be
/// compared at all (its buffers fail, no reference can run it, or the baseline is not ok);
/// then nothing was measured.
struct KeyComparison {
    problem::ProblemKey key;
    std::optional<std::string> error;
    std::vector<ArmReport> arms;
    /// The verdicts, for the arms that were measured (ContenderComparison::arm indexes `arms`).
    tune::ComparisonOutcome outcome;
    double elapsed_s = 0;
};

/// Compares the arms for `key`: plans the key for each arm's problem against `limits`, checks
/// every arm's output against its problem's reference (a wrong output is never measured), then
/// measures the correct ones interleaved until every verdict is settled (tune::run_comparison).
KeyComparison compare_key(std::span<const ComparisonArm> arms, const problem::ProblemKey& key,
                          const DeviceLimits& limits, tune::AutotuneLevel level,
                          const tune::ComparisonSettings& settings);

}  // namespace spvtune::run
