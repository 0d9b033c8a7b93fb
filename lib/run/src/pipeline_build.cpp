#include "pipeline_build.hpp"

#include <variant>

namespace spvtune::run::detail {
namespace {

/// The bytes a specialization list packs to: equal lists give equal pipelines.
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

}  // namespace

PipelineSlot pipeline_slot(const problem::ResolvedDispatch& dispatch) {
    return {dispatch.step, dispatch.module->content_hash(),
            specialization_signature(dispatch.specializations)};
}

CandidatePipelines build_pipelines(vulkan::Device& device, VkPipelineCache cache,
                                   const problem::ResolvedCandidate& candidate,
                                   std::atomic<std::size_t>& created) {
    CandidatePipelines built;
    try {
        for (const problem::ResolvedDispatch& dispatch : candidate.dispatches) {
            auto& pipeline = built.pipelines[pipeline_slot(dispatch)];
            if (!pipeline) {
                pipeline = std::make_unique<vulkan::ComputePipeline>(
                    device, *dispatch.module, dispatch.entry, dispatch.specializations, cache);
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
