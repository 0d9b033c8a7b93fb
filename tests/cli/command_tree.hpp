#pragma once

// The commands a user can run, found the way a user finds them: through --help.

#include <string>
#include <vector>

namespace spvtune::test {

/// `spvtune PATH... --help`; fails the test when it does not exit 0.
std::string help_of(const std::vector<std::string>& path);

/// Every visible command that has no subcommands of its own ({"tune"}, {"cache", "show"}), in
/// the order --help lists them.
std::vector<std::vector<std::string>> leaf_commands();

/// "spvtune cache show".
std::string command_line(const std::vector<std::string>& path);

}  // namespace spvtune::test
