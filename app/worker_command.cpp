#include <string>

#include <spvtune/run/worker_server.hpp>

#include "command.hpp"

namespace spvtune::app {

CommandAction register_worker_command(CLI::App& parent) {
    // Hidden: only tune and compare start it, as the worker processes their library runs in.
    auto* command = parent.add_subcommand(std::string(run::worker_argument), "");
    command->group("");
    return [] { return run::worker_main(); };
}

}  // namespace spvtune::app
