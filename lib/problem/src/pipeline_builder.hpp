#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <spvtune/problem/resolve.hpp>
#include <spvtune/vulkan/compute_pipeline.hpp>
#include <spvtune/vulkan/device.hpp>

namespace spvtune::problem::detail {

/// Where one pipeline of a candidate belongs: (step, module content hash, specializations). The
/// repetitions of a step share one pipeline; a step compiled per key has a module per key.
using PipelineSlot = std::tuple<std::size_t, std::uint64_t, std::string>;

PipelineSlot pipeline_slot(const ResolvedDispatch& dispatch);

/// The pipelines of one candidate, or the error that building one of them threw.
struct CandidatePipelines {
    std::map<PipelineSlot, std::unique_ptr<vulkan::ComputePipeline>> pipelines;
    std::exception_ptr error;
};

/// Builds every pipeline `candidate` needs (each slot once) with `cache`, counting them in
/// `created`; an exception is kept in `error`, never thrown.
CandidatePipelines build_pipelines(vulkan::Device& device, VkPipelineCache cache,
                                   const ResolvedCandidate& candidate,
                                   std::atomic<std::size_t>& created);

/// Builds the pipelines of candidates announced as coming next on its own threads, while the
/// caller measures others: measurement stays serial and takes them when their turn comes.
///
/// At most `lookahead` candidates are built ahead and not yet taken (memory: a grid's every
/// pipeline is never held twice). Candidates are built in the announced order; one the caller
/// asks for before its build started is moved to the front, so the caller never builds itself
/// while the build threads are busy, and `threads` is the number of concurrent builds.
/// Thread-safe.
class PipelineBuilder {
  public:
    /// Counts the pipelines it creates in `created`, which must outlive it.
    PipelineBuilder(vulkan::Device& device, VkPipelineCache cache, std::size_t threads,
                    std::size_t lookahead, std::atomic<std::size_t>& created);
    /// Stops the threads after the builds in progress.
    ~PipelineBuilder();
    PipelineBuilder(const PipelineBuilder&) = delete;
    PipelineBuilder& operator=(const PipelineBuilder&) = delete;

    /// The candidates to build next, in order, replacing the previous announcement: what was
    /// built ahead for candidates no longer announced is freed.
    void announce(std::vector<ResolvedCandidate> candidates);

    /// What was built for `candidate`, waiting for its build when it is announced; nothing when
    /// it is not announced (the caller builds it). Candidates announced before it and not taken
    /// were passed over: what was built for them is freed.
    std::optional<CandidatePipelines> take(std::size_t candidate);

    /// How many candidates are built ahead and not taken now.
    std::size_t held() const;

  private:
    void work();
    void drop_passed_over(std::size_t position);

    vulkan::Device& device_;
    VkPipelineCache cache_;
    std::size_t lookahead_;
    std::atomic<std::size_t>& created_;

    mutable std::mutex mutex_;
    std::condition_variable changed_;
    bool stopping_ = false;
    /// The announced candidates in order, and each one's place in it.
    std::vector<ResolvedCandidate> order_;
    std::map<std::size_t, std::size_t> position_;
    /// Places in order_ not yet started, front first.
    std::vector<std::size_t> queue_;
    std::set<std::size_t> in_flight_;
    /// The place in order_ of the candidate take() waits for, if it waits for a build.
    std::optional<std::size_t> wanted_;
    std::map<std::size_t, CandidatePipelines> ready_;
    std::vector<std::thread> threads_;
};

}  // namespace spvtune::problem::detail
