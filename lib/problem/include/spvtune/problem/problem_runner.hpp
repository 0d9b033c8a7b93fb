#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include <spvtune/problem/key_plan.hpp>
#include <spvtune/problem/output_check.hpp>
#include <spvtune/problem/problem.hpp>
#include <spvtune/tune/sampling.hpp>
#include <spvtune/tune/tunable_set.hpp>
#include <spvtune/vulkan/batched_timer.hpp>
#include <spvtune/vulkan/device.hpp>

namespace spvtune::problem {

/// What the tuner hands to a problem's candidates: the plan of one key.
struct KeyInputs {
    const KeyPlan* plan = nullptr;
};

/// A problem's candidates as a tunable set: keyed by the bucketed tuning key, producing the
/// checked buffers' contents.
using ProblemTunableSet = tune::TunableSet<ProblemKey, KeyInputs, CandidateOutputs>;

struct RunnerOptions {
    vulkan::BatchPolicy batch;
};

/// Runs one problem's candidates on one device: the bridge between the problem description,
/// the Vulkan engine and the tuner.
///
/// It compiles each (candidate, specialization) once, allocates one key's buffers at a time
/// (inputs uploaded once; checked buffers poisoned, or reset to their initial contents for
/// inouts, before every run so unwritten elements are caught), and keeps every sample it
/// measures for reports. Calls are serialised: one runner drives one device queue. The runner
/// must outlive the sets it makes.
class ProblemRunner {
  public:
    ProblemRunner(const Problem& problem, vulkan::Device& device, RunnerOptions options = {});
    ~ProblemRunner();
    ProblemRunner(const ProblemRunner&) = delete;
    ProblemRunner& operator=(const ProblemRunner&) = delete;

    /// Every candidate of the problem, in Problem::candidates order, with output checks against
    /// the reference candidate. A candidate's priority for a key is the one its plan resolved;
    /// one the plan skipped gets a negative priority (never run for that key).
    ProblemTunableSet make_set();

    /// One run of `candidate` for the plan's key: its checked buffers' contents afterwards.
    tune::Result<CandidateOutputs> run(std::size_t candidate, const KeyPlan& plan);

    /// One sample: a batch of back-to-back dispatches timed on the device.
    tune::Result<tune::Sample> measure(std::size_t candidate, const KeyPlan& plan);

    /// Compiles the candidate's pipeline for every key of the problem it can run for.
    tune::Status prepare(std::size_t candidate);

    /// Everything `measure` returned for `exact_key`, per candidate (in Problem::candidates
    /// order), warm-ups first. Empty vectors for candidates never measured.
    std::vector<std::vector<tune::Sample>> samples(const ProblemKey& exact_key) const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

/// The content digest of a candidate: its code hash, entry point, grid point and every rule that
/// decides what it computes and how it is dispatched, so an edit re-tunes it.
std::string candidate_digest(const Problem& problem, std::size_t candidate);

}  // namespace spvtune::problem
