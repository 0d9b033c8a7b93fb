#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include <spvtune/problem/resolve.hpp>
#include <spvtune/tune/build_ahead.hpp>
#include <spvtune/vulkan/compute_pipeline.hpp>
#include <spvtune/vulkan/device.hpp>

namespace spvtune::run::detail {

/// Where one pipeline of a candidate belongs: (step, module content hash, specializations). The
/// repetitions of a step share one pipeline; a step compiled per key has a module per key.
using PipelineSlot = std::tuple<std::size_t, std::uint64_t, std::string>;

PipelineSlot pipeline_slot(const problem::ResolvedDispatch& dispatch);

/// The bytes a specialization list packs to: equal lists give equal pipelines.
std::string specialization_signature(const std::vector<vulkan::Specialization>& list);

/// A candidate's pipelines by slot; a pipeline may be shared with identical candidates.
using PipelinesBySlot = std::map<PipelineSlot, std::shared_ptr<vulkan::ComputePipeline>>;

/// The pipelines of one candidate, or the error that building one of them threw.
struct CandidatePipelines {
    PipelinesBySlot pipelines;
    std::exception_ptr error;
};

/// Builds every pipeline `candidate` needs (each slot once) but those in `present` with `cache`,
/// counting them in `created`; an exception is kept in `error`, never thrown.
CandidatePipelines build_pipelines(vulkan::Device& device, VkPipelineCache cache,
                                   const problem::ResolvedCandidate& candidate,
                                   std::atomic<std::size_t>& created,
                                   const PipelinesBySlot& present = {});

/// Builds the pipelines of the candidates announced as coming next on build threads, by
/// candidate index, while the caller measures others.
using PipelineBuilder = tune::BuildAhead<problem::ResolvedCandidate, CandidatePipelines>;

}  // namespace spvtune::run::detail
