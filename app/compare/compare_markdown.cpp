#include <cstdio>
#include <sstream>

#include <spvtune/problem/problem_key.hpp>
#include <spvtune/tune/statistics.hpp>

#include "../report/key_table.hpp"
#include "../report/markdown_text.hpp"
#include "compare_reports.hpp"

namespace spvtune::app {
namespace {

/// Every name, key value and message comes from files a pull request can edit.
std::string cell(const std::string& text) {
    return markdown_text(text);
}

std::string median_text(const run::ArmReport& arm) {
    return arm.samples_ns.empty() ? ""
                                  : format_duration_ns(tune::summarize(arm.samples_ns).median_ns);
}

std::string coverage_percent(double coverage) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4g%%", coverage * 100);
    return text;
}

}  // namespace

std::string compare_markdown(const CompareRun& run) {
    const CompareSummary summary = summarize(run);
    std::ostringstream out;
    out << "## spvtune compare\n\n";
    out << "Device: " << cell(run.device) << ". Threshold ±" << run.settings.threshold * 100 << "%";
    if (run.fail_if_slower) {
        out << ", gate: fail if slower by more than " << *run.fail_if_slower * 100 << "%";
    }
    out << ". Ratios are " << interval_method(run) << "; verdicts are " << family_method(run)
        << "; undecided arms: " << inconclusive_policy_name(run.inconclusive) << ".\n\n";
    out << "**" << summary.faster << " faster, " << summary.slower << " slower, "
        << summary.equivalent << " equivalent, " << summary.inconclusive << " inconclusive, "
        << summary.wrong_output << " wrong output, " << summary.failed << " failed";
    if (run.fail_if_slower) {
        out << "; gate " << (compare_exit_code(run, summary) == 0 ? "passed" : "FAILED");
    }
    out << "**\n";
    for (const std::string& warning : run.warnings) {
        out << "\n> **Warning:** " << cell(warning) << "\n";
    }
    if (!run.added.empty() || !run.removed.empty()) {
        out << "\n";
        for (const std::string& name : run.added) {
            out << "- added: " << markdown_code(name) << "\n";
        }
        for (const std::string& name : run.removed) {
            out << "- removed: " << markdown_code(name) << "\n";
        }
    }
    for (const ComparisonGroup& group : run.groups) {
        out << "\n### " << cell(group.problem) << "\n\n";
        out << "| key | baseline | contender | baseline median | contender median | ratio "
               "[interval] "
               "| coverage | verdict |\n";
        out << "|---|---|---|---:|---:|---|---:|---|\n";
        for (const run::KeyComparison& key : group.keys) {
            const std::string key_text = cell(problem::to_string(key.key));
            if (key.error || key.arms.size() < 2) {
                out << "| " << key_text << " | "
                    << (key.arms.empty() ? "" : cell(key.arms.front().name)) << " | | | | | | "
                    << "not compared: " << cell(key.error.value_or("no contender")) << " |\n";
                continue;
            }
            for (std::size_t arm = 1; arm < key.arms.size(); ++arm) {
                const tune::ContenderComparison* verdict = find_verdict(key, arm);
                // Escaped before the emphasis is added, which must stay markup.
                std::string word = cell(outcome_word(key, arm));
                if (regression(run, key, arm)) {
                    word = "**" + word + "** ❌";
                }
                if (!key.arms[arm].message.empty() && verdict == nullptr) {
                    word += ": " + cell(key.arms[arm].message);
                }
                out << "| " << key_text << " | " << cell(key.arms.front().name) << " | "
                    << cell(key.arms[arm].name) << " | " << median_text(key.arms.front()) << " | "
                    << median_text(key.arms[arm]) << " | "
                    << (verdict ? ratio_text(verdict->interval) : "") << " | "
                    << (verdict ? coverage_percent(verdict->coverage) : "") << " | " << word
                    << " |\n";
            }
        }
    }
    return out.str();
}

}  // namespace spvtune::app
