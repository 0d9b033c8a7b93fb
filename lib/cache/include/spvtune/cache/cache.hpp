#pragma once

/// The front door of the cache library: include this one header (it includes the tuner's front
/// door too, <spvtune/tune/tune.hpp>, since a cache is where a tuner keeps what it settled).
///
/// The cache is one readable JSON file per hardware identity in a cache directory. A tuner
/// given a CacheFileStore remembers its winners across runs and processes; a shipped cache is
/// found for the hardware at hand and read as a document. A minimal use, with the tuner of the
/// tune library's example:
///
///     // $SPVTUNE_CACHE_DIR, else $XDG_CACHE_HOME/spvtune, else ~/.cache/spvtune
///     const auto directory = cache::choose_cache_directory(cache::cache_directory_sources());
///     tune::TunerOptions options;
///     options.store = std::make_shared<cache::CacheFileStore>(directory);
///     static tune::LocalTuner<Size, int> tuner("sum", options);  // tunes a key once, ever
///
///     // A cache shipped with the application: the file for this hardware (or, if allowed, one
///     // made with another driver of the same device), read-only.
///     if (auto found = cache::find_cache_file(shipped, client.hardware_identity(),
///                                             cache::DriverMismatch::allow)) {
///         const cache::CacheDocument document = cache::read_cache_file(found->file);
///         for (const auto& [tuner, lists] : document.tuners)          // by candidate-list
///             for (const auto& [checksum, list] : lists)              // checksum, then by
///                 for (const auto& [key, record] : list.entries)      // the key's JSON
///                     std::cout << record.printed_key << ": " << record.entry.winner_name;
///     }
///
/// CacheFileStoreOptions make a store read-only (shipped caches), accept another driver's file
/// and route warnings. A file that is corrupt or of a newer version is never overwritten:
/// reads throw CacheFormatError naming the place, the store moves a corrupt file aside.
/// merge_caches and diff_caches combine and compare files from many machines.
///
/// Left out, for the engine that keeps a VkPipelineCache beside each file:
/// pipeline_cache_file.hpp and atomic_write.hpp.
#include <spvtune/cache/cache_diff.hpp>
#include <spvtune/cache/cache_document.hpp>
#include <spvtune/cache/cache_file.hpp>
#include <spvtune/cache/cache_file_store.hpp>
#include <spvtune/cache/cache_format.hpp>
#include <spvtune/cache/cache_location.hpp>
#include <spvtune/cache/cache_lookup.hpp>
#include <spvtune/cache/cache_merge.hpp>
#include <spvtune/cache/cache_warning.hpp>
#include <spvtune/tune/tune.hpp>
