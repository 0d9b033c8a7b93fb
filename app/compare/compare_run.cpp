#include "compare_run.hpp"

#include <cstdio>

#include "../command.hpp"

namespace spvtune::app {

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
    char text[160];
    if (run.fail_if_slower) {
        if (verdict->interval.low <= 1 + *run.fail_if_slower) {
            return std::nullopt;
        }
        std::snprintf(text, sizeof text,
                      "slower than the baseline by more than %g%%: ratio %.3f, 95%% interval "
                      "[%.3f, %.3f]",
                      *run.fail_if_slower * 100, verdict->interval.ratio, verdict->interval.low,
                      verdict->interval.high);
        return std::string(text);
    }
    if (verdict->verdict != tune::Verdict::slower) {
        return std::nullopt;
    }
    std::snprintf(text, sizeof text,
                  "slower than the baseline beyond the %g%% threshold: ratio %.3f, 95%% interval "
                  "[%.3f, %.3f]",
                  run.settings.threshold * 100, verdict->interval.ratio, verdict->interval.low,
                  verdict->interval.high);
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
    return run.fail_if_slower && summary.regressions > 0 ? exit_failure : exit_success;
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
        return "contender / baseline median times of runs measured apart, with the 95% "
               "percentile-bootstrap interval of the ratio of medians" +
               bootstrap;
    }
    return "medians of the per-round ratios contender / baseline (each round measures every arm "
           "side by side), with the 95% percentile-bootstrap interval over rounds" +
           bootstrap;
}

}  // namespace spvtune::app
