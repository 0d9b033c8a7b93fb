#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <system_error>

#include <spvtune/cache/cache_file.hpp>
#include <spvtune/cache/cache_format.hpp>

#include "cache_files.hpp"
#include "cache_subcommands.hpp"
#include "path_options.hpp"

namespace spvtune::app {
namespace {

namespace fs = std::filesystem;

int run_compact(const std::string& directory) {
    std::size_t compacted = 0;
    std::size_t failed = 0;
    int status = exit_success;
    for (const fs::path& file : list_directory(directory).caches) {
        try {
            if (cache::compact_cache_file(file)) {
                std::cout << file.string() << ": journal folded in\n";
                ++compacted;
            } else {
                // Without a journal the file is not rewritten, hence never read: read it now,
                // or the summary below would vouch for a file that holds no valid entries.
                cache::read_cache_file(file);
            }
        } catch (const cache::CacheFormatError& error) {
            std::cerr << "spvtune: error: " << error.what() << " (not compacted, left as it is)\n";
            ++failed;
            status = exit_usage;
        } catch (const std::system_error& error) {
            std::cerr << "spvtune: error: " << error.what() << " (not compacted)\n";
            ++failed;
            status = status == exit_success ? exit_failure : status;
        }
    }
    std::cout << compacted << (compacted == 1 ? " file" : " files") << " compacted";
    if (failed > 0) {
        std::cout << "; " << failed << (failed == 1 ? " file" : " files")
                  << " could not be compacted (see above)\n";
    } else {
        std::cout << "; every cache file in " << directory << " now holds all its entries\n";
    }
    return status;
}

}  // namespace

CacheSubcommand add_cache_compact_command(CLI::App& cache) {
    auto directory = std::make_shared<std::string>();
    auto* compact = cache.add_subcommand(
        "compact", "Fold each cache file's journal of recent saves into the file itself");
    compact->add_option("directory", *directory, "The cache directory")
        ->required()
        ->check(existing(PathKind::directory));
    return {compact, [directory] { return run_compact(*directory); }};
}

}  // namespace spvtune::app
