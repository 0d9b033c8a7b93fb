#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include <spvtune/problem/resolve.hpp>
#include <spvtune/vulkan/compute_pipeline.hpp>

namespace spvtune::run::detail {

/// The pipelines alive in one executor, by what they compile: candidates whose dispatches name
/// the same code, entry point and specializations (copies of one kernel under other names, a
/// contender identical to its baseline) run one pipeline. A driver that compiles for the CPU
/// places each pipeline's machine code anew, and where that code lands moves its speed by several
/// percent (measured on lavapipe: eight copies of one kernel, each with its own pipeline, read up
/// to 7% apart, consistently over interleaved rounds); a difference no kernel made must not rank
/// identical kernels apart, nor cost a compile each.
class IdenticalPipelines {
  public:
    /// (content hash, entry point, specializations): what a dispatch compiles, up to a collision
    /// of hashes, which find() rules out word by word.
    using Identity = std::tuple<std::uint64_t, std::string, std::string>;
    static Identity identity(const problem::ResolvedDispatch& dispatch);

    /// The live pipeline compiled from what `dispatch` compiles, or null.
    std::shared_ptr<vulkan::ComputePipeline> find(const problem::ResolvedDispatch& dispatch) const;

    /// Keeps `pipeline` (built for `dispatch`) to be found by identical dispatches while it lives;
    /// forgets pipelines no one holds any more.
    void remember(const problem::ResolvedDispatch& dispatch,
                  const std::shared_ptr<vulkan::ComputePipeline>& pipeline);

  private:
    struct Held {
        std::shared_ptr<const vulkan::SpirvModule> module;
        std::weak_ptr<vulkan::ComputePipeline> pipeline;
    };
    std::multimap<Identity, Held> held_;
};

}  // namespace spvtune::run::detail
