#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <utility>

#include <spvtune/tune/benchmark.hpp>
#include <spvtune/tune/comparison.hpp>
#include <spvtune/tune/shared_batch.hpp>
#include <spvtune/tune/statistics.hpp>

#include "round_ratios.hpp"
#include "signed_rank.hpp"

namespace spvtune::tune {
namespace {

struct Track {
    const BenchmarkCandidate* candidate = nullptr;
    std::vector<double> samples;
    /// The mean of each round's samples, the unit every decision pairs (Scheduler::against).
    std::vector<double> round_means;
    TimingMethod method = TimingMethod::host_clock;
    SampleStatistics statistics;
    bool failed = false;
    bool eliminated = false;
    /// Its samples reached the candidate budget: it stops sampling but keeps racing on them.
    bool capped = false;
    /// Cut after its first sample as far slower than the fastest (cut_hopeless): too few rounds
    /// for any interval, and slower by a margin no noise explains.
    bool hopeless = false;
    double sampled_ns = 0;
    /// What its latest sample measured: the time of its batch.
    double last_sample_ns = 0;

    bool live() const { return !failed && !eliminated && !capped; }
};

/// Faster median first; an exact tie goes to the higher priority, then the lower index.
bool ranks_before(const Track& a, const Track& b) {
    if (a.statistics.median_ns != b.statistics.median_ns) {
        return a.statistics.median_ns < b.statistics.median_ns;
    }
    if (a.candidate->priority != b.candidate->priority) {
        return a.candidate->priority > b.candidate->priority;
    }
    return a.candidate->index < b.candidate->index;
}

class Scheduler {
  public:
    Scheduler(std::span<const BenchmarkCandidate> candidates, const SamplingSettings& settings,
              const SampleRoundSource& measure)
        : settings_(settings), measure_(measure), batch_(candidates.size()) {
        tracks_.reserve(candidates.size());
        for (const BenchmarkCandidate& candidate : candidates) {
            Track track;
            track.candidate = &candidate;
            tracks_.push_back(std::move(track));
        }
    }

    BenchmarkOutcome run() {
        const auto start = std::chrono::steady_clock::now();
        warm_up();
        const std::size_t most = std::max<std::size_t>(settings_.max_samples, 1);
        // Every decision compares 90% or 95% signed-rank intervals of per-round ratios
        // (against()): with fewer rounds than 95% needs (6, as for the interval of a median),
        // the interval is [min, max] or a point and would decide on noise. So adaptive sampling
        // keeps at least that many rounds within the most samples, and decides from then on.
        const std::size_t decision_rounds = samples_for_coverage(0.95);
        const bool adaptive = settings_.mode == SamplingMode::adaptive;
        std::size_t per_round = std::clamp<std::size_t>(settings_.samples_per_submission, 1,
                                                        max_samples_per_submission);
        if (adaptive) {
            per_round = std::clamp<std::size_t>(most / decision_rounds, 1, per_round);
        }
        std::size_t taken = 0;
        for (std::size_t round = 0; taken < most && any_live(); ++round) {
            // The first round is one sample each: a candidate that has not calibrated its batch
            // (no warm-up) takes its first sample alone, and a hopeless one is cut after it.
            const std::size_t samples =
                round == 0 || !all_calibrated() ? 1 : std::min(round_size(per_round), most - taken);
            sample_round(round, samples);
            taken += samples;
            if (adaptive && round == 0) {
                cut_hopeless();
            }
            if (adaptive && taken >= settings_.min_samples && round + 1 >= decision_rounds) {
                update_statistics();
                eliminate();
                if (settled()) {
                    break;
                }
            }
            if (settings_.time_budget &&
                std::chrono::steady_clock::now() - start >= *settings_.time_budget) {
                break;
            }
        }
        update_statistics();
        return finish();
    }

  private:
    void drop(Track& track, const std::string& stage, const std::string& error) {
        track.failed = true;
        track.samples.clear();
        outcome_.failures.push_back({std::string(track.candidate->name), track.candidate->index,
                                     FailureKind::error, stage + ": " + error});
    }

