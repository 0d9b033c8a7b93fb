#include "key_json.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <spvtune/tune/statistics.hpp>
#include <spvtune/tune/tune_entry.hpp>
#include <spvtune/tune/tune_error.hpp>

namespace spvtune::app {

namespace {

/// The time the samples measured, in seconds: each a batch of runs.
double measured_s(const std::vector<std::vector<tune::Sample>>& by_candidate) {
    double ns = 0;
    for (const std::vector<tune::Sample>& candidate : by_candidate) {
        for (const tune::Sample& sample : candidate) {
            ns += sample.ns_per_run * static_cast<double>(sample.runs);
        }
    }
    return ns / 1e9;
}

/// Where the key's wall time went: the kernels themselves (every warm-up and sample, each a
/// batch of runs, and the runs whose outputs were checked), the rest of the measuring calls,
/// the rest of the output runs, the pipeline builds those calls waited for, and everything else.
nlohmann::json time_json(const run::KeyReport& report) {
    const run::ExecutorTime& spent = report.executor_time;
    const double sampled_s = measured_s(report.samples);
    const double checked_s = measured_s(report.run_readings);
    return {{"wall_s", report.elapsed_s},
            {"kernel_s", sampled_s + checked_s},
            {"measuring_overhead_s", std::max(0.0, spent.measuring_s - sampled_s)},
            {"output_runs_s", std::max(0.0, spent.output_runs_s - checked_s)},
            {"pipeline_builds_s", spent.pipeline_builds_s},
            {"other_s", std::max(0.0, report.elapsed_s - spent.measuring_s - spent.output_runs_s -
                                          spent.pipeline_builds_s)}};
}

}  // namespace

nlohmann::json search_json(const tune::TuneEntry& entry) {
    nlohmann::json json =
        entry.settings.contains("search") ? entry.settings["search"] : nlohmann::json::object();
    if (!entry.search) {
        return json;
    }
    const tune::SearchTrace& trace = *entry.search;
    json["strategy"] = trace.strategy;
    json["seed"] = trace.seed;
    json["runnable"] = trace.runnable;
    json["measured"] = trace.steps.size();
    nlohmann::json steps = nlohmann::json::array();
    for (const tune::SearchStep& step : trace.steps) {
        nlohmann::json item{{"name", step.name},
                            {"index", step.index},
                            {"median_ns", step.median_ns ? nlohmann::json(*step.median_ns)
                                                         : nlohmann::json(nullptr)},
                            {"samples", step.samples},
                            {"finalist", step.finalist}};
        if (!step.error.empty()) {
            item["error"] = step.error;
        }
        if (step.elapsed_s) {
            item["elapsed_s"] = *step.elapsed_s;
        }
        if (step.unchecked) {
            item["unchecked"] = true;
        }
        steps.push_back(std::move(item));
    }
    json["trace"] = std::move(steps);
    return json;
}

std::string family_name(const problem::CandidateFamily& family) {
    return family.variant.empty() ? family.name : family.name + "[" + family.variant + "]";
}

nlohmann::json families_json(const problem::Problem& problem) {
    nlohmann::json families = nlohmann::json::array();
    // Loading splits a family whose points are different SPIR-V modules (GLSL defines, a
    // templated spirv path) into copies, one per module, appended after the file's families;
    // each copy has the whole grid, so a reader wants the first alone.
    std::set<std::string> listed;
    for (const problem::CandidateFamily& family : problem.families) {
        if (!listed.insert(family_name(family)).second) {
            continue;
        }
        // A list, not an object: the order of the parameters is the grid's (the first varies
        // slowest), which a JSON object would not keep.
        nlohmann::json grid = nlohmann::json::array();
        for (const problem::GridAxis& axis : family.grid) {
            grid.push_back({{"parameter", axis.name}, {"values", axis.values}});
        }
        families.push_back({{"name", family_name(family)}, {"grid", std::move(grid)}});
    }
    return families;
}

nlohmann::json key_report_json(const problem::Problem& problem, const run::KeyReport& report,
                               std::size_t warmup_runs) {
    nlohmann::json json;
    json["key"] = report.key;
    json["tuning_key"] = report.tuning_key;
    json["status"] = report.status;
    json["elapsed_s"] = report.elapsed_s;
    json["time"] = time_json(report);
    if (!report.error.empty()) {
        json["error"] = report.error;
    }
    if (report.ran) {
        json["ran"] = problem.candidates[*report.ran].name;
    }
    // Per key: with several reference candidates, the first that could run this key.
    json["reference"] = report.reference
                            ? nlohmann::json(problem.candidates[*report.reference].name)
                            : nlohmann::json(nullptr);
    const tune::TuneEntry* entry = report.entry ? &*report.entry : nullptr;
    if (entry) {
        json["winner"] = entry->winner_name;
        json["tuned_at"] = entry->tuned_at;
        json["settings"] = entry->settings;
        if (entry->search || entry->settings.contains("search")) {
            json["search"] = search_json(*entry);
        }
    }

    // Read once, far behind the best, and never checked: not ranked, but its reading is kept.
    std::set<std::size_t> unchecked;
    // A race of every candidate, no search: its trace records no tuning time per point.
    bool raced_all = entry && entry->search;
    if (entry && entry->search) {
        for (const tune::SearchStep& step : entry->search->steps) {
            if (step.unchecked) {
                unchecked.insert(step.index);
            }
            raced_all = raced_all && !step.elapsed_s;
        }
    }
    // Such a race counted a candidate's checked run as its first warm-up when two or more were
    // set (Scheduler::warm_up): one fewer was measured.
    const auto measured_warmups = [&](std::size_t candidate) {
        const bool read =
            candidate < report.run_readings.size() && !report.run_readings[candidate].empty();
        return raced_all && read && warmup_runs >= 2 ? warmup_runs - 1 : warmup_runs;
    };
    nlohmann::json candidates = nlohmann::json::array();
    for (std::size_t i = 0; i < problem.candidates.size(); ++i) {
        const problem::Candidate& described = problem.candidates[i];
        const std::string& name = described.name;
        nlohmann::json candidate{{"name", name}, {"index", i}};
        // Where the candidate sits in its family's grid, so a report can draw the grid.
        candidate["family"] = family_name(problem.families[described.family]);
        nlohmann::json point = nlohmann::json::object();
        for (const auto& [parameter, value] : described.point) {
            point[parameter] = value;
        }
        candidate["point"] = std::move(point);
        std::string status = "not run";
        std::optional<std::size_t> ranked_samples;
        if (entry) {
            for (std::size_t rank = 0; rank < entry->ranking.size(); ++rank) {
                const auto& ranked = entry->ranking[rank];
                if (ranked.name != name) {
                    continue;
                }
                status = rank == 0 ? "winner" : ranked.tied_with_winner ? "tied" : "ok";
                const auto& s = ranked.statistics;
                ranked_samples = s.samples;
                candidate["rank"] = rank + 1;
                candidate["eliminated"] = ranked.eliminated;
                // Spelt as in the cache file (`device_timestamps`, `host_clock`).
                candidate["timing_method"] = ranked.method;
                candidate["statistics"] = {
                    {"samples", s.samples},
                    {"min_ns", s.min_ns},
                    {"median_ns", s.median_ns},
                    {"mean_ns", s.mean_ns},
                    {"stddev_ns", s.stddev_ns},
                    {"ci_low_ns", s.ci_low_ns},
                    {"ci_high_ns", s.ci_high_ns},
                    // The interval's real coverage: below 0.95 for
                    // fewer than 6 samples; null when not measured.
                    {"ci_coverage",
                     s.samples == 0 ? nlohmann::json(nullptr)
                                    : nlohmann::json(tune::median_interval_coverage(s.samples))}};
            }
            for (const tune::CandidateFailure& failure : entry->failures) {
                if (failure.name == name) {
                    status = run::failure_status(report, failure);
                    candidate["reason"] = failure.reason;
                }
            }
        }
        if (status == "not run" && unchecked.contains(i)) {
            status = "unchecked";
            candidate["reason"] = "read far behind the best found, so never checked or raced";
        }
        for (const run::SkippedCandidate& skipped : report.skipped) {
            if (skipped.name == name) {
                status = "skipped";
                candidate["reason"] = skipped.reason;
            }
        }
        candidate["status"] = status;
        if (i < report.samples.size() && !report.samples[i].empty()) {
            const std::vector<tune::Sample>& measured = report.samples[i];
            // Adaptive sampling may warm a candidate up beyond the set count, so a ranked
            // candidate's warm-ups are what its statistics did not count.
            // An unchecked point's readings are all search samples: it took no warm-up.
            const std::size_t warmup_count = ranked_samples && *ranked_samples <= measured.size()
                                                 ? measured.size() - *ranked_samples
                                             : status == "unchecked"
                                                 ? 0
                                                 : std::min(measured_warmups(i), measured.size());
            nlohmann::json warmups = nlohmann::json::array();
            nlohmann::json samples = nlohmann::json::array();
            for (std::size_t s = 0; s < measured.size(); ++s) {
                (s < warmup_count ? warmups : samples).push_back(measured[s].ns_per_run);
            }
            candidate["warmup_ns"] = warmups;
            candidate["samples_ns"] = samples;
            // The runs its last sample timed: in a race, the batch shared by every candidate
            // (a far slower one's is smaller), so that their times are comparable.
            candidate["batch_runs"] = measured.back().runs;
        }
        if (i < report.run_readings.size() && !report.run_readings[i].empty()) {
            nlohmann::json readings = nlohmann::json::array();
            for (const tune::Sample& reading : report.run_readings[i]) {
                readings.push_back(reading.ns_per_run);
            }
            candidate["output_runs_ns"] = readings;
        }
        candidates.push_back(candidate);
    }
    json["candidates"] = candidates;
    return json;
}

}  // namespace spvtune::app
