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

/// The search's settings: strategy, budget, limit on points, seed.
void parse_search_settings(Reader& reader, const Json& json, Settings& settings) {
    const std::string pointer = "/settings";
    if (json.contains("search")) {
        settings.search = reader.choice<tune::SearchStrategy>(
            json["search"], child(pointer, "search"),
            {tune::SearchStrategy::exhaustive, tune::SearchStrategy::random,
             tune::SearchStrategy::halving, tune::SearchStrategy::local});
    }
    if (json.contains("search_budget_s")) {
        const std::string at = child(pointer, "search_budget_s");
        settings.search_budget_s = reader.number(json["search_budget_s"], at, 0);
        if (settings.search_budget_s && *settings.search_budget_s == 0) {
            reader.error(at, "expected a search budget > 0, found 0");
        }
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
}

}  // namespace

void parse_settings(Reader& reader, const Json& json, Problem& problem) {
    const std::string pointer = "/settings";
    if (!reader.object(
            json, pointer, {},
            {"mode", "warmup", "samples", "min_samples", "min_sample_ms", "time_budget_s",
             "candidate_budget_s", "indifference_percent", "kernel_timeout_s", "search",
             "search_budget_s", "max_candidates", "seed"})) {
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
    if (json.contains("min_sample_ms")) {
        settings.min_sample_ms =
            reader.number(json["min_sample_ms"], child(pointer, "min_sample_ms"), 0);
    }
    if (json.contains("time_budget_s")) {
        const std::string at = child(pointer, "time_budget_s");
        settings.time_budget_s = reader.number(json["time_budget_s"], at, 0);
        if (settings.time_budget_s && *settings.time_budget_s == 0) {
            reader.error(at, "expected a time budget > 0, found 0");
        }
    }
    if (json.contains("candidate_budget_s")) {
        const std::string at = child(pointer, "candidate_budget_s");
        settings.candidate_budget_s = reader.number(json["candidate_budget_s"], at, 0);
        if (settings.candidate_budget_s && *settings.candidate_budget_s == 0) {
            reader.error(at, "expected a candidate budget > 0, found 0");
        }
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
        const std::string at = child(pointer, "kernel_timeout_s");
        settings.kernel_timeout_s = reader.number(json["kernel_timeout_s"], at, 0);
        if (settings.kernel_timeout_s && *settings.kernel_timeout_s == 0) {
            reader.error(at, "expected a kernel timeout > 0, found 0");
        }
    }
    parse_search_settings(reader, json, settings);
}

}  // namespace spvtune::problem::detail
