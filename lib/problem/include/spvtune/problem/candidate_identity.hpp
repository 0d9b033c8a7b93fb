#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <spvtune/problem/problem.hpp>

namespace spvtune::problem {

/// What a candidate is, as a digest: its code hash, entry point, grid point and every rule that
/// decides what it computes and how it is dispatched, so an edit re-tunes it. The one identity
/// the tuner, the worker handshake and the cache commands use.
std::string candidate_digest(const Problem& problem, std::size_t candidate);

/// The checksum of the problem's whole candidate list (names and digests, in order): where the
/// tuner keeps its entries in a cache file. Equal to the checksum of the tunable set the running
/// layer makes for the problem, without building one.
std::uint64_t candidate_list_checksum(const Problem& problem);

}  // namespace spvtune::problem