    /// The set warm-up runs; in adaptive mode also more, while each run is still clearly
    /// faster than the one before (a pipeline's first use, caches filling, clocks ramping up):
    /// a sample taken then would be an outlier that only more samples could outvote.
    void warm_up() {
        const bool adaptive = settings_.mode == SamplingMode::adaptive;
        const std::size_t most =
            settings_.warmup_runs + (adaptive && settings_.warmup_runs > 0 ? extra_warmups : 0);
        for (Track& track : tracks_) {
            std::optional<Sample> previous;
            std::size_t run = 1;
            // A run read before the race (its output check) was the first warm-up. Not with one
            // warm-up set: that one calibrates the candidate's own batch, which a single run
            // does not (the batch may be more), and the race's samples need it.
            if (const std::optional<Sample>& reading = track.candidate->warm_reading;
                reading && settings_.warmup_runs >= 2) {
                previous = reading;
                run = 2;
            }
            for (; run <= most && !track.failed; ++run) {
                Result<std::vector<Sample>> sample = take(track, own_runs, 1);
                if (!sample) {
                    drop(track, "warm-up", sample.error());
                    break;
                }
                const Sample& now = sample.value().front();
                batch_.measured(position(track), now);
                // Times over different batches, or clocks, differ by the submission's fixed
                // cost: only alike ones tell whether the candidate is still warming up.
                const bool still_warming = previous && previous->runs == now.runs &&
                                           previous->method == now.method &&
                                           now.ns_per_run < warming_ratio * previous->ns_per_run;
                previous = now;
                if (run >= settings_.warmup_runs && !(adaptive && still_warming)) {
                    break;
                }
            }
        }
    }

    /// A warm-up run faster than this fraction of the one before means the candidate is still
    /// warming up; at most `extra_warmups` runs beyond the set ones are spent waiting for that.
    static constexpr double warming_ratio = 0.9;
    static constexpr std::size_t extra_warmups = 8;

    // Alternate the direction each round so that slow drift (clocks, heat) hits every
    // candidate alike rather than always favouring the one measured first.
    void sample_round(std::size_t round, std::size_t samples) {
        judged_.clear();
        const std::size_t n = tracks_.size();
        for (std::size_t i = 0; i < n; ++i) {
            Track& track = tracks_[round % 2 == 0 ? i : n - 1 - i];
            if (!track.live()) {
                continue;
            }
            // Every candidate has calibrated its own batch by now (a warm-up, or its first
            // sample when none is set); from then on they share one.
            const std::size_t first = track.samples.size() + 1;
            Result<std::vector<Sample>> taken =
                take(track, batch_.runs_for(position(track)), samples);
            if (!taken) {
                drop(track,
                     samples == 1 ? "sample " + std::to_string(first)
                                  : "samples " + std::to_string(first) + "-" +
                                        std::to_string(first + samples - 1),
                     taken.error());
                continue;
            }
            double round_sum = 0;
            for (const Sample& sample : taken.value()) {
                batch_.measured(position(track), sample);
                track.samples.push_back(sample.ns_per_run);
                round_sum += sample.ns_per_run;
                track.method = sample.method;
                track.last_sample_ns = sample.ns_per_run * static_cast<double>(sample.runs);
                track.sampled_ns += track.last_sample_ns;
            }
            track.round_means.push_back(round_sum / static_cast<double>(samples));
            if (settings_.candidate_budget &&
                track.sampled_ns >=
                    std::chrono::duration<double, std::nano>(*settings_.candidate_budget).count()) {
                track.statistics = summarize(track.samples);
                track.capped = true;
            }
        }
    }

    /// The source's samples of the track's candidate, exactly as many as asked for.
    Result<std::vector<Sample>> take(const Track& track, std::uint64_t runs, std::size_t samples) {
        Result<std::vector<Sample>> taken = measure_(track.candidate->index, runs, samples);
        if (taken && taken.value().size() != samples) {
            return fail("the source gave " + std::to_string(taken.value().size()) +
                        " samples for " + std::to_string(samples));
        }
        return taken;
    }

