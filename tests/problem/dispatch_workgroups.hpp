#pragma once

// The workgroup counts a candidate's dispatch resolves to for one key: what the tests of layered
// candidate fields (steps by name, shared variants) compare.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include <doctest/doctest.h>

#include <spvtune/problem/resolve.hpp>

namespace spvtune::problem::testing {

inline std::array<std::uint32_t, 3> dispatch_workgroups(const Problem& problem,
                                                        const std::string& name,
                                                        const ProblemKey& key,
                                                        std::size_t dispatch) {
    const auto buffers = resolve_buffers(problem, key).value();
    const Candidate* candidate = problem.find_candidate(name);
    REQUIRE_MESSAGE(candidate != nullptr, name);
    const auto resolved = resolve_candidate(
        problem, key, static_cast<std::size_t>(candidate - problem.candidates.data()), buffers);
    REQUIRE_MESSAGE(resolved, (resolved ? "" : resolved.error()));
    return resolved.value().dispatches.at(dispatch).workgroup_counts;
}

}  // namespace spvtune::problem::testing
