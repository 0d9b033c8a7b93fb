#pragma once

#include <string>
#include <vector>

#include "cache/temp_directory.hpp"

namespace spvtune::test {

/// What one run of the spvtune binary did.
struct SpvtuneRun {
    int exit_code = 0;
    std::string out;
    std::string err;
};

/// Runs `binary` with `args`, as a user would, in this process's environment; stderr is
/// collected through a file in `scratch`.
SpvtuneRun run_program(const std::string& binary, const tune::testing::TempDirectory& scratch,
                       const std::vector<std::string>& args);

/// run_program on the built spvtune binary.
SpvtuneRun run_spvtune(const tune::testing::TempDirectory& scratch,
                       const std::vector<std::string>& args);

inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace spvtune::test
