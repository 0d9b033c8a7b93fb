#include <spvtune/cache/atomic_write.hpp>

#include "cache_file_io.hpp"

namespace spvtune::cache {

// The cache file's own writer, shared so there is one way to replace a file atomically.
void write_file_atomically(const std::filesystem::path& target, std::string_view content) {
    cache_io::write_file_atomically(target, content);
}

}  // namespace spvtune::cache
