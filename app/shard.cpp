#include "shard.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <variant>

namespace spvtune::app {
namespace {

std::optional<std::size_t> whole_number(const std::string& text) {
    std::size_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc{} || end != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

/// `index` (0-based) of `count` from `source`, checked.
tune::Result<std::optional<Shard>> shard_of(std::optional<std::size_t> index,
                                            std::optional<std::size_t> count,
                                            const std::string& source) {
    if (!index || !count || *count == 0 || *index >= *count) {
        return tune::fail(source + ": expected a shard index below a shard count of 1 or more");
    }
    return std::optional<Shard>(Shard{*index, *count, source});
}

}  // namespace

std::optional<std::string> process_environment(const char* name) {
    const char* value = std::getenv(name);
    return value == nullptr ? std::nullopt : std::optional<std::string>(value);
}

tune::Result<std::optional<Shard>> choose_shard(const std::string& option,
                                                std::optional<std::size_t> shard_count,
                                                const EnvironmentReader& environment) {
    if (!option.empty()) {
        const auto slash = option.find('/');
        const auto index =
            slash == std::string::npos ? std::nullopt : whole_number(option.substr(0, slash));
        const auto count =
            slash == std::string::npos ? std::nullopt : whole_number(option.substr(slash + 1));
        if (!index || !count || *index == 0 || *index > *count) {
            return tune::fail("--shard " + option +
                              ": expected I/N with I from 1 to N, e.g. --shard 2/4");
        }
        return shard_of(*index - 1, count, "--shard " + option);
    }
    auto read_number = [&](const char* name) -> std::optional<std::size_t> {
        const auto text = environment(name);
        return text ? whole_number(*text) : std::nullopt;
    };
    if (const auto task = environment("SLURM_ARRAY_TASK_ID")) {
        const auto id = whole_number(*task);
        const std::size_t first = read_number("SLURM_ARRAY_TASK_MIN").value_or(0);
        const auto count = read_number("SLURM_ARRAY_TASK_COUNT");
        return shard_of(id && *id >= first ? std::optional(*id - first) : std::nullopt, count,
                        "Slurm array (SLURM_ARRAY_TASK_ID " + *task + ")");
    }
    if (const auto index = environment("JOB_COMPLETION_INDEX")) {
        if (!shard_count) {
            return tune::fail(
                "JOB_COMPLETION_INDEX is set (a Kubernetes indexed Job): give the "
                "Job's completions as --shard-count");
        }
        return shard_of(whole_number(*index), shard_count,
                        "Kubernetes indexed Job (JOB_COMPLETION_INDEX " + *index + ")");
    }
    if (const auto node = environment("CI_NODE_INDEX")) {
        const auto index = whole_number(*node);  // 1-based
        return shard_of(index && *index > 0 ? std::optional(*index - 1) : std::nullopt,
                        read_number("CI_NODE_TOTAL"),
                        "GitLab parallel job (CI_NODE_INDEX " + *node + ")");
    }
    if (shard_count) {
        return tune::fail("--shard-count needs JOB_COMPLETION_INDEX (a Kubernetes indexed Job)");
    }
    return std::optional<Shard>();
}

double estimated_cost(const problem::ProblemKey& key, std::size_t candidates) {
    double size = 1;
    for (const auto& [name, value] : key.entries()) {
        if (const auto* integer = std::get_if<std::int64_t>(&value)) {
            size *= std::max<double>(1.0, static_cast<double>(*integer));
        } else if (const auto* real = std::get_if<double>(&value)) {
            size *= std::isfinite(*real) ? std::max(1.0, *real) : 1.0;
        }
    }
    return static_cast<double>(std::max<std::size_t>(candidates, 1)) * size;
}

std::vector<std::size_t> plan_shards(const std::vector<ShardWork>& work, std::size_t count) {
    std::vector<std::size_t> order(work.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (work[a].cost != work[b].cost) {
            return work[a].cost > work[b].cost;
        }
        return work[a].identity < work[b].identity;
    });
    std::vector<double> load(std::max<std::size_t>(count, 1), 0.0);
    std::vector<std::size_t> shard_of(work.size(), 0);
    for (const std::size_t unit : order) {
        const auto least = std::min_element(load.begin(), load.end());
        shard_of[unit] = static_cast<std::size_t>(least - load.begin());
        *least += work[unit].cost;
    }
    return shard_of;
}

}  // namespace spvtune::app
