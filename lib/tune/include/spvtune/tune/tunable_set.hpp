#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <spvtune/base/digest.hpp>
#include <spvtune/tune/detail/guarded.hpp>
#include <spvtune/tune/key.hpp>
#include <spvtune/tune/result.hpp>
#include <spvtune/tune/sampling.hpp>
#include <spvtune/tune/search.hpp>
#include <spvtune/tune/shared_batch.hpp>
#include <spvtune/tune/tune_entry.hpp>

namespace spvtune::tune {

/// Adds one candidate to a candidate-list checksum, as TunableSet::add does: for code that must
/// know a list's checksum (where its cache entries live) without building the set.
inline void add_to_list_checksum(base::Fnv1a& checksum, std::string_view name,
                                 std::string_view content_digest) noexcept {
    checksum.add_field(name).add_field(content_digest);
}

/// One way of computing the set's output. Only `name`, `content_digest` and `run` are required.
///
/// The callables may be called from several threads at once (different keys, or a Pending
/// fallback next to a benchmark) and may themselves execute other tuners.
template <TuneKey Key, class Inputs, class Out>
struct Candidate {
    /// Unique within the set; what reports and cache files show.
    std::string name;
    /// The caller's digest of what the candidate is (for SPIR-V: code hash, entry point,
    /// specialization values, dispatch rule); an edit must change it so old results are dropped.
    std::string content_digest;
    /// Computes the output, or says why it cannot (limits, unsupported feature, ...).
    std::function<Result<Out>(const Inputs&)> run;
    /// Measures one sample on `inputs`. Empty: the host clock around `run`. A GPU backend times
    /// its dispatches here, with device timestamps.
    std::function<Result<Sample>(const Inputs&)> measure;
    /// Builds what `run` needs (compile a pipeline) without running; used by compile-only mode.
    /// Empty: nothing to prepare. Must be idempotent.
    std::function<Status()> prepare;
    /// Preference for a key: higher first when nothing is measured, and on an exact tie of
    /// medians; negative means never run for that key. Empty: 0 for every key.
    std::function<int(const Key&)> priority;
    /// Runs only as a checks-mode reference (with_check): never measured, never the winner and
    /// never run in another's place, so a slow, simple kernel that checks the others cannot be
    /// cached as the answer when it happens to be fastest.
    bool reference_only = false;
    /// Measures one sample on `inputs` over a batch of `runs` back-to-back runs (own_runs: the
    /// candidate sizes it), so that the candidates of a race are timed over one shared batch: a
    /// submission's fixed cost weighs 1 / runs on each run. Takes the place of `measure` when
    /// set; empty: `measure`, whose batches are its own.
    std::function<Result<Sample>(const Inputs&, std::uint64_t runs)> measure_batch{};
    /// Measures `samples` samples over a batch of `runs` each (never own_runs) at once, in one
    /// submission where the backend can, so that its fixed cost is paid once for them. Empty:
    /// one measure_batch (or measure) call each.
    std::function<Result<std::vector<Sample>>(const Inputs&, std::uint64_t runs,
                                              std::size_t samples)>
        measure_samples{};
};

/// An ordered list of candidates computing the same output from the same inputs, with the rule
/// that maps inputs to a tuning key. Build it completely, then share it (LocalTuner::init hands
/// it out as a shared const object); the checksum follows every `add`.
template <TuneKey Key, class Inputs, class Out>
class TunableSet {
  public:
    using KeyType = Key;
    using InputsType = Inputs;
    using OutputType = Out;
    using CandidateType = Candidate<Key, Inputs, Out>;
    /// Checks mode: nullopt when `candidate` matches `reference`, else what differs.
    using Comparison =
        std::function<std::optional<std::string>(const Out& reference, const Out& candidate)>;
    /// Checks mode: the index of the candidate whose output is the truth for these inputs.
    using ReferenceChoice = std::function<std::size_t(const Inputs&)>;
    /// Checks mode: the candidates whose output may be the truth for these inputs, most trusted
    /// first; the tuner checks against the first whose output is not at fault.
    using ReferenceList = std::function<std::vector<std::size_t>(const Inputs&)>;
    /// Checks mode: why a reference's output cannot be the truth, completing "the reference
    /// 'name' ..." (e.g. "did not write y[10..99]"); nullopt when it can.
    using ReferenceFault = std::function<std::optional<std::string>(const Out& reference)>;
    /// Checks mode: when `candidate` differs from `reference` only where the reference's value
    /// is not a number the candidate could match (NaN, an infinity) and the candidate's is, where
    /// those elements are, completing "the reference 'name' ..." (e.g. "gave NaN at d[3..7]");
    /// nullopt when they match or anything else differs.
    using ReferenceDoubt =
        std::function<std::optional<std::string>(const Out& reference, const Out& candidate)>;
    /// Checks mode: whether two candidates that both doubt `reference` (ReferenceDoubt) agree
    /// with each other where they differ from it.
    using WitnessAgreement =
        std::function<bool(const Out& reference, const Out& first, const Out& second)>;
    /// Checks mode: the time of the run that produced `output`, when the run measured itself
    /// (one run, as a sample of `measure` would time it); nullopt when it did not.
    using RunReading = std::function<std::optional<Sample>(const Out& output)>;
    /// Hears which candidates (indices into the set) the tuner runs next for these inputs.
    using Prefetch = std::function<void(const Inputs&, std::span<const std::size_t> candidates)>;

