#include <spvtune/tune/search.hpp>

#include "search_run.hpp"

namespace spvtune::tune {

SearchStrategy choose_strategy(const SearchSettings& settings, std::size_t runnable) {
    if (settings.strategy) {
        return *settings.strategy;
    }
    // A limit below the key's size would cut an exhaustive run at the file's first points, not
    // at the ones a search finds promising.
    const bool limited = settings.max_candidates && *settings.max_candidates < runnable;
    return runnable > local_search_threshold || limited ? SearchStrategy::bayes
                                                        : SearchStrategy::exhaustive;
}

SearchOutcome run_search(std::span<const SearchPoint> points, SearchStrategy strategy,
                         const SearchSettings& settings, const SamplingSettings& sampling,
                         const SearchHooks& hooks, std::optional<std::size_t> first) {
    detail::SearchRun run(points, strategy, settings, sampling, hooks, first);
    std::vector<std::size_t> finalists;
    switch (strategy) {
        case SearchStrategy::exhaustive:
            finalists = detail::search_exhaustive(run);
            break;
        case SearchStrategy::random:
            finalists = detail::search_random(run);
            break;
        case SearchStrategy::halving:
            finalists = detail::search_halving(run);
            break;
        case SearchStrategy::local:
            finalists = detail::search_local(run);
            break;
        case SearchStrategy::genetic:
            finalists = detail::search_genetic(run);
            break;
        case SearchStrategy::bayes:
            finalists = detail::search_bayes(run);
            break;
    }
    return run.finish(finalists);
}

nlohmann::json search_summary_json(const SearchSettings& settings, const SearchTrace& trace) {
    nlohmann::json json{{"strategy", trace.strategy},
                        {"seed", trace.seed},
                        {"measured", trace.steps.size()},
                        {"runnable", trace.runnable}};
    json["budget_s"] = settings.budget
                           ? nlohmann::json(static_cast<double>(settings.budget->count()) / 1000)
                           : nlohmann::json(nullptr);
    json["max_candidates"] = settings.max_candidates ? nlohmann::json(*settings.max_candidates)
                                                     : nlohmann::json(nullptr);
    return json;
}

}  // namespace spvtune::tune
