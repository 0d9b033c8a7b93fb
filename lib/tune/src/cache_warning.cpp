#include <iostream>

#include <spvtune/tune/cache_warning.hpp>

namespace spvtune::tune {

void warn_to_stderr(const std::string& message) {
    std::cerr << "spvtune: warning: " << message << '\n';
}

}  // namespace spvtune::tune