    explicit TunableSet(std::function<Key(const Inputs&)> make_key)
        : make_key_(std::move(make_key)) {
        if (!make_key_) {
            throw std::invalid_argument("TunableSet needs a key generator");
        }
    }

    /// Appends a candidate. Throws std::invalid_argument when it has no name, no `run`, or a name
    /// already in the set.
    TunableSet& add(CandidateType candidate) {
        if (candidate.name.empty() || !candidate.run) {
            throw std::invalid_argument("a candidate needs a name and a run function");
        }
        for (const CandidateType& existing : candidates_) {
            if (existing.name == candidate.name) {
                throw std::invalid_argument("duplicate candidate name '" + candidate.name + "'");
            }
        }
        add_to_list_checksum(checksum_, candidate.name, candidate.content_digest);
        if (candidate.reference_only) {
            // Which candidates may win is part of what a cached result answers.
            checksum_.add_field("reference only");
        }
        candidates_.push_back(std::move(candidate));
        return *this;
    }

    /// Enables output checks (when the tuner runs in checks mode) against the candidate at
    /// `reference` (default: the first).
    TunableSet& with_check(Comparison compare, std::size_t reference = 0) {
        return with_check(std::move(compare),
                          [reference](const Inputs&) -> std::size_t { return reference; });
    }

    /// The same with a reference chosen per inputs: one trusted candidate rarely runs every
    /// size, so the truth for a key may be the first of several that can run it.
    TunableSet& with_check(Comparison compare, ReferenceChoice reference) {
        if (!reference) {
            throw std::invalid_argument("with_check needs a reference choice");
        }
        return with_check(std::move(compare),
                          [reference = std::move(reference)](const Inputs& inputs) {
                              return std::vector<std::size_t>{reference(inputs)};
                          });
    }

    /// The same with several references per inputs, most trusted first: a reference whose
    /// output is at fault (with_reference_fault) gives way to the next. The list must not be
    /// empty.
    TunableSet& with_check(Comparison compare, ReferenceList references) {
        if (!references) {
            throw std::invalid_argument("with_check needs a reference choice");
        }
        compare_ = std::move(compare);
        references_ = std::move(references);
        return *this;
    }

    /// Has checks mode judge each reference's output before comparing any candidate with it:
    /// a reference at fault is reported as such (never the candidates compared with it) and the
    /// next reference of the list, if any, is the truth instead.
    TunableSet& with_reference_fault(ReferenceFault fault) {
        fault_ = std::move(fault);
        return *this;
    }

    /// Has checks mode hold its verdict on a candidate that differs from the reference only
    /// where `doubt` says the reference may be wrong: when a second candidate does too and
    /// `agree` says the two agree there, the reference is at fault (reported with both names,
    /// never the candidates), the next reference of the list, if any, is the truth instead, and
    /// the held candidates are judged against it. Without a second witness the held candidates
    /// are wrong, as without this hook. Only the first held candidate's output is kept: a
    /// newcomer that disagrees with it is compared with the first few other held ones by
    /// running them again.
    TunableSet& with_reference_witnesses(ReferenceDoubt doubt, WitnessAgreement agree) {
        doubt_ = std::move(doubt);
        agree_ = std::move(agree);
        return *this;
    }

