#include <exception>
#include <iostream>
#include <map>
#include <memory>
#include <new>
#include <string>

#include <CLI/CLI.hpp>

#include "activity.hpp"
#include "command.hpp"
#include "help_formatter.hpp"
#include "help_text.hpp"
#include "standard_output.hpp"
#include "terminal_color.hpp"
#include "usage_errors.hpp"
#include "version_text.hpp"

namespace {

/// "cache show": the command and the subcommands chosen under it.
std::string command_path(const CLI::App& command) {
    std::string path = command.get_name();
    for (const CLI::App* chosen = &command;;) {
        const auto under = chosen->get_subcommands();
        if (under.empty()) {
            return path;
        }
        chosen = under.front();
        path += " " + chosen->get_name();
    }
}

}  // namespace

int main(int argc, char** argv) {
    using namespace spvtune::app;

    capture_standard_output();
    CLI::App app{"spvtune: benchmark and tune Vulkan compute kernels"};
    app.set_version_flag("--version", version_text);
    app.require_subcommand(1);
    // Before the subcommands, which copy it.
    app.formatter(std::make_shared<HelpFormatter>());
    // Before the subcommands, which inherit it: the global options (--color) may follow the
    // command, as in `spvtune tune --color never`.
    app.fallthrough();
    add_color_option(app);
    // Set before the subcommands are added: each copies its parent's footer.
    app.footer(footer_help());

    std::map<const CLI::App*, CommandAction> actions;
    auto add = [&](CommandAction action) {
        actions.emplace(app.get_subcommands({}).back(), std::move(action));
    };
    add(register_devices_command(app));
    add(register_cache_command(app));
    add(register_check_command(app));
    add(register_tune_command(app));
    add(register_compare_command(app));
    add(register_report_command(app));
    add(register_replay_command(app));
    add(register_show_output_command(app));
    add(register_completion_command(app));
    add(register_worker_command(app));
    add(register_manual_page_command(app));

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        // --help and --version are printed here too.
        return finish_standard_output(report_parse_error(app, error));
    }

    for (const auto& [subcommand, action] : actions) {
        if (subcommand->parsed()) {
            try {
                return finish_standard_output(action());
            } catch (const std::bad_alloc& error) {
                // Its what() names no command and no file: say both, as far as they are known.
                const auto* named = dynamic_cast<const OutOfMemory*>(&error);
                std::cerr << "spvtune: error: out of memory in `spvtune "
                          << command_path(*subcommand) << "`"
                          << (named != nullptr ? " while " + named->activity() : "") << '\n';
                return finish_standard_output(exit_failure);
            } catch (const std::exception& error) {
                std::cerr << "spvtune: error: " << error.what() << '\n';
                return finish_standard_output(exit_failure);
            }
        }
    }
    return exit_usage;
}
