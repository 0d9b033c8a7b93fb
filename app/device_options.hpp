#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace spvtune::app {

/// Adds `--device SEL` to a command (empty: the default device; see vulkan::select_device).
void add_device_option(CLI::App& command, std::string& selector);

}  // namespace spvtune::app
