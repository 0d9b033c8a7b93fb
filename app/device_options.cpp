#include "device_options.hpp"

namespace spvtune::app {

void add_device_option(CLI::App& command, std::string& selector) {
    command.add_option("--device", selector,
                       "Device: index, UUID or name substring (default: first discrete GPU, "
                       "else integrated, else CPU)");
}

}  // namespace spvtune::app
