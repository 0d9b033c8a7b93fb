#pragma once

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include <spvtune/tune/hardware_identity.hpp>
#include <spvtune/tune/result.hpp>

namespace spvtune::cache {

/// The extension of the pipeline cache file that sits next to each cache file.
inline constexpr std::string_view pipeline_cache_extension = ".pipelines";

/// The pipeline cache file's name for `hardware`: its identity key plus ".pipelines", next to
/// the cache file "<key>.json". Throws std::invalid_argument as cache_file_name does.
std::string pipeline_cache_file_name(const tune::HardwareIdentity& hardware);

/// The driver's pipeline cache data (vkGetPipelineCacheData's bytes) kept in `file`. The file
/// wraps the data in an envelope (magic, size, checksum), so a truncated or damaged file is
/// recognised here and the driver is never handed bytes that were not written whole; whether
/// the data suits a device (its header and UUID) is the Vulkan engine's check. A missing file
/// is an empty vector; any other problem, a symbolic link included (never followed: its target
/// may be any file), is an error saying what is wrong (never an exception: the file is a cache,
/// and a bad one is only ignored and replaced).
tune::Result<std::vector<std::byte>> read_pipeline_cache_file(const std::filesystem::path& file);

/// The envelope around `data`, as read_pipeline_cache_file expects it.
std::string pipeline_cache_file_content(std::span<const std::byte> data);

/// Replaces `file` with `data` atomically (temporary + rename), so concurrent tunes never
/// leave a half file: the last writer wins; a symbolic link at `file` is replaced, never its
/// target. Creates the directory. Throws std::system_error.
void write_pipeline_cache_file(const std::filesystem::path& file, std::span<const std::byte> data);

}  // namespace spvtune::cache
