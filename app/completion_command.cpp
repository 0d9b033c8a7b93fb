#include <iostream>
#include <memory>
#include <string>

#include "command.hpp"
#include "command_line_model.hpp"
#include "completion_scripts.hpp"

namespace spvtune::app {

CommandAction register_completion_command(CLI::App& parent) {
    auto shell = std::make_shared<std::string>();
    auto* command = parent.add_subcommand(
        "completion", "Print a shell completion script for bash, zsh or fish (see README)");
    command->add_option("shell", *shell, "The shell: bash, zsh or fish")
        ->required()
        ->check(CLI::IsMember({"bash", "zsh", "fish"}));
    // Read when it runs, so the script covers every command registered after this one.
    return [shell, &parent] {
        const auto model = describe_command_line(parent);
        std::cout << (*shell == "bash"  ? bash_completion_script(*model)
                      : *shell == "zsh" ? zsh_completion_script(*model)
                                        : fish_completion_script(*model));
        return exit_success;
    };
}

}  // namespace spvtune::app
