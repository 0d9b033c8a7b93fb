#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

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
    for (const fs::path& file : list_directory(directory).caches) {
        try {
            if (cache::compact_cache_file(file)) {
                std::cout << file.string() << ": journal folded in\n";
                ++compacted;
            }
        } catch (const cache::CacheFormatError& error) {
            std::cerr << "spvtune: error: " << error.what() << " (left as it is)\n";
            return exit_usage;
        }
    }
    std::cout << compacted << (compacted == 1 ? " file" : " files")
              << " compacted; every cache file in " << directory << " now holds all its entries\n";
    return exit_success;
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
