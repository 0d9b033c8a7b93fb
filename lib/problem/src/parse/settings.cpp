#include <spvtune/tune/sampling.hpp>
#include <spvtune/tune/search.hpp>

#include "problem_parser.hpp"

namespace spvtune::problem::detail {
namespace {

std::optional<std::uint32_t> count(Reader& reader, const Json& json, const std::string& pointer,
                                   std::int64_t min) {
    if (auto value = reader.integer(json, pointer, min, max_sample_count)) {
        return static_cast<std::uint32_t>(*value);
    }
    return std::nullopt;
}

/// A number of seconds `field` holds, which must be > 0 (`noun` names it in the error).
std::optional<double> positive_seconds(Reader& reader, const Json& json, const std::string& field,
                                       const std::string& noun) {
    const std::string at = child("/settings", field);
    std::optional<double> value = reader.number(json[field], at, 0);
    if (value && *value == 0) {
        reader.error(at, "expected a " + noun + " > 0, found 0");
    }
    return value;
}

/// The search's settings: strategy, budget, limit on points, seed, patience.
void parse_search_settings(Reader& reader, const Json& json, Settings& settings) {
    const std::string pointer = "/settings";
    if (json.contains("search")) {
        settings.search = reader.choice<tune::SearchStrategy>(
            json["search"], child(pointer, "search"),
            {tune::SearchStrategy::exhaustive, tune::SearchStrategy::random,
             tune::SearchStrategy::halving, tune::SearchStrategy::local,
             tune::SearchStrategy::genetic, tune::SearchStrategy::bayes});
    }
    if (json.contains("search_budget_s")) {
        settings.search_budget_s =
            positive_seconds(reader, json, "search_budget_s", "search budget");
    }
    if (json.contains("max_candidates")) {
        settings.max_candidates =
            count(reader, json["max_candidates"], child(pointer, "max_candidates"), 1);
    }
    if (json.contains("seed")) {
        if (auto seed = reader.integer(json["seed"], child(pointer, "seed"), 0)) {
            settings.seed = static_cast<std::uint64_t>(*seed);
        }
    }
    if (json.contains("patience")) {
        if (auto patience = reader.integer(json["patience"], child(pointer, "patience"), 1,
                                           static_cast<std::int64_t>(tune::max_patience))) {
            settings.patience = static_cast<std::uint32_t>(*patience);
        }
    }
}

}  // namespace

void parse_settings(Reader& reader, const Json& json, Problem& problem) {
    const std::string pointer = "/settings";
    if (!reader.object(
            json, pointer, {},
            {"mode", "warmup", "samples", "min_samples", "samples_per_submission", "min_sample_ms",
             "time_budget_s", "candidate_budget_s", "indifference_percent", "kernel_timeout_s",
             "search", "search_budget_s", "max_candidates", "seed", "patience"})) {
        return;
    }
    Settings& settings = problem.settings;
    if (json.contains("mode")) {
        settings.mode = reader.choice<SamplingMode>(json["mode"], child(pointer, "mode"),
                                                    {SamplingMode::adaptive, SamplingMode::fixed});
    }
    if (json.contains("warmup")) {
        settings.warmup = count(reader, json["warmup"], child(pointer, "warmup"), 0);
    }
    if (json.contains("samples")) {
        settings.samples = count(reader, json["samples"], child(pointer, "samples"), 1);
    }
    if (json.contains("min_samples")) {
        settings.min_samples = count(reader, json["min_samples"], child(pointer, "min_samples"), 1);
    }
    if (settings.samples && settings.min_samples && *settings.min_samples > *settings.samples) {
        reader.error(child(pointer, "min_samples"), "expected min_samples <= samples, found " +
                                                        std::to_string(*settings.min_samples) +
                                                        " > " + std::to_string(*settings.samples));
    }
    if (json.contains("samples_per_submission")) {
        if (auto samples = reader.integer(
                json["samples_per_submission"], child(pointer, "samples_per_submission"), 1,
                static_cast<std::int64_t>(tune::max_samples_per_submission))) {
            settings.samples_per_submission = static_cast<std::uint32_t>(*samples);
        }
    }
    if (json.contains("min_sample_ms")) {
        settings.min_sample_ms =
            reader.number(json["min_sample_ms"], child(pointer, "min_sample_ms"), 0);
    }
    if (json.contains("time_budget_s")) {
        settings.time_budget_s = positive_seconds(reader, json, "time_budget_s", "time budget");
    }
    if (json.contains("candidate_budget_s")) {
        settings.candidate_budget_s =
            positive_seconds(reader, json, "candidate_budget_s", "candidate budget");
    }
    if (json.contains("indifference_percent")) {
        const std::string at = child(pointer, "indifference_percent");
        settings.indifference_percent = reader.number(json["indifference_percent"], at, 0);
        if (settings.indifference_percent && *settings.indifference_percent >= 100) {
            reader.error(at, "expected a percentage below 100, found " +
                                 json["indifference_percent"].dump());
        }
    }
    if (json.contains("kernel_timeout_s")) {
        settings.kernel_timeout_s =
            positive_seconds(reader, json, "kernel_timeout_s", "kernel timeout");
    }
    parse_search_settings(reader, json, settings);
}

}  // namespace spvtune::problem::detail
