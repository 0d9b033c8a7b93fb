#pragma once

#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "command.hpp"

namespace spvtune::app {

/// A `cache` subcommand defined in a file of its own: its CLI node and its action.
struct CacheSubcommand {
    CLI::App* command = nullptr;
    CommandAction action;
};

/// `cache_dir` is what `--cache-dir` sets, the subcommand's and `spvtune cache --cache-dir`'s
/// alike; the subcommands that work only on the paths they name take none.
CacheSubcommand add_cache_merge_command(CLI::App& cache);
CacheSubcommand add_cache_verify_command(CLI::App& cache,
                                         const std::shared_ptr<std::string>& cache_dir);
CacheSubcommand add_cache_prune_command(CLI::App& cache,
                                        const std::shared_ptr<std::string>& cache_dir);
CacheSubcommand add_cache_diff_command(CLI::App& cache);
CacheSubcommand add_cache_compact_command(CLI::App& cache);
CacheSubcommand add_cache_export_command(CLI::App& cache);

}  // namespace spvtune::app
