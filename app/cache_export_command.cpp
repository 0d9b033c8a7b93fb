#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include <spvtune/base/foreign_link.hpp>
#include <spvtune/cache/atomic_write.hpp>
#include <spvtune/cache/cache_file.hpp>
#include <spvtune/cache/cache_format.hpp>
#include <spvtune/cache/cache_location.hpp>

#include "cache_subcommands.hpp"
#include "path_options.hpp"

namespace spvtune::app {
namespace {

namespace fs = std::filesystem;

struct ExportOptions {
    std::string directory;
    std::string to;
    bool force = false;
};

/// A cache file to export: where it is and what it holds, its journal folded in.
struct ExportedFile {
    fs::path source;
    cache::CacheDocument document;
};

/// Why an export stops before writing anything: the message and the exit status.
struct ExportRefusal {
    std::string message;
    int status = exit_usage;
};

/// The live cache files of `directory` (not backups of corrupt ones), each read without
/// following a link, validated, and checked to be named after its hardware as readers need.
std::vector<ExportedFile> read_sources(const fs::path& directory) {
    std::vector<fs::path> names;
    std::error_code error;
    for (fs::directory_iterator it(directory, error), end; !error && it != end;
         it.increment(error)) {
        const fs::path& path = it->path();
        if (path.extension() == ".json" && !cache::is_cache_backup_name(path)) {
            names.push_back(path);
        }
    }
    if (error) {
        throw ExportRefusal{"cannot read directory " + directory.string() + ": " + error.message(),
                            exit_failure};
    }
    std::sort(names.begin(), names.end());
    std::vector<ExportedFile> files;
    for (const fs::path& path : names) {
        // A link inside a cache directory is foreign (docs/cache-format.md): never followed.
        if (base::is_symbolic_link(path)) {
            throw ExportRefusal{base::foreign_link_message(path)};
        }
        std::error_code kind_error;
        if (!fs::is_regular_file(fs::symlink_status(path, kind_error))) {
            throw ExportRefusal{path.string() + ": not a regular file"};
        }
        cache::CacheDocument document;
        try {
            document = cache::read_cache_file(path, base::LinkPolicy::refuse);
        } catch (const cache::CacheFormatError& format_error) {
            throw ExportRefusal{format_error.what()};
        } catch (const std::system_error& read_error) {
            // A link at the file's journal is refused as one at the file: foreign input.
            const bool link = read_error.code() == std::errc::too_many_symbolic_link_levels;
            throw ExportRefusal{read_error.what(), link ? exit_usage : exit_failure};
        }
        if (document.is_newer_schema()) {
            throw ExportRefusal{path.string() + ": written by a newer spvtune (schema version " +
                                std::to_string(document.schema_version) +
                                "); export it with that version"};
        }
        if (path.filename() != cache::cache_file_name(document.hardware)) {
            throw ExportRefusal{path.string() + ": /hardware/key: '" + document.hardware.key +
                                "' does not match the file name; a store reads it only as " +
                                cache::cache_file_name(document.hardware)};
        }
        files.push_back({path, std::move(document)});
    }
    return files;
}

/// Refuses an output directory that holds anything, unless --force: an export is a clean
/// release directory, and mixing it with older files would ship what was not verified.
void check_output(const fs::path& output, const fs::path& source, bool force) {
    std::error_code error;
    if (fs::exists(output, error) && !fs::is_directory(output, error)) {
        throw ExportRefusal{output.string() + ": exists and is not a directory"};
    }
    if (fs::equivalent(output, source, error)) {
        throw ExportRefusal{output.string() + ": is the directory being exported"};
    }
    if (!force && fs::is_directory(output, error) && !fs::is_empty(output, error)) {
        throw ExportRefusal{output.string() +
                            ": not empty (--force writes the cache files into it anyway, "
                            "replacing those of the same names)"};
    }
}

/// Writes one file atomically and reads it back: what ships is what was read.
void write_verified(const fs::path& target, const cache::CacheDocument& document) {
    const std::string text = cache::serialize_cache(document);
    cache::write_file_atomically(target, text);
    const cache::CacheDocument written = cache::read_cache_file(target, base::LinkPolicy::refuse);
    if (cache::serialize_cache(written) != text) {
        throw ExportRefusal{target.string() + ": does not read back as written", exit_failure};
    }
}

int run_export(const ExportOptions& options) {
    const fs::path source(options.directory);
    const fs::path output(options.to);
    try {
        const std::vector<ExportedFile> files = read_sources(source);
        check_output(output, source, options.force);
        fs::create_directories(output);
        std::size_t entries = 0;
        for (const ExportedFile& file : files) {
            const fs::path target = output / file.source.filename();
            write_verified(target, file.document);
            entries += file.document.entry_count();
            std::cout << target.string() << ": " << file.document.entry_count()
                      << " entries, verified\n";
        }
        std::cout << "exported " << files.size() << " cache files (" << entries << " entries) to "
                  << output.string()
                  << ": journals folded in; locks, pipeline caches, compiled GLSL, temporaries and "
                     "backups left out\n";
        return exit_success;
    } catch (const ExportRefusal& refusal) {
        std::cerr << "spvtune: error: " << refusal.message << '\n';
        return refusal.status;
    } catch (const std::system_error& error) {
        std::cerr << "spvtune: error: " << error.what() << '\n';
        return exit_failure;
    }
}

}  // namespace

CacheSubcommand add_cache_export_command(CLI::App& cache) {
    auto options = std::make_shared<ExportOptions>();
    auto* command = cache.add_subcommand(
        "export",
        "Write a clean release directory: only the cache files, journals folded in, "
        "each verified");
    command->add_option("directory", options->directory, "The cache directory to export")
        ->required()
        ->check(existing(PathKind::directory));
    command
        ->add_option("--to", options->to,
                     "The release directory to write (created; refused when not empty)")
        ->type_name("DIR")
        ->required();
    command->add_flag("--force", options->force,
                      "Write into a non-empty release directory, replacing its cache files of "
                      "the same names");
    return {command, [options] { return run_export(*options); }};
}

}  // namespace spvtune::app
