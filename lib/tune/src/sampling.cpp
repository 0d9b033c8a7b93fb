#include <stdexcept>
#include <string>

#include <spvtune/base/enum_names.hpp>
#include <spvtune/tune/sampling.hpp>

namespace spvtune::tune {

SamplingSettings SamplingSettings::fixed(std::size_t warmups, std::size_t samples) {
    SamplingSettings settings;
    settings.mode = SamplingMode::fixed;
    settings.warmup_runs = warmups;
    settings.max_samples = samples;
    return settings;
}

void to_json(nlohmann::json& json, const SamplingSettings& settings) {
    json = {
        {"mode", settings.mode},
        {"warmup_runs", settings.warmup_runs},
        {"min_samples", settings.min_samples},
        {"max_samples", settings.max_samples},
        {"samples_per_submission", settings.samples_per_submission},
        {"elimination_ratio", settings.elimination_ratio},
        {"stable_relative_width", settings.stable_relative_width},
        {"hopeless_ratio", settings.hopeless_ratio},
        {"indifference", settings.indifference},
        {"time_budget_ms", nullptr},
        {"candidate_budget_ms", nullptr},
    };
    if (settings.time_budget) {
        json["time_budget_ms"] = settings.time_budget->count();
    }
    if (settings.candidate_budget) {
        json["candidate_budget_ms"] = settings.candidate_budget->count();
    }
}

void from_json(const nlohmann::json& json, SamplingSettings& settings) {
    SamplingSettings read;
    if (json.contains("mode")) {
        const auto text = json.at("mode").get<std::string>();
        const auto mode = base::enum_from_json<SamplingMode>(nlohmann::json(text));
        if (!mode) {
            throw std::invalid_argument("sampling mode '" + text +
                                        "' is neither 'adaptive' nor 'fixed'");
        }
        read.mode = *mode;
    }
    read.warmup_runs = json.value("warmup_runs", read.warmup_runs);
    read.min_samples = json.value("min_samples", read.min_samples);
    read.max_samples = json.value("max_samples", read.max_samples);
    // Absent in entries from before rounds of several samples: those took one.
    read.samples_per_submission = json.value("samples_per_submission", std::size_t{1});
    read.elimination_ratio = json.value("elimination_ratio", read.elimination_ratio);
    read.stable_relative_width = json.value("stable_relative_width", read.stable_relative_width);
    read.hopeless_ratio = json.value("hopeless_ratio", read.hopeless_ratio);
    read.indifference = json.value("indifference", read.indifference);
    if (json.contains("time_budget_ms") && !json.at("time_budget_ms").is_null()) {
        read.time_budget = std::chrono::milliseconds(json.at("time_budget_ms").get<std::int64_t>());
    }
    if (json.contains("candidate_budget_ms")) {
        // Written as null when there is no cap; absent in entries from before the cap existed.
        const nlohmann::json& cap = json.at("candidate_budget_ms");
        read.candidate_budget =
            cap.is_null() ? std::nullopt
                          : std::optional(std::chrono::milliseconds(cap.get<std::int64_t>()));
    }
    settings = read;
}

Result<std::vector<Sample>> one_call_each(std::size_t samples,
                                          const std::function<Result<Sample>()>& take_one) {
    std::vector<Sample> taken;
    taken.reserve(samples);
    for (std::size_t i = 0; i < samples; ++i) {
        Result<Sample> sample = take_one();
        if (!sample) {
            return fail(std::move(sample).error());
        }
        taken.push_back(sample.value());
    }
    return taken;
}

Result<Sample> measure_with_host_clock(const std::function<Status()>& run_once,
                                       std::chrono::nanoseconds min_window) {
    using Clock = std::chrono::steady_clock;
    constexpr std::size_t max_runs = std::size_t{1} << 20U;
    for (std::size_t runs = 1;; runs *= 2) {
        const Clock::time_point start = Clock::now();
        for (std::size_t i = 0; i < runs; ++i) {
            Status status = run_once();
            if (!status) {
                return fail(std::move(status).error());
            }
        }
        const auto elapsed = std::chrono::duration<double, std::nano>(Clock::now() - start);
        if (elapsed >= min_window || runs >= max_runs) {
            return Sample{elapsed.count() / static_cast<double>(runs), TimingMethod::host_clock,
                          runs};
        }
    }
}

}  // namespace spvtune::tune
