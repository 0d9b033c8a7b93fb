#include <spvtune/problem/diagnostic.hpp>

namespace spvtune::problem {
namespace {

std::string format_all(const std::vector<Diagnostic>& diagnostics) {
    std::string text;
    for (const Diagnostic& diagnostic : diagnostics) {
        if (!text.empty()) {
            text += '\n';
        }
        text += format(diagnostic);
    }
    return text;
}

}  // namespace

std::string format(const Diagnostic& diagnostic) {
    std::string text = diagnostic.file.string() + ": ";
    if (!diagnostic.pointer.empty()) {
        text += diagnostic.pointer + ": ";
    }
    text += diagnostic.message;
    if (diagnostic.points > 1) {
        text += " (at " + std::to_string(diagnostic.points) + " grid points)";
    }
    if (!diagnostic.detail.empty()) {
        text += '\n' + diagnostic.detail;
    }
    return text;
}

ProblemError::ProblemError(std::vector<Diagnostic> diagnostics)
    : std::runtime_error(format_all(diagnostics)), diagnostics_(std::move(diagnostics)) {}

}  // namespace spvtune::problem