    /// Has a race of every candidate count a candidate's checked run as its first warm-up when
    /// `reading` gives that run's time and two or more warm-ups are set (the last calibrates
    /// the batch): the run warmed the candidate up as a warm-up would, so one measured warm-up
    /// is saved per candidate. Without it, checked runs are not warm-ups.
    TunableSet& with_run_reading(RunReading reading) {
        reading_ = std::move(reading);
        return *this;
    }

    /// Identifies exact inputs within a key (e.g. a hash of the unbucketed size), so that a
    /// candidate failing at run time on some inputs of a key is avoided on those inputs only.
    /// Without it, such a candidate is avoided for the whole key for the rest of the process.
    TunableSet& with_input_identity(std::function<std::uint64_t(const Inputs&)> identity) {
        identity_ = std::move(identity);
        return *this;
    }

    /// Places the candidate at `index` in a grid, for searches that move between neighbouring
    /// points (SearchStrategy::local); a candidate never placed has no neighbours. Throws
    /// std::out_of_range for an index not in the set.
    TunableSet& with_grid_position(std::size_t index, GridPosition position) {
        static_cast<void>(candidates_.at(index));
        positions_.resize(candidates_.size());
        positions_[index] = std::move(position);
        return *this;
    }

    /// Has the tuner say, as it starts on a key, which candidates it will run for it, so that
    /// what they need (a pipeline) can be built ahead on other threads while the first ones are
    /// measured. It names them only when it runs every one: a key measured exhaustively or by
    /// successive halving, with no budget or limit (the checked reference first, then by
    /// preference), or prepared in compile-only mode (in the order it prepares them). A search
    /// that measures a few points names none, so nothing is built in vain. Called on the
    /// executing thread before the first of those candidates runs; a hint, so an exception it
    /// throws is ignored.
    TunableSet& with_prefetch(Prefetch prefetch) {
        prefetch_ = std::move(prefetch);
        return *this;
    }

    Key key(const Inputs& inputs) const { return make_key_(inputs); }

    /// Where with_grid_position placed the candidate at `index`, if anywhere.
    std::optional<GridPosition> grid_position(std::size_t index) const {
        return index < positions_.size() ? positions_[index] : std::nullopt;
    }

    std::optional<std::uint64_t> input_identity(const Inputs& inputs) const {
        return identity_ ? std::optional<std::uint64_t>(identity_(inputs)) : std::nullopt;
    }
    std::size_t size() const { return candidates_.size(); }
    const CandidateType& candidate(std::size_t index) const { return candidates_.at(index); }

    /// FNV-1a over every candidate's name and content digest, in order.
    std::uint64_t checksum() const { return checksum_.value(); }

    std::vector<CandidateDescription> descriptions() const {
        std::vector<CandidateDescription> out;
        out.reserve(candidates_.size());
        for (const CandidateType& c : candidates_) {
            out.push_back({c.name, c.content_digest});
        }
        return out;
    }

    const Comparison& comparison() const { return compare_; }
    /// The most trusted reference candidate for `inputs` (0 when no check was set).
    std::size_t reference_index(const Inputs& inputs) const { return references(inputs).front(); }

    /// The reference candidates for `inputs`, most trusted first ({0} when no check was set).
    std::vector<std::size_t> references(const Inputs& inputs) const {
        std::vector<std::size_t> list =
            references_ ? references_(inputs) : std::vector<std::size_t>{};
        return list.empty() ? std::vector<std::size_t>{0} : list;
    }

    /// Why `reference` cannot be the truth (see with_reference_fault); nullopt when no fault
    /// check was set. An exception the check throws is a fault, with its message.
    std::optional<std::string> reference_fault(const Out& reference) const {
        if (!fault_) {
            return std::nullopt;
        }
        try {
            return fault_(reference);
        } catch (const std::exception& e) {
            return std::string("could not be judged: ") + e.what();
        }
    }

