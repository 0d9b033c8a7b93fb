#pragma once

#include <cstddef>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace spvtune::problem {

/// One problem found in a problem description: where it is and what is wrong.
struct Diagnostic {
    std::filesystem::path file;
    /// JSON pointer of the offending value ("/buffers/x/count"); empty when the file as a whole
    /// is at fault (unreadable, not JSON).
    std::string pointer;
    /// What was found and what was expected, one line.
    std::string message;
    /// Optional further lines (an expression with a caret under the fault), already indented.
    std::string detail;
    /// How many grid points share this fault (one message stands for all of them); 0 or 1 when
    /// it is not about points.
    std::size_t points = 0;
};

/// `file: /pointer: message`, ` (at N grid points)` when several share it, then the detail
/// lines, without a trailing newline.
std::string format(const Diagnostic& diagnostic);

/// A problem description that cannot be used, with every diagnostic found.
/// `what()` is all of them formatted, one after the other.
class ProblemError : public std::runtime_error {
  public:
    explicit ProblemError(std::vector<Diagnostic> diagnostics);

    const std::vector<Diagnostic>& diagnostics() const noexcept { return diagnostics_; }

  private:
    std::vector<Diagnostic> diagnostics_;
};

}  // namespace spvtune::problem
