#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <spvtune/problem/device_properties.hpp>
#include <spvtune/problem/problem.hpp>
#include <spvtune/tune/result.hpp>
#include <spvtune/vulkan/compute_pipeline.hpp>
#include <spvtune/vulkan/host_data.hpp>
#include <spvtune/vulkan/spirv_module.hpp>

namespace spvtune::problem {

// Everything about a problem that depends on a key, evaluated for one exact key: what to
// allocate and what to dispatch. Failures are values (tune::Result), not exceptions: a candidate
// that cannot run for a key is skipped for that key with the reason.

/// A buffer for one key.
struct ResolvedBuffer {
    std::string name;
    vulkan::ElementType type = vulkan::ElementType::f32;
    std::uint64_t count = 0;  ///< > 0, the padding included
    std::uint64_t bytes = 0;  ///< count * element size
    vulkan::Fill fill;
    BufferRole role = BufferRole::input;
    /// The elements a checked buffer's comparison covers, [first, second): the whole buffer but
    /// its padding, unless its comparison gives a `range`.
    std::pair<std::uint64_t, std::uint64_t> checked{0, 0};
    /// The last `padding` of the `count` elements: past the buffer's logical size, zero-filled
    /// rather than filled, outside every check.
    std::uint64_t padding = 0;
};

struct ResolvedBinding {
    std::uint32_t set = 0;
    std::uint32_t binding = 0;
    std::size_t buffer = 0;  ///< index into the key's buffers (the same as Problem::buffers)
    vulkan::DescriptorType type = vulkan::DescriptorType::storage_buffer;
};

/// One dispatch of a candidate for one key: a step, or one repetition of a repeated step.
struct ResolvedDispatch {
    std::size_t step = 0;  ///< index into the family's steps
    std::shared_ptr<const vulkan::SpirvModule> module;
    std::string entry;
    /// Every specialization the step sets, sorted by id, each of its declared type.
    std::vector<vulkan::Specialization> specializations;
    /// The workgroup size after specialization.
    std::array<std::uint32_t, 3> workgroup_size{};
    /// vkCmdDispatch's groupCountX/Y/Z, each > 0.
    std::array<std::uint32_t, 3> workgroup_counts{};
    /// The push-constant block's bytes (little-endian, scalar layout); empty when none.
    std::vector<std::byte> push_constants;
    /// Sorted by (set, binding).
    std::vector<ResolvedBinding> bindings;
};

/// A candidate ready to build and dispatch for one key.
struct ResolvedCandidate {
    std::string name;
    std::size_t candidate = 0;  ///< index into Problem::candidates
    /// The exact key it is resolved for: a step compiled per key has its module for this key.
    ProblemKey key;
    /// In order; at least one. Repetitions of a step share its module and specializations.
    std::vector<ResolvedDispatch> dispatches;
    std::int64_t priority = 0;  ///< >= 0: higher first when nothing is measured
    /// Device capabilities it needs (from its family's `requires`).
    std::vector<std::string> required_capabilities;
};

/// Whether `key` sets exactly the problem's parameters, each with its type (for keys from
/// outside the problem, such as a cache file or a command-line filter).
tune::Status check_key(const Problem& problem, const ProblemKey& key);

/// Every buffer of the problem for `key`, in Problem::buffers order. Fails with the buffer's
/// pointer and the reason: an evaluation error, a count that is not a positive integer, a size
/// that overflows.
tune::Result<std::vector<ResolvedBuffer>> resolve_buffers(const Problem& problem,
                                                          const ProblemKey& key);

/// Candidate `candidate` for `key`, given the key's buffers. Fails (a skip reason) when a key
/// constraint is false ("constraint 'n % TILE == 0' is false for n=1000"), the priority is
/// negative, an expression fails or gives a value of the wrong type or range, a workgroup count
/// is 0, a repeat count is negative or too large, no step is dispatched at all, or a bound
/// buffer is smaller than the shader's fixed block.
///
/// `device` gives the `device.<name>` variables; without it (nothing runs on a device), an
/// expression that uses one skips the candidate with that reason.
tune::Result<ResolvedCandidate> resolve_candidate(const Problem& problem, const ProblemKey& key,
                                                  std::size_t candidate,
                                                  std::span<const ResolvedBuffer> buffers,
                                                  const DeviceProperties* device = nullptr);

}  // namespace spvtune::problem
