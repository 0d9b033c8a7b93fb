#pragma once

/// The front door of the problem library: include this one header. (problem.hpp is the
/// description itself; this one brings the rest of what a user of the library needs.)
///
/// A problem is a JSON description of one operation family: its key parameters and keys, its
/// buffers, its candidate kernels (SPIR-V or GLSL, with grids of variants) and how outputs are
/// compared. The library reads and checks a description, expands its candidates and, per key,
/// works out what to allocate and dispatch; it runs nothing on a device. A minimal use:
///
///     try {
///         // SPIR-V is looked for next to the file, in LoadOptions::kernel_dirs,
///         // $SPVTUNE_KERNEL_PATH and spvtune's own kernels.
///         const problem::Problem p = problem::load_problem("configs/saxpy.json");
///         for (const problem::KeyEntry& key : p.keys) {
///             // Buffers for this key (counts and fills evaluated), then each candidate's
///             // dispatches; what cannot be resolved for a key says why (tune::Result).
///             const auto buffers = problem::resolve_buffers(p, key.key);
///             if (!buffers) { std::cerr << buffers.error() << '\n'; continue; }
///             for (std::size_t c = 0; c < p.candidates.size(); ++c) {
///                 const auto run = problem::resolve_candidate(p, key.key, c, buffers.value());
///                 std::cout << to_string(key.key) << " " << p.candidates[c].name << ": "
///                           << (run ? std::string("runs") : run.error()) << '\n';
///             }
///         }
///         // What a cache file knows the candidate list by: an edited kernel changes it.
///         const std::uint64_t checksum = problem::candidate_list_checksum(p);
///     } catch (const problem::ProblemError& error) {
///         std::cerr << error.what();  // every diagnostic: file, JSON pointer, what is expected
///     }
///
/// parse_problem reads a description from text. problem_cache_layout says where a problem's
/// results sit in a cache file (tuner, checksum, tuning keys), without a device. The expression
/// language of counts, dispatch sizes and constraints is usable alone (Expression, Scope, Value).
///
/// Left out, for tools: suggest.hpp ("did you mean" hints) and glsl_compiler.hpp /
/// glsl_cache.hpp (compiling GLSL directly; load_problem compiles a problem's GLSL itself).
#include <spvtune/problem/candidate_identity.hpp>
#include <spvtune/problem/diagnostic.hpp>
#include <spvtune/problem/expression.hpp>
#include <spvtune/problem/expression_error.hpp>
#include <spvtune/problem/grid_position.hpp>
#include <spvtune/problem/kernel_search.hpp>
#include <spvtune/problem/problem.hpp>
#include <spvtune/problem/problem_cache_layout.hpp>
#include <spvtune/problem/problem_key.hpp>
#include <spvtune/problem/resolve.hpp>
#include <spvtune/problem/scope.hpp>
#include <spvtune/problem/value.hpp>
