#include "pipeline_build.hpp"

#include <variant>

#include "identical_pipelines.hpp"

namespace spvtune::run::detail {

std::string specialization_signature(const std::vector<vulkan::Specialization>& list) {
    std::string text;
    for (const auto& entry : list) {
        text += std::to_string(entry.id) + "=" + std::string(vulkan::type_name(entry.value)) + ":";
        std::visit(
            [&](auto v) {
                if constexpr (std::is_same_v<decltype(v), vulkan::Float16>) {
                    text += std::to_string(v.bits);
                } else {
                    text += std::to_string(v);
                }
            },
            entry.value);
        text += ";";
    }
    return text;
}

PipelineSlot pipeline_slot(const problem::ResolvedDispatch& dispatch) {
    return {dispatch.step, dispatch.module->content_hash(),
            specialization_signature(dispatch.specializations)};
}

CandidatePipelines build_pipelines(vulkan::Device& device, VkPipelineCache cache,
                                   const problem::ResolvedCandidate& candidate,
                                   std::atomic<std::size_t>& created,
                                   const PipelinesBySlot& present) {
    CandidatePipelines built;
    // Steps that compile the same code (the passes of a reduction) share one pipeline.
    IdenticalPipelines steps;
    try {
        for (const problem::ResolvedDispatch& dispatch : candidate.dispatches) {
            const PipelineSlot slot = pipeline_slot(dispatch);
            if (present.contains(slot)) {
                continue;
            }
            auto& pipeline = built.pipelines[slot];
            if (!pipeline) {
                pipeline = steps.find(dispatch);
            }
            if (!pipeline) {
                pipeline = std::make_shared<vulkan::ComputePipeline>(
                    device, *dispatch.module, dispatch.entry, dispatch.specializations, cache);
                steps.remember(dispatch, pipeline);
                ++created;
            }
        }
    } catch (...) {
        built.pipelines.clear();
        built.error = std::current_exception();
    }
    return built;
}

}  // namespace spvtune::run::detail
