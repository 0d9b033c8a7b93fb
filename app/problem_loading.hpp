#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <spvtune/problem/diagnostic.hpp>
#include <spvtune/problem/problem.hpp>

namespace spvtune::app {

/// Prints one diagnostic (file, JSON pointer, message) on stderr, where every command's
/// diagnostics go so that stdout stays the command's report.
void print_diagnostic(const problem::Diagnostic& diagnostic);

/// One problem file: the problem, or the number of diagnostics printed because it is invalid.
struct LoadedFile {
    std::optional<problem::Problem> problem;
    std::size_t errors = 0;
};

LoadedFile load_problem_file(const std::string& file, const problem::LoadOptions& options);

/// Every file's problem, or nothing when one is invalid; every file is read, so all the
/// mistakes are reported in one run.
std::optional<std::vector<problem::Problem>> load_problem_files(
    const std::vector<std::string>& files, const problem::LoadOptions& options);

}  // namespace spvtune::app
