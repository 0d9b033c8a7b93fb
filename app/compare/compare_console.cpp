#include <algorithm>
#include <cstdio>
#include <optional>

#include <spvtune/problem/problem_key.hpp>
#include <spvtune/tune/statistics.hpp>

#include "../report/key_table.hpp"
#include "../terminal_color.hpp"
#include "compare_reports.hpp"

namespace spvtune::app {
namespace {

std::string percent(double fraction) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f%%", fraction * 100);
    return text;
}

/// "99.6% interval": how much an arm's interval covers, as a percentage with enough digits to
/// tell the Holm steps apart.
std::string coverage_text(double coverage) {
    char text[40];
    std::snprintf(text, sizeof text, "%.4g%% interval", coverage * 100);
    return text;
}

/// The tone of a contender's outcome (`outcome_word`); `equivalent` stays plain.
std::optional<Tone> outcome_tone(const std::string& word) {
    if (word == "faster") {
        return Tone::good;
    }
    if (word == "inconclusive") {
        return Tone::warning;
    }
    if (word == "skipped" || word == "not compared") {
        return Tone::muted;
    }
    return word == "equivalent" ? std::nullopt : std::optional(Tone::bad);
}

std::string painted_outcome(const Palette& palette, const run::KeyComparison& key,
                            std::size_t arm) {
    const std::string word = outcome_word(key, arm);
    const std::optional<Tone> tone = outcome_tone(word);
    return tone ? palette.paint(word, *tone) : word;
}

void print_key(std::ostream& out, const CompareRun& run, const run::KeyComparison& key,
               const Palette& palette) {
    out << "  " << problem::to_string(key.key);
    if (key.error) {
        out << ": " << palette.paint("not compared", Tone::muted) << ": " << *key.error << '\n';
        return;
    }
    const run::ArmReport& baseline = key.arms.front();
    out << ": baseline " << baseline.name << ' '
        << format_duration_ns(tune::summarize(baseline.samples_ns).median_ns) << " (cv "
        << percent(key.outcome.baseline_cv) << ", " << baseline.samples_ns.size() << " samples)\n";
    std::size_t width = 0;
    for (std::size_t arm = 1; arm < key.arms.size(); ++arm) {
        width = std::max(width, key.arms[arm].name.size());
    }
    for (std::size_t arm = 1; arm < key.arms.size(); ++arm) {
        const run::ArmReport& contender = key.arms[arm];
        out << "    " << pad_right(contender.name, width) << "  ";
        const tune::ContenderComparison* verdict = find_verdict(key, arm);
        if (verdict != nullptr) {
            out << ratio_text(verdict->interval) << " (" << coverage_text(verdict->coverage)
                << ")  " << painted_outcome(palette, key, arm);
            if (verdict->samples_to_settle) {
                out << " (about " << *verdict->samples_to_settle
                    << " samples each would probably settle it)";
            } else if (verdict->verdict == tune::Verdict::inconclusive) {
                out << " (its ratio sits on or too near the threshold for more samples to settle "
                       "it)";
            }
        } else {
            out << painted_outcome(palette, key, arm) << ": " << contender.message;
        }
        if (regression(run, key, arm)) {
            out << (run.fail_if_slower ? "  " + palette.paint("REGRESSION", Tone::bad) : "");
        }
        out << '\n';
    }
}

}  // namespace

void print_compare_report(std::ostream& out, const CompareRun& run, const CompareSummary& summary,
                          const Palette& palette) {
    out << "compare on " << (run.device.empty() ? "an unknown device" : run.device)
        << ": threshold ±" << run.settings.threshold * 100 << "%";
    if (run.fail_if_slower) {
        out << ", gate: slower by more than " << *run.fail_if_slower * 100 << "%";
    }
    out << "\nratios are " << interval_method(run) << "\nverdicts are " << family_method(run);
    if (run.budget_s) {
        out << "; budget " << *run.budget_s << " s";
    }
    out << "; undecided arms: --inconclusive " << inconclusive_policy_name(run.inconclusive)
        << '\n';
    for (const std::string& warning : run.warnings) {
        out << "warning: " << warning << '\n';
    }
    for (const std::string& name : run.added) {
        out << "added (no baseline to compare with): " << name << '\n';
    }
    for (const std::string& name : run.removed) {
        out << "removed (no contender to compare with): " << name << '\n';
    }
    for (const ComparisonGroup& group : run.groups) {
        out << "problem " << group.problem;
        if (group.baseline_source != group.contender_source) {
            out << " (" << group.baseline_source << " -> " << group.contender_source << ')';
        }
        out << '\n';
        for (const run::KeyComparison& key : group.keys) {
            print_key(out, run, key, palette);
        }
    }
    out << "summary: " << summary.faster << " faster, " << summary.slower << " slower, "
        << summary.equivalent << " equivalent, " << summary.inconclusive << " inconclusive, "
        << summary.wrong_output << " wrong output, " << summary.skipped << " skipped, "
        << summary.failed << " failed";
    if (run.fail_if_slower) {
        const bool passed = compare_exit_code(run, summary) == 0;
        out << "; gate "
            << palette.paint(passed ? "passed" : "FAILED", passed ? Tone::good : Tone::bad);
    }
    out << '\n';
}

}  // namespace spvtune::app
