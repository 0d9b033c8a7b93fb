#include "identical_pipelines.hpp"

#include <algorithm>

#include "pipeline_build.hpp"

namespace spvtune::run::detail {

IdenticalPipelines::Identity IdenticalPipelines::identity(
    const problem::ResolvedDispatch& dispatch) {
    return {dispatch.module->content_hash(), dispatch.entry,
            specialization_signature(dispatch.specializations)};
}

std::shared_ptr<vulkan::ComputePipeline> IdenticalPipelines::find(
    const problem::ResolvedDispatch& dispatch) const {
    const auto [first, last] = held_.equal_range(identity(dispatch));
    const auto wanted = dispatch.module->words();
    for (auto it = first; it != last; ++it) {
        if (std::ranges::equal(it->second.module->words(), wanted)) {
            if (auto pipeline = it->second.pipeline.lock()) {
                return pipeline;
            }
        }
    }
    return nullptr;
}

void IdenticalPipelines::remember(const problem::ResolvedDispatch& dispatch,
                                  const std::shared_ptr<vulkan::ComputePipeline>& pipeline) {
    std::erase_if(held_, [](const auto& entry) { return entry.second.pipeline.expired(); });
    if (find(dispatch) == nullptr) {
        held_.emplace(identity(dispatch), Held{dispatch.module, pipeline});
    }
}

}  // namespace spvtune::run::detail
