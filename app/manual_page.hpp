#pragma once

#include <string>

#include "command_line_model.hpp"

namespace spvtune::app {

/// The spvtune(1) manual page in man(7) troff, from the same definitions as --help: NAME,
/// SYNOPSIS, DESCRIPTION, the global OPTIONS, COMMANDS with a subsection per command and its
/// options, ENVIRONMENT, EXIT STATUS and SEE ALSO. `version` goes into the page's header.
std::string manual_page(const CommandModel& root, const std::string& version);

}  // namespace spvtune::app
