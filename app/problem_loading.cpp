#include "problem_loading.hpp"

#include <iostream>

#include "activity.hpp"

namespace spvtune::app {

void print_diagnostic(const problem::Diagnostic& diagnostic) {
    std::cerr << format(diagnostic) << '\n';
}

LoadedFile load_problem_file(const std::string& file, const problem::LoadOptions& options) {
    try {
        return {while_doing("reading the problem file " + file,
                            [&] { return problem::load_problem(file, options); }),
                0};
    } catch (const problem::ProblemError& error) {
        for (const problem::Diagnostic& diagnostic : error.diagnostics()) {
            print_diagnostic(diagnostic);
        }
        return {std::nullopt, error.diagnostics().size()};
    }
}

std::optional<std::vector<problem::Problem>> load_problem_files(
    const std::vector<std::string>& files, const problem::LoadOptions& options) {
    std::vector<problem::Problem> problems;
    bool valid = true;
    for (const std::string& file : files) {
        LoadedFile loaded = load_problem_file(file, options);
        if (loaded.problem) {
            problems.push_back(std::move(*loaded.problem));
        } else {
            valid = false;
        }
    }
    if (!valid) {
        return std::nullopt;
    }
    return problems;
}

}  // namespace spvtune::app