    /// Samples per candidate this round: `per_round`, fewer when the slowest live candidate's
    /// last sample says its submission would run past `longest_round_ns` (the fence that waits
    /// for it has a timeout), at least one.
    std::size_t round_size(std::size_t per_round) const {
        double slowest = 0;
        for (const Track& track : tracks_) {
            if (track.live()) {
                slowest = std::max(slowest, track.last_sample_ns);
            }
        }
        if (!(slowest > 0)) {
            return per_round;
        }
        // Compared before the cast: for a time near zero the fit is infinite, and an infinite
        // double cast to an integer is undefined (it gave 0 samples a round, a race without end).
        const double fit = std::floor(longest_round_ns / slowest);
        if (fit < 1) {
            return 1;
        }
        return fit >= static_cast<double>(per_round) ? per_round : static_cast<std::size_t>(fit);
    }

    static constexpr double longest_round_ns = 1e9;

    bool all_calibrated() const {
        for (const Track& track : tracks_) {
            if (track.live() && batch_.runs_for(position(track)) == own_runs) {
                return false;
            }
        }
        return true;
    }

    bool any_live() const {
        return std::any_of(tracks_.begin(), tracks_.end(), [](const Track& t) { return t.live(); });
    }

    void update_statistics() {
        for (Track& track : tracks_) {
            if (track.live()) {
                track.statistics = summarize(track.samples);
            }
        }
    }

    /// After the first round: a candidate whose first sample is far beyond the fastest first
    /// sample would only burn time (a kernel thousands of times slower): eliminate it now.
    void cut_hopeless() {
        double fastest = 0;
        for (const Track& track : tracks_) {
            if (track.live() && !track.samples.empty() &&
                (fastest == 0 || track.samples.front() < fastest)) {
                fastest = track.samples.front();
            }
        }
        for (Track& track : tracks_) {
            if (track.live() && !track.samples.empty() &&
                track.samples.front() > settings_.hopeless_ratio * fastest) {
                track.statistics = summarize(track.samples);
                track.eliminated = true;
                track.hopeless = true;
            }
        }
    }

    /// How `other` compares with `leader`, round by round over the rounds both were sampled in
    /// (all start together, every live track takes a round's samples, and a track that stops
    /// never starts again). A round counts once, by the mean of its samples: the samples of one
    /// submission share its circumstances (load, clocks), so pairing them one by one would
    /// claim an interval narrower than the data support.
    PairedRatio against(const Track& leader, const Track& other, double confidence) {
        // settled() asks for both orders of a pair, and eliminate() and settled() may ask for a
        // pair again within a round; a pair's reverse is its reciprocal, exactly (its pair means
        // negate).
        if (const auto reverse = judged_.find({&other, &leader, confidence});
            reverse != judged_.end()) {
            const PairedRatio& found = reverse->second;
            const RatioInterval& interval = found.interval;
            return {found.rounds,
                    {1 / interval.ratio, 1 / interval.high, 1 / interval.low},
                    found.coverage};
        }
        const std::tuple key{&leader, &other, confidence};
        if (const auto found = judged_.find(key); found != judged_.end()) {
            return found->second;
        }
        return judged_.emplace(key, paired_ratio(leader.round_means, other.round_means, confidence))
            .first->second;
    }

    /// The coverage of the intervals eliminate() reads: their low end is a one-sided 97.5%
    /// bound. A race makes up to one elimination per candidate, each a chance to drop the
    /// fastest for good, so each keeps the stricter bound.
    static constexpr double elimination_confidence = 0.95;
    /// The coverage of the intervals settled() reads: their low end is a one-sided 95% bound, the
    /// level of a one-sided test at 5% (as each half of an equivalence test), and their width is
    /// what "known to within stable_relative_width" is judged on. The race settles once. Eight
    /// copies of a 1.2 ms kernel on lavapipe, tuned 30 times alternately with the 95% bound, took
    /// at most a median 12 samples instead of 16 (within 20 in 25 runs against 24); with a core
    /// held busy neither bound stopped them within 20 in more than 7 of 20. Two kernels 5% apart
    /// are misordered a little more often (tests/tune/paired_race_test.cpp).
    static constexpr double settle_confidence = 0.90;

