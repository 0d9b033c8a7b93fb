#pragma once

#include <chrono>
#include <filesystem>
#include <string_view>

// Temporaries left by a process killed while writing, where no lock says whether their writer
// still lives: only their age does.
namespace spvtune::base {

/// Removes the regular files directly in `directory` whose names contain `marker` and that were
/// last written more than `age` ago. Never follows a symbolic link: a linked `directory` is left
/// alone, and a link among its files is not a temporary. Errors are ignored (a leftover costs
/// disk space, no more).
void remove_stale_files(const std::filesystem::path& directory, std::string_view marker,
                        std::chrono::seconds age) noexcept;

}  // namespace spvtune::base
