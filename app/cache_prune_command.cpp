#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <spvtune/cache/cache_file.hpp>
#include <spvtune/cache/cache_format.hpp>

#include "cache_files.hpp"
#include "cache_layouts.hpp"
#include "cache_subcommands.hpp"
#include "path_options.hpp"

namespace spvtune::app {
namespace {

namespace fs = std::filesystem;

struct PruneOptions {
    std::string directory;
    std::vector<std::string> problems;
    std::vector<std::string> kernel_dirs;
    bool dry_run = false;
};

/// Removes the problems' older candidate lists from `document`; returns the entries removed.
std::size_t prune(cache::CacheDocument& document,
                  const std::vector<problem::ProblemCacheLayout>& layouts, const fs::path& file,
                  bool dry_run) {
    std::size_t removed = 0;
    for (const problem::ProblemCacheLayout& layout : layouts) {
        const auto tuner = document.tuners.find(layout.tuner);
        if (tuner == document.tuners.end()) {
            continue;
        }
        for (auto list = tuner->second.begin(); list != tuner->second.end();) {
            if (list->first == layout.checksum) {
                ++list;
                continue;
            }
            std::cout << file.string() << ": " << (dry_run ? "would remove " : "removed ")
                      << list->second.entries.size() << " entries of " << layout.tuner
                      << " for an older candidate list\n";
            removed += list->second.entries.size();
            list = tuner->second.erase(list);
        }
        if (tuner->second.empty()) {
            document.tuners.erase(tuner);
        }
    }
    return removed;
}

int run_prune(const PruneOptions& options, const std::string& cache_dir) {
    const auto layouts = load_cache_layouts(options.problems, options.kernel_dirs, cache_dir);
    if (!layouts) {
        return exit_usage;
    }
    std::size_t total = 0;
    for (const fs::path& file : list_directory(options.directory).caches) {
        if (options.dry_run) {
            auto document = read_or_report(file);
            if (!document) {
                return exit_usage;
            }
            total += prune(*document, *layouts, file, true);
            continue;
        }
        try {
            cache::edit_cache_file(file, [&](cache::CacheDocument& document) {
                const std::size_t removed = prune(document, *layouts, file, false);
                total += removed;
                return removed > 0;
            });
        } catch (const cache::CacheFormatError& error) {
            std::cerr << "spvtune: error: " << error.what() << " (left as it is)\n";
            return exit_usage;
        }
    }
    std::cout << (options.dry_run ? "would remove " : "removed ") << total
              << " entries of older candidate lists; tuners the problems do not name are kept\n";
    return exit_success;
}

}  // namespace

CacheSubcommand add_cache_prune_command(CLI::App& cache,
                                        const std::shared_ptr<std::string>& cache_dir) {
    auto options = std::make_shared<PruneOptions>();
    auto* prune_command = cache.add_subcommand(
        "prune", "Remove the problems' entries made for older candidate lists");
    prune_command->add_option("directory", options->directory, "The cache directory")
        ->required()
        ->check(existing(PathKind::directory));
    prune_command
        ->add_option("--problems", options->problems, "Problem files whose candidates are current")
        ->type_name("JSON")
        ->required()
        ->check(existing(PathKind::file));
    add_kernel_dir_option(*prune_command, options->kernel_dirs);
    add_cache_dir_option(*prune_command, *cache_dir, "Cache directory, for compiled GLSL");
    prune_command->add_flag("--dry-run", options->dry_run, "Only say what would be removed");
    return {prune_command, [options, cache_dir] { return run_prune(*options, *cache_dir); }};
}

}  // namespace spvtune::app