    /// Even at the low end of its paired interval, `other` is not faster than the leader by more
    /// than the indifference threshold: more samples could at best find it faster by an amount
    /// that does not matter. One-sided on purpose: how much slower it may be is irrelevant to
    /// whether the leader is a sound winner.
    bool cannot_beat_leader_meaningfully(const PairedRatio& ratio) const {
        return ratio.interval.low >= 1 - settings_.indifference;
    }

    std::vector<Track*> live_by_rank() {
        std::vector<Track*> live;
        for (Track& track : tracks_) {
            if (track.live()) {
                live.push_back(&track);
            }
        }
        std::sort(live.begin(), live.end(),
                  [](const Track* a, const Track* b) { return ranks_before(*a, *b); });
        return live;
    }

    /// Stops measuring candidates that cannot meaningfully beat the leader, slowest first,
    /// keeping two.
    void eliminate() {
        std::vector<Track*> live = live_by_rank();
        if (live.size() <= 2) {
            return;
        }
        // Out once it cannot beat the leader by more than the indifference threshold, even at
        // the low end of its paired interval: it may still be faster by less, which does not
        // matter, and a crowd of near-ties (identical copies) would otherwise be sampled to the
        // maximum.
        const Track& leader = *live.front();
        const double limit = settings_.elimination_ratio * (1 - settings_.indifference);
        std::size_t remaining = live.size();
        for (auto it = live.rbegin(); it != live.rend() - 1 && remaining > 2; ++it) {
            if (against(leader, **it, elimination_confidence).interval.low > limit) {
                (*it)->eliminated = true;
                --remaining;
            }
        }
    }

    /// The race is settled when some live candidate is a sound winner: no other live candidate
    /// can confidently beat it by more than the indifference threshold (clearly slower ones and
    /// tied ones included), or every ratio to it is known so precisely that more samples would
    /// not change the answer. The lowest median is tried first, then the others in rank order:
    /// among tied leaders (copies of one kernel) which has the lowest median is chance, and the
    /// one the per-round ratios put in front settles sooner. The one found wins (finish()).
    bool settled() {
        const std::vector<Track*> live = live_by_rank();
        if (live.empty()) {
            return true;
        }
        const double tolerance = settings_.stable_relative_width;
        const auto sound = std::find_if(live.begin(), live.end(), [&](const Track* leader) {
            return std::all_of(live.begin(), live.end(), [&](const Track* other) {
                if (other == leader) {
                    return true;
                }
                const PairedRatio ratio = against(*leader, *other, settle_confidence);
                const RatioInterval& interval = ratio.interval;
                const bool precise = interval.high - interval.low <= tolerance * interval.ratio;
                return cannot_beat_leader_meaningfully(ratio) || (precise && interval.ratio >= 1);
            });
        });
        if (sound == live.end()) {
            return false;
        }
        settled_on_ = *sound;
        return true;
    }

    /// For each ranked candidate, whether it is tied with the first (the winner): not
    /// confidently slower than it by more than the indifference threshold, judged round by round
    /// as every decision is. The winner is the fastest of several, which flatters it, and each
    /// comparison is another chance of a false call, so the calls are made together: Holm's
    /// step-down over one-sided tests (only "slower" is ever claimed) at 5% family-wise, so a
    /// group of copies of one kernel is not ranked apart. A candidate cut as hopeless was
    /// judged by that rule and is not tied.
    std::vector<bool> tied_with_winner(const std::vector<Track*>& ranked) const {
        std::vector<bool> tied(ranked.size(), false);
        if (ranked.size() < 2) {
            return tied;
        }
        std::vector<std::size_t> judged;
        std::vector<double> p_values;
        for (std::size_t i = 1; i < ranked.size(); ++i) {
            if (ranked[i]->hopeless) {
                continue;
            }
            judged.push_back(i);
            p_values.push_back(detail::signed_rank_p_value(
                detail::sorted_round_ratios(ranked.front()->round_means, ranked[i]->round_means),
                1 + settings_.indifference));
        }
        const std::vector<double> levels = holm_levels(p_values, tie_family_level);
        for (std::size_t j = 0; j < judged.size(); ++j) {
            tied[judged[j]] = p_values[j] > levels[j];
        }
        return tied;
    }

