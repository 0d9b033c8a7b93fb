#include <spvtune/base/foreign_link.hpp>
#include <spvtune/base/stale_files.hpp>

namespace spvtune::base {

namespace fs = std::filesystem;

void remove_stale_files(const fs::path& directory, std::string_view marker,
                        std::chrono::seconds age) noexcept {
    // Deleting in a linked folder would delete files of whatever folder the link names.
    if (is_symbolic_link(directory)) {
        return;
    }
    const auto now = fs::file_time_type::clock::now();
    std::error_code error;
    for (fs::directory_iterator it(directory, error), end; !error && it != end;
         it.increment(error)) {
        if (it->path().filename().string().find(marker) == std::string::npos) {
            continue;
        }
        std::error_code ignored;
        if (!it->is_regular_file(ignored) || it->is_symlink(ignored)) {
            continue;
        }
        const auto written = fs::last_write_time(it->path(), ignored);
        if (!ignored && now - written > age) {
            fs::remove(it->path(), ignored);
        }
    }
}

}  // namespace spvtune::base
