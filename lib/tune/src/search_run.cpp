#include "search_run.hpp"

#include <algorithm>
#include <array>
#include <numeric>
#include <string>
#include <utility>

#include <spvtune/tune/statistics.hpp>

namespace spvtune::tune::detail {

std::uint64_t SearchRandom::next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

SearchRun::SearchRun(std::span<const SearchPoint> points, SearchStrategy strategy,
                     const SearchSettings& settings, const SamplingSettings& sampling,
                     const SearchHooks& hooks, std::optional<std::size_t> first)
    : points_(points),
      settings_(settings),
      sampling_(sampling),
      hooks_(hooks),
      first_(first && *first < points.size() ? first : std::nullopt),
      start_(hooks.now ? hooks.now() : std::chrono::steady_clock::now()),
      random_(settings.seed),
      state_(points.size()) {
    outcome_.trace.strategy = strategy;
    outcome_.trace.seed = settings.seed;
    outcome_.trace.runnable = points.size();
}

namespace {

void put_first(std::vector<std::size_t>& order, std::optional<std::size_t> first) {
    if (first) {
        const auto at = std::find(order.begin(), order.end(), *first);
        std::rotate(order.begin(), at, at + 1);
    }
}

}  // namespace

std::vector<std::size_t> SearchRun::registration_order() const {
    std::vector<std::size_t> order(points_.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    put_first(order, first_);
    return order;
}

std::vector<std::size_t> SearchRun::shuffled_order() {
    std::vector<std::size_t> order(points_.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    for (std::size_t i = order.size(); i > 1; --i) {
        std::swap(order[i - 1], order[random_.below(i)]);
    }
    put_first(order, first_);
    return order;
}

bool SearchRun::budget_spent() const {
    if (!settings_.budget) {
        return false;
    }
    const auto now = hooks_.now ? hooks_.now() : std::chrono::steady_clock::now();
    return now - start_ >= *settings_.budget;
}

bool SearchRun::can_propose() const {
    if (settings_.max_candidates && measured_ >= *settings_.max_candidates) {
        return false;
    }
    return measured_ < points_.size() && !budget_spent();
}

void SearchRun::drop(std::size_t p, CandidateFailure failure) {
    PointState& state = state_[p];
    state.dropped = true;
    state.samples.clear();
    outcome_.trace.steps[state.step].median_ns.reset();
    outcome_.trace.steps[state.step].error = failure.reason;
    outcome_.benchmark.failures.push_back(std::move(failure));
}

bool SearchRun::admit(std::size_t p) {
    return enter(p) && check(p);
}

bool SearchRun::enter(std::size_t p) {
    PointState& state = state_[p];
    if (state.touched) {
        return !state.dropped;
    }
    // The reference goes first whatever the strategy proposes: the check compares with it.
    if (first_ && p != *first_ && !state_[*first_].touched) {
        admit(*first_);
    }
    state.touched = true;
    touched_.insert(std::ranges::upper_bound(touched_, p), p);
    state.step = outcome_.trace.steps.size();
    const BenchmarkCandidate& c = points_[p].candidate;
    const auto now = hooks_.now ? hooks_.now() : std::chrono::steady_clock::now();
    outcome_.trace.steps.push_back({c.index,
                                    std::string(c.name),
                                    std::nullopt,
                                    0,
                                    {},
                                    false,
                                    std::chrono::duration<double>(now - start_).count()});
    ++measured_;
    if (hooks_.admit) {
        if (std::optional<CandidateFailure> failure = hooks_.admit(c.index)) {
            drop(p, std::move(*failure));
            return false;
        }
    }
    // The reference's output is the truth the others are checked against: it cannot wait.
    return p != first_ || check(p);
}

bool SearchRun::check(std::size_t p) {
    PointState& state = state_[p];
    if (state.dropped) {
        return false;
    }
    if (state.checked) {
        return true;
    }
    state.checked = true;
    if (hooks_.check) {
        const BenchmarkCandidate& c = points_[p].candidate;
        if (std::optional<CandidateFailure> failure = hooks_.check(c.index)) {
            drop(p, std::move(*failure));
            return false;
        }
    }
    return true;
}

std::optional<double> SearchRun::probe(std::size_t p, std::size_t samples) {
    const bool first_touch = !state_[p].touched;
    if (!enter(p)) {
        return std::nullopt;
    }
    PointState& state = state_[p];
    const BenchmarkCandidate& c = points_[p].candidate;
    // Never more than the race itself would take of a candidate.
    samples = std::min(samples, std::max<std::size_t>(1, sampling_.max_samples));
    // A brief measurement must stay brief. With a check, no warm-up: the executor's calibration
    // runs a never-run kernel before its first reading (a short one twice, the first discarded),
    // and a long one's cold run costs it a few per cent at most. An admission runs nothing and
    // needs none (a replay). Otherwise one warm-up.
    if (first_touch && !hooks_.check && !hooks_.admit && sampling_.warmup_runs > 0) {
        if (Result<Sample> warm = hooks_.measure(c.index); !warm) {
            drop(p, {std::string(c.name), c.index, FailureKind::error, "warm-up: " + warm.error()});
            return std::nullopt;
        }
    }
    // Fixed for the probe: only this point's samples change, and it is not among the others.
    const std::optional<double> best = best_median_except(p);
    const auto far_behind = [&] {
        return best && !state.samples.empty() &&
               *std::ranges::min_element(state.samples) > hopeless_probe_ratio * *best;
    };
    while (state.samples.size() < samples && !far_behind()) {
        if (!state.samples.empty() && !check(p)) {
            return std::nullopt;
        }
        Result<Sample> sample = hooks_.measure(c.index);
        if (!sample) {
            drop(p, {std::string(c.name), c.index, FailureKind::error,
                     "search sample: " + sample.error()});
            return std::nullopt;
        }
        state.samples.push_back(sample.value().ns_per_run);
        state.median_ns = summarize(state.samples).median_ns;
        state.method = sample.value().method;
    }
    if (!far_behind() && !check(p)) {
        return std::nullopt;
    }
    SearchStep& step = outcome_.trace.steps[state.step];
    step.samples = state.samples.size();
    step.median_ns = median(p);
    return step.median_ns;
}

std::optional<double> SearchRun::best_median_except(std::size_t p) const {
    std::optional<double> best;
    for (const std::size_t q : touched_) {
        if (q != p) {
            if (const std::optional<double> m = median(q); m && (!best || *m < *best)) {
                best = m;
            }
        }
    }
    return best;
}

std::optional<double> SearchRun::median(std::size_t p) const {
    const PointState& state = state_[p];
    if (state.dropped || state.samples.empty()) {
        return std::nullopt;
    }
    return state.median_ns;
}

bool SearchRun::clearly_faster(std::size_t a, std::size_t b) const {
    const std::optional<double> faster = median(a);
    if (!faster || !median(b)) {
        return false;
    }
    return *faster < summarize(state_[b].samples).ci_low_ns;
}

std::optional<double> SearchRun::reading_spread() const {
    std::vector<double> spreads;
    for (const std::size_t p : touched_) {
        const PointState& state = state_[p];
        if (state.dropped || state.samples.size() < 3) {
            continue;
        }
        std::array<double, 3> first{state.samples[0], state.samples[1], state.samples[2]};
        std::ranges::sort(first);
        if (first[1] > 0.0) {
            spreads.push_back((first[2] - first[0]) / first[1]);
        }
    }
    if (spreads.empty()) {
        return std::nullopt;
    }
    const auto middle = spreads.begin() + static_cast<std::ptrdiff_t>(spreads.size() / 2);
    std::ranges::nth_element(spreads, middle);
    return *middle;
}

std::vector<std::size_t> SearchRun::by_median() const {
    std::vector<std::pair<double, std::size_t>> probed;
    for (const std::size_t p : touched_) {
        if (const std::optional<double> m = median(p)) {
            probed.emplace_back(*m, p);
        }
    }
    std::sort(probed.begin(), probed.end());
    std::vector<std::size_t> out;
    out.reserve(probed.size());
    for (const auto& [m, p] : probed) {
        out.push_back(p);
    }
    return out;
}

SearchOutcome SearchRun::finish(const std::vector<std::size_t>& finalists) {
    std::vector<BenchmarkCandidate> racing;
    for (const std::size_t p : finalists) {
        // A finalist first read far behind was never checked: it may now win.
        if (state_[p].touched && check(p)) {
            racing.push_back(points_[p].candidate);
            outcome_.trace.steps[state_[p].step].finalist = true;
        }
    }
    if (hooks_.check) {
        for (const PointState& state : state_) {
            if (state.touched && !state.dropped && !state.checked) {
                outcome_.trace.steps[state.step].unchecked = true;
            }
        }
    }
    std::vector<RankedCandidate> ranking;
    if (!racing.empty()) {
        BenchmarkOutcome race = run_benchmark(racing, sampling_, hooks_.measure);
        ranking = std::move(race.ranking);
        outcome_.benchmark.failures.insert(outcome_.benchmark.failures.end(), race.failures.begin(),
                                           race.failures.end());
        for (const CandidateFailure& failure : race.failures) {
            for (SearchStep& step : outcome_.trace.steps) {
                if (step.index == failure.index) {
                    step.error = failure.reason;
                    step.median_ns.reset();
                }
            }
        }
    }
    // Points raced without search samples (random) show the race's median in the trace.
    for (const RankedCandidate& ranked : ranking) {
        for (SearchStep& step : outcome_.trace.steps) {
            if (step.index == ranked.index && step.samples == 0) {
                step.median_ns = ranked.statistics.median_ns;
                step.samples = ranked.statistics.samples;
            }
        }
    }
    // The points the search measured but did not race follow, as stopped early: their few
    // samples cannot be compared with the finalists' race. Unchecked ones stay out: should every
    // finalist be dropped, the first of these would be the winner, or a fallback run in its place.
    for (const std::size_t p : by_median()) {
        if (std::find(finalists.begin(), finalists.end(), p) != finalists.end() ||
            outcome_.trace.steps[state_[p].step].unchecked) {
            continue;
        }
        RankedCandidate out;
        out.name = std::string(points_[p].candidate.name);
        out.index = points_[p].candidate.index;
        out.statistics = summarize(state_[p].samples);
        out.method = state_[p].method;
        out.eliminated = true;
        ranking.push_back(std::move(out));
    }
    outcome_.benchmark.ranking = std::move(ranking);
    return std::move(outcome_);
}

}  // namespace spvtune::tune::detail
