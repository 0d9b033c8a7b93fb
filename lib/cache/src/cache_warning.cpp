#include <iostream>

#include <spvtune/cache/cache_warning.hpp>

namespace spvtune::cache {

void warn_to_stderr(const std::string& message) {
    std::cerr << "spvtune: warning: " << message << '\n';
}

}  // namespace spvtune::cache