    /// Where `candidate` says `reference` may be wrong (see with_reference_witnesses); nullopt
    /// when no witness hooks were set, when nothing casts doubt on it, or when the hook throws
    /// (the candidate is then judged as usual).
    std::optional<std::string> reference_doubt(const Out& reference, const Out& candidate) const {
        if (!doubt_ || !agree_) {
            return std::nullopt;
        }
        try {
            return doubt_(reference, candidate);
        } catch (const std::exception&) {
            return std::nullopt;
        }
    }

    /// Whether two candidates doubting `reference` agree (see with_reference_witnesses); false
    /// when the hook throws.
    bool witnesses_agree(const Out& reference, const Out& first, const Out& second) const {
        try {
            return agree_ && agree_(reference, first, second);
        } catch (const std::exception&) {
            return false;
        }
    }

    /// The time of the run that produced `output` (see with_run_reading); nullopt without the
    /// hook, or when it throws.
    std::optional<Sample> run_reading(const Out& output) const {
        try {
            return reading_ ? reading_(output) : std::nullopt;
        } catch (const std::exception&) {
            return std::nullopt;
        }
    }

    /// Whether the candidate at `index` only checks the others (Candidate::reference_only).
    bool reference_only(std::size_t index) const { return candidates_.at(index).reference_only; }

    int priority(std::size_t index, const Key& key) const {
        const CandidateType& c = candidates_[index];
        return c.priority ? c.priority(key) : 0;
    }

    /// Runs a candidate; an exception it throws becomes an error.
    Result<Out> run(std::size_t index, const Inputs& inputs) const {
        return detail::call_guarded<Result<Out>>(candidates_[index].run, inputs);
    }

    /// `samples` samples of a candidate over a batch of `runs` each (Candidate::measure_samples,
    /// else one measure() each; the first error ends it).
    Result<std::vector<Sample>> measure_samples(std::size_t index, const Inputs& inputs,
                                                std::uint64_t runs, std::size_t samples) const {
        const CandidateType& c = candidates_[index];
        if (c.measure_samples && runs != own_runs) {
            return detail::call_guarded<Result<std::vector<Sample>>>(c.measure_samples, inputs,
                                                                     runs, samples);
        }
        return one_call_each(samples, [&] { return measure(index, inputs, runs); });
    }

    /// One sample of a candidate over a batch of `runs` (own_runs: the candidate's own batch;
    /// a candidate without measure_batch always times its own).
    Result<Sample> measure(std::size_t index, const Inputs& inputs,
                           std::uint64_t runs = own_runs) const {
        const CandidateType& c = candidates_[index];
        if (c.measure_batch) {
            return detail::call_guarded<Result<Sample>>(c.measure_batch, inputs, runs);
        }
        if (c.measure) {
            return detail::call_guarded<Result<Sample>>(c.measure, inputs);
        }
        return measure_with_host_clock([&]() -> Status {
            Result<Out> out = run(index, inputs);
            if (!out) {
                return fail(std::move(out).error());
            }
            return ok();
        });
    }

    /// Tells the prefetch hook, if there is one, that `candidates` run next on `inputs`.
    void prefetch(const Inputs& inputs, std::span<const std::size_t> candidates) const noexcept {
        if (!prefetch_) {
            return;
        }
        try {
            prefetch_(inputs, candidates);
        } catch (...) {
            // Only the builds ahead are lost: each candidate builds what it needs when it runs.
        }
    }

    Status prepare(std::size_t index) const {
        const CandidateType& c = candidates_[index];
        return c.prepare ? detail::call_guarded<Status>(c.prepare) : ok();
    }

  private:
    std::function<Key(const Inputs&)> make_key_;
    std::function<std::uint64_t(const Inputs&)> identity_;
    std::vector<CandidateType> candidates_;
    std::vector<std::optional<GridPosition>> positions_;
    base::Fnv1a checksum_;
    Comparison compare_;
    ReferenceList references_;
    ReferenceFault fault_;
    ReferenceDoubt doubt_;
    WitnessAgreement agree_;
    RunReading reading_;
    Prefetch prefetch_;
};

}  // namespace spvtune::tune