    static constexpr double tie_family_level = 0.05;

    BenchmarkOutcome finish() {
        std::vector<Track*> ranked;
        std::size_t most_samples = 0;
        for (Track& track : tracks_) {
            if (!track.failed && !track.samples.empty()) {
                ranked.push_back(&track);
                most_samples = std::max(most_samples, track.samples.size());
            }
        }
        // Eliminated means "stopped early": one cut in the round where sampling ended anyway
        // (the last round, or the one that settled the race) got every sample the others got.
        for (Track* track : ranked) {
            track->eliminated = track->eliminated && track->samples.size() < most_samples;
        }
        // The winner comes from the candidates still racing: an eliminated candidate's numbers
        // stopped when it was cut and cannot be compared with the survivors' later samples.
        // The winner is the candidate the race settled on, else (sampling ended by the most
        // samples or the time budget) the lowest median of those still racing. A candidate
        // capped by its budget took no part in settling: with a lower median it still wins.
        const Track* settled_on = settled_on_;
        for (const Track* track : ranked) {
            if (settled_on != nullptr && track->capped && !track->eliminated &&
                ranks_before(*track, *settled_on)) {
                settled_on = nullptr;
            }
        }
        std::sort(ranked.begin(), ranked.end(), [settled_on](const Track* a, const Track* b) {
            if (a->eliminated != b->eliminated) {
                return !a->eliminated;
            }
            if ((a == settled_on) != (b == settled_on)) {
                return a == settled_on;
            }
            return ranks_before(*a, *b);
        });
        const std::vector<bool> tied = tied_with_winner(ranked);
        for (std::size_t i = 0; i < ranked.size(); ++i) {
            const Track* track = ranked[i];
            RankedCandidate out;
            out.name = track->candidate->name;
            out.index = track->candidate->index;
            out.statistics = track->statistics;
            out.method = track->method;
            out.eliminated = track->eliminated;
            out.tied_with_winner = tied[i];
            outcome_.ranking.push_back(std::move(out));
        }
        return std::move(outcome_);
    }

    std::size_t position(const Track& track) const {
        return static_cast<std::size_t>(&track - tracks_.data());
    }

    const SamplingSettings& settings_;
    const SampleRoundSource& measure_;
    SharedBatch batch_;
    std::vector<Track> tracks_;
    BenchmarkOutcome outcome_;
    /// against()'s answers since the last round was sampled.
    std::map<std::tuple<const Track*, const Track*, double>, PairedRatio> judged_;
    /// The sound winner settled() found, if the race ended that way.
    const Track* settled_on_ = nullptr;
};

}  // namespace

BenchmarkOutcome run_benchmark(std::span<const BenchmarkCandidate> candidates,
                               const SamplingSettings& settings, const SampleRoundSource& measure) {
    return Scheduler(candidates, settings, measure).run();
}

BenchmarkOutcome run_benchmark(std::span<const BenchmarkCandidate> candidates,
                               const SamplingSettings& settings,
                               const BatchedSampleSource& measure) {
    // A source of one sample a call gains nothing from rounds of several: they would only be
    // fewer rounds, each its own calls.
    SamplingSettings one_a_round = settings;
    one_a_round.samples_per_submission = 1;
    return run_benchmark(
        candidates, one_a_round,
        SampleRoundSource([&measure](std::size_t index, std::uint64_t runs, std::size_t samples) {
            return one_call_each(samples, [&] { return measure(index, runs); });
        }));
}

BenchmarkOutcome run_benchmark(std::span<const BenchmarkCandidate> candidates,
                               const SamplingSettings& settings, const SampleSource& measure) {
    return run_benchmark(candidates, settings,
                         BatchedSampleSource([&measure](std::size_t index, std::uint64_t) {
                             return measure(index);
                         }));
}

}  // namespace spvtune::tune
