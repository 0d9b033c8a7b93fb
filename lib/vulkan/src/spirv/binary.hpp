#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

// Byte-level handling of SPIR-V code: reading a file, recognising SPIR-V, byte order, digest.
namespace spvtune::vulkan::detail {

/// Words of the SPIR-V header (magic, version, generator, bound, schema) before the first
/// instruction.
inline constexpr std::size_t spirv_header_words = 5;

/// The words of the file at `path`; throws SpirvError when it cannot be read or its size is not
/// a whole number of 32-bit words
/// (a file that does not start with the SPIR-V magic number is reported as such first).
std::vector<std::uint32_t> read_spirv_words(const std::filesystem::path& path,
                                            const std::string& display_name);

/// Checks the SPIR-V header (length, magic number) and converts a module stored in the opposite
/// byte order to host order. Throws SpirvError naming `display_name` when it is not SPIR-V.
void normalize_spirv_words(std::vector<std::uint32_t>& words, const std::string& display_name);

/// FNV-1a 64 over the words' little-endian bytes, so the digest does not depend on the host.
std::uint64_t code_digest(std::span<const std::uint32_t> words) noexcept;

}  // namespace spvtune::vulkan::detail
