#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include <spvtune/base/enum_names.hpp>
#include <spvtune/run/key_plan.hpp>
#include <spvtune/run/output_check.hpp>
#include <spvtune/run/problem_comparison.hpp>
#include <spvtune/tune/shared_batch.hpp>

namespace spvtune::run {

namespace {

constexpr base::EnumNames<ArmStatus, 4> arm_status_names{{
    {ArmStatus::ok, "ok"},
    {ArmStatus::wrong_output, "wrong output"},
    {ArmStatus::skipped, "skipped"},
    {ArmStatus::failed, "failed"},
}};

}  // namespace

std::string_view arm_status_name(ArmStatus status) noexcept {
    return base::name_of(arm_status_names, status);
}

namespace {

/// A problem's plan for the key and its reference's output, shared by the arms of that problem.
struct Truth {
    KeyPlan plan;
    std::string reference;
    std::optional<CandidateOutputs> outputs;
    std::optional<std::string> error;
};

Truth find_truth(const problem::Problem& problem, ProblemRunner& runner,
                 const problem::ProblemKey& key, const DeviceLimits& limits,
                 tune::AutotuneLevel level) {
    Truth truth{plan_key(problem, key, &limits, level), {}, {}, {}};
    if (truth.plan.error) {
        truth.error = *truth.plan.error;
        return truth;
    }
    const std::size_t reference = truth.plan.runnable[*truth.plan.reference].candidate;
    truth.reference = problem.candidates[reference].name;
    auto outputs = runner.run(reference, truth.plan);
    if (!outputs) {
        truth.error = "the reference candidate " + truth.reference + " failed: " + outputs.error();
        return truth;
    }
    truth.outputs = std::move(outputs.value());
    return truth;
}

std::optional<std::string> skip_reason(const KeyPlan& plan, const std::string& name) {
    for (const SkippedCandidate& skipped : plan.skipped) {
        if (skipped.name == name) {
            return skipped.reason;
        }
    }
    return std::nullopt;
}

/// Runs the arm once and compares its output with the truth: the status it enters sampling with.
ArmReport check_arm(const ComparisonArm& arm, const Truth& truth) {
    const problem::Problem& problem = *arm.problem;
    ArmReport report;
    report.name = problem.candidates[arm.candidate].name;
    report.reference = truth.reference;
    if (truth.error) {
        report.status = ArmStatus::failed;
        report.message = *truth.error;
        return report;
    }
    if (const auto reason = skip_reason(truth.plan, report.name)) {
        report.status = ArmStatus::skipped;
        report.message = *reason;
        return report;
    }
    auto outputs = arm.runner->run(arm.candidate, truth.plan);
    if (!outputs) {
        report.status = ArmStatus::failed;
        report.message = outputs.error();
    } else if (auto mismatch = compare_outputs(problem, *truth.outputs, outputs.value())) {
        report.status = ArmStatus::wrong_output;
        report.message = std::move(*mismatch);
    }
    return report;
}

}  // namespace

KeyComparison compare_key(std::span<const ComparisonArm> arms, const problem::ProblemKey& key,
                          const DeviceLimits& limits, tune::AutotuneLevel level,
                          const tune::ComparisonSettings& settings) {
    const auto start = std::chrono::steady_clock::now();
    KeyComparison comparison;
    comparison.key = key;
    std::map<const problem::Problem*, Truth> truths;
    for (const ComparisonArm& arm : arms) {
        auto found = truths.find(arm.problem);
        if (found == truths.end()) {
            found =
                truths
                    .emplace(arm.problem, find_truth(*arm.problem, *arm.runner, key, limits, level))
                    .first;
        }
        comparison.arms.push_back(check_arm(arm, found->second));
    }
    const ArmReport& baseline = comparison.arms.front();
    if (baseline.status != ArmStatus::ok) {
        comparison.error = "the baseline " + baseline.name + " is " +
                           std::string(arm_status_name(baseline.status)) + ": " + baseline.message;
    } else {
        // An arm that is not ok fails its first warm-up here, so it is never measured and gets
        // no verdict; its status and message stay as the check found them.
        // Every arm's samples are timed over one batch (see SharedBatch): on lavapipe a batch of
        // 1 ran 10-30% slower per run than one of 10, and CI called a copy of its baseline that
        // calibrated to the other side of a batch boundary faster.
        tune::SharedBatch batches(arms.size());
        comparison.outcome = tune::run_comparison(
            arms.size(), settings, [&](std::size_t index) -> tune::Result<tune::Sample> {
                const ArmReport& report = comparison.arms[index];
                if (report.status != ArmStatus::ok) {
                    return tune::fail(std::string(arm_status_name(report.status)));
                }
                const ComparisonArm& arm = arms[index];
                tune::Result<tune::Sample> sample =
                    arm.runner->measure(arm.candidate, truths.at(arm.problem).plan,
                                        static_cast<std::uint32_t>(batches.runs_for(index)));
                if (sample) {
                    batches.measured(index, sample.value());
                }
                return sample;
            });
        for (std::size_t index = 0; index < comparison.arms.size(); ++index) {
            ArmReport& report = comparison.arms[index];
            report.samples_ns = comparison.outcome.samples[index];
            if (report.status == ArmStatus::ok && comparison.outcome.errors[index]) {
                report.status = ArmStatus::failed;
                report.message = *comparison.outcome.errors[index];
            }
        }
        if (comparison.arms.front().status != ArmStatus::ok) {
            comparison.error = "the baseline " + baseline.name +
                               " failed while measured: " + comparison.arms.front().message;
        }
    }
    comparison.elapsed_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return comparison;
}

}  // namespace spvtune::run
