#pragma once

#include <ostream>
#include <string>

#include <spvtune/problem/problem.hpp>
#include <spvtune/run/problem_tuning.hpp>

#include "../terminal_color.hpp"

namespace spvtune::app {

/// "850 ns", "12.3 us", "4.56 ms", "1.23 s".
std::string format_duration_ns(double ns);

/// "1.25x faster" / "1.10x slower": how much faster `new_ns` is than `old_ns`; empty unless
/// both are positive.
std::string speedup_text(double old_ns, double new_ns);

/// The human report of one key: a headline, then for measured keys (or always when `verbose`)
/// the ranked candidates with median, confidence interval, speedup over the reference and
/// status, and every candidate that failed, was wrong, or was skipped, with the reason. Statuses
/// are painted with `palette`.
void print_key_report(std::ostream& out, const problem::Problem& problem,
                      const run::KeyReport& report, bool verbose, const Palette& palette);

}  // namespace spvtune::app
