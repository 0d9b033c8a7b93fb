#include "compare_run.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <spvtune/base/enum_names.hpp>
#include <spvtune/problem/problem_key.hpp>

#include "../command.hpp"

namespace spvtune::app {

namespace {

constexpr base::EnumNames<InconclusivePolicy, 3> inconclusive_policy_names{{
    {InconclusivePolicy::pass, "pass"},
    {InconclusivePolicy::warn, "warn"},
    {InconclusivePolicy::fail, "fail"},
}};

}  // namespace

std::string_view inconclusive_policy_name(InconclusivePolicy policy) noexcept {
    return base::name_of(inconclusive_policy_names, policy);
}

const tune::ContenderComparison* find_verdict(const run::KeyComparison& key, std::size_t arm) {
    for (const tune::ContenderComparison& contender : key.outcome.contenders) {
        if (contender.arm == arm) {
            return &contender;
        }
    }
    return nullptr;
}

std::optional<std::string> regression(const CompareRun& run, const run::KeyComparison& key,
                                      std::size_t arm) {
    const run::ArmReport& report = key.arms[arm];
    if (report.status == run::ArmStatus::wrong_output) {
        return "wrong output: " + report.message;
    }
    const tune::ContenderComparison* verdict = find_verdict(key, arm);
    if (verdict == nullptr) {
        return std::nullopt;
    }
    char text[200];
    if (verdict->verdict == tune::Verdict::inconclusive &&
        run.inconclusive == InconclusivePolicy::fail) {
        std::snprintf(text, sizeof text,
                      "still inconclusive when sampling ended (--inconclusive fail): ratio %.3f, "
                      "%.4g%% interval [%.3f, %.3f]",
                      verdict->interval.ratio, verdict->coverage * 100, verdict->interval.low,
                      verdict->interval.high);
        return std::string(text);
    }
    if (run.fail_if_slower) {
        if (!tune::confidently_slower_than(*verdict, 1 + *run.fail_if_slower)) {
            return std::nullopt;
        }
        std::snprintf(text, sizeof text,
                      "slower than the baseline by more than %g%%: ratio %.3f, %.4g%% interval "
                      "[%.3f, %.3f]",
                      *run.fail_if_slower * 100, verdict->interval.ratio, verdict->coverage * 100,
                      verdict->interval.low, verdict->interval.high);
        return std::string(text);
    }
    if (verdict->verdict != tune::Verdict::slower) {
        return std::nullopt;
    }
    std::snprintf(text, sizeof text,
                  "slower than the baseline beyond the %g%% threshold: ratio %.3f, %.4g%% interval "
                  "[%.3f, %.3f]",
                  run.settings.threshold * 100, verdict->interval.ratio, verdict->coverage * 100,
                  verdict->interval.low, verdict->interval.high);
    return std::string(text);
}

CompareSummary summarize(const CompareRun& run) {
    CompareSummary summary;
    for (const ComparisonGroup& group : run.groups) {
        for (const run::KeyComparison& key : group.keys) {
            if (key.error) {
                ++summary.failed;
                continue;
            }
            for (std::size_t arm = 1; arm < key.arms.size(); ++arm) {
                switch (key.arms[arm].status) {
                    case run::ArmStatus::wrong_output:
                        ++summary.wrong_output;
                        break;
                    case run::ArmStatus::skipped:
                        ++summary.skipped;
                        break;
                    case run::ArmStatus::failed:
                        ++summary.failed;
                        break;
                    case run::ArmStatus::ok:
                        break;
                }
                if (const tune::ContenderComparison* verdict = find_verdict(key, arm)) {
                    switch (verdict->verdict) {
                        case tune::Verdict::faster:
                            ++summary.faster;
                            break;
                        case tune::Verdict::slower:
                            ++summary.slower;
                            break;
                        case tune::Verdict::equivalent:
                            ++summary.equivalent;
                            break;
                        case tune::Verdict::inconclusive:
                            ++summary.inconclusive;
                            break;
                    }
                }
                summary.regressions += regression(run, key, arm).has_value();
            }
        }
    }
    return summary;
}

int compare_exit_code(const CompareRun& run, const CompareSummary& summary) {
    if (summary.failed > 0) {
        return exit_failure;
    }
    const bool gated = run.fail_if_slower || run.inconclusive == InconclusivePolicy::fail;
    return gated && summary.regressions > 0 ? exit_failure : exit_success;
}

std::string ratio_text(const tune::RatioInterval& interval) {
    char text[80];
    std::snprintf(text, sizeof text, "%.3fx [%.3f, %.3f]", interval.ratio, interval.low,
                  interval.high);
    return text;
}

std::string outcome_word(const run::KeyComparison& key, std::size_t arm) {
    if (key.error) {
        return "not compared";
    }
    if (const tune::ContenderComparison* verdict = find_verdict(key, arm)) {
        return std::string(tune::verdict_name(verdict->verdict));
    }
    return std::string(run::arm_status_name(key.arms[arm].status));
}

std::string interval_method(const CompareRun& run) {
    const std::string bootstrap = " (" + std::to_string(run.settings.resamples) +
                                  " resamples, seed " + std::to_string(run.settings.seed) + ")";
    if (run.mode == "results") {
        return "contender / baseline median times of runs measured apart, with the "
               "percentile-bootstrap interval of the ratio of medians at each arm's coverage" +
               bootstrap;
    }
    return "medians of the per-round ratios contender / baseline (each round measures every arm "
           "side by side), with the sign test's distribution-free interval over rounds at each "
           "arm's coverage";
}

std::string family_method(const CompareRun& run) {
    char text[300];
    std::snprintf(text, sizeof text,
                  "judged together by Holm's step-down over %zu arm%s (keys x contenders) at "
                  "%g%% family-wise confidence, split over %zu look%s: %.3g%% to spend",
                  run.family.size, run.family.size == 1 ? "" : "s",
                  (1 - run.family.family_level) * 100, run.family.looks,
                  run.family.looks == 1 ? "" : "s", run.family.look_level * 100);
    return text;
}

namespace {

std::string percent_text(double fraction) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f%%", fraction * 100);
    return text;
}

/// The undecided arms of `key`, by name.
std::vector<std::string> undecided_arms(const run::KeyComparison& key) {
    std::vector<std::string> names;
    for (const tune::ContenderComparison& contender : key.outcome.contenders) {
        if (contender.verdict == tune::Verdict::inconclusive) {
            names.push_back(key.arms[contender.arm].name);
        }
    }
    return names;
}

/// "n=4096: a, b": the key and its undecided arms.
std::string key_and_arms(const run::KeyComparison& key, const std::vector<std::string>& names) {
    std::string text = problem::to_string(key.key) + ":";
    for (std::size_t i = 0; i < names.size(); ++i) {
        text += (i == 0 ? " " : ", ") + names[i];
    }
    return text;
}

}  // namespace

