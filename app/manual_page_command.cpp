#include <iostream>

#include "command.hpp"
#include "command_line_model.hpp"
#include "manual_page.hpp"

namespace spvtune::app {

CommandAction register_manual_page_command(CLI::App& parent) {
    auto* command = parent.add_subcommand("manual-page", "Print the spvtune(1) manual page");
    command->group("");  // hidden: the build runs it to make spvtune.1 (app/CMakeLists.txt)
    return [&parent] {
        std::cout << manual_page(*describe_command_line(parent), SPVTUNE_VERSION);
        return exit_success;
    };
}

}  // namespace spvtune::app