void judge_run(CompareRun& run) {
    std::vector<tune::ComparisonOutcome*> outcomes;
    for (ComparisonGroup& group : run.groups) {
        for (run::KeyComparison& key : group.keys) {
            outcomes.push_back(&key.outcome);
        }
    }
    run.family = tune::judge_family(outcomes, run.settings);

    // A baseline too noisy for the threshold explains undecided arms; the CV quoted is the one the
    // table shows for that baseline.
    std::string noisy;
    std::string undecided;
    std::size_t undecided_count = 0;
    for (const ComparisonGroup& group : run.groups) {
        for (const run::KeyComparison& key : group.keys) {
            const std::vector<std::string> names = undecided_arms(key);
            if (names.empty()) {
                continue;
            }
            const std::string where = key_and_arms(key, names);
            undecided += (undecided.empty() ? "" : "; ") + where;
            undecided_count += names.size();
            if (tune::too_noisy_for(key.outcome.baseline_cv, run.settings.threshold,
                                    std::max<std::size_t>(key.outcome.rounds, 1))) {
                noisy += (noisy.empty() ? "" : "; ") + where + " (baseline " +
                         key.arms.front().name + ", cv " + percent_text(key.outcome.baseline_cv) +
                         ")";
            }
        }
    }
    if (!noisy.empty()) {
        char advice[200];
        std::snprintf(advice, sizeof advice,
                      ": the baseline's samples vary too much to settle a ±%g%% threshold in the "
                      "rounds measured; raise --budget or --min-sample-ms, widen --threshold, or "
                      "quiet the machine",
                      run.settings.threshold * 100);
        run.warnings.push_back("noisy measurements left arms undecided: " + noisy + advice);
    }
    if (undecided_count > 0 && run.inconclusive == InconclusivePolicy::warn) {
        run.warnings.push_back(std::to_string(undecided_count) +
                               " arm(s) still inconclusive when sampling ended, passed by "
                               "--inconclusive warn: " +
                               undecided);
    }
}

}  // namespace spvtune::app
