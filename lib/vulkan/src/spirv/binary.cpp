#include "binary.hpp"

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <system_error>

#include <spvtune/base/digest.hpp>
#include <spvtune/vulkan/error.hpp>

namespace spvtune::vulkan::detail {
namespace {

constexpr std::uint32_t spirv_magic = 0x07230203;

// std::byteswap is C++23.
constexpr std::uint32_t byteswap32(std::uint32_t v) noexcept {
    return (v >> 24) | ((v >> 8) & 0xff00U) | ((v << 8) & 0xff0000U) | (v << 24);
}

std::string hex32(std::uint32_t value) {
    std::ostringstream out;
    out << "0x" << std::hex << std::setw(8) << std::setfill('0') << value;
    return out.str();
}

void check_magic(std::uint32_t first_word, const std::string& display_name) {
    if (first_word != spirv_magic && first_word != byteswap32(spirv_magic)) {
        throw SpirvError("'" + display_name + "' is not a SPIR-V module: it starts with " +
                         hex32(first_word) + ", expected the SPIR-V magic number " +
                         hex32(spirv_magic));
    }
}

}  // namespace

std::vector<std::uint32_t> read_spirv_words(const std::filesystem::path& path,
                                            const std::string& display_name) {
    std::error_code status_error;
    if (std::filesystem::is_directory(path, status_error)) {
        throw SpirvError("cannot open SPIR-V file '" + display_name + "': it is a directory");
    }
    errno = 0;
    std::ifstream file(path, std::ios::binary | std::ios::ate);
    if (!file) {
        const int error = errno;
        throw SpirvError("cannot open SPIR-V file '" + display_name + "': " +
                         (error != 0 ? std::generic_category().message(error) : "unknown error"));
    }
    const std::streamoff size = file.tellg();
    if (size < 0) {
        throw SpirvError("cannot read SPIR-V file '" + display_name + "': cannot tell its size");
    }
    std::vector<char> bytes(static_cast<std::size_t>(size));
    file.seekg(0);
    if (!file.read(bytes.data(), size)) {
        throw SpirvError("cannot read SPIR-V file '" + display_name + "': read failed after " +
                         std::to_string(file.gcount()) + " of " + std::to_string(bytes.size()) +
                         " bytes");
    }
    // The magic number first: for a file that is not SPIR-V at all it says more than its size.
    if (bytes.size() >= sizeof(std::uint32_t)) {
        std::uint32_t first = 0;
        std::memcpy(&first, bytes.data(), sizeof first);
        check_magic(first, display_name);
    }
    if (bytes.size() % sizeof(std::uint32_t) != 0) {
        throw SpirvError("'" + display_name + "' is not a SPIR-V module: its size (" +
                         std::to_string(bytes.size()) +
                         " bytes) is not a multiple of 4; is it truncated?");
    }
    std::vector<std::uint32_t> words(bytes.size() / sizeof(std::uint32_t));
    if (!words.empty()) {  // memcpy with the null data() of an empty vector is undefined
        std::memcpy(words.data(), bytes.data(), bytes.size());
    }
    return words;
}

void normalize_spirv_words(std::vector<std::uint32_t>& words, const std::string& display_name) {
    if (words.size() < spirv_header_words) {
        throw SpirvError("'" + display_name + "' is not a SPIR-V module: it has " +
                         std::to_string(words.size() * 4) +
                         " bytes, fewer than the 20-byte SPIR-V header");
    }
    check_magic(words[0], display_name);
    if (words[0] != spirv_magic) {
        // SPIR-V allows either byte order; everything downstream expects host order.
        for (auto& word : words) {
            word = byteswap32(word);
        }
    }
}

std::uint64_t code_digest(std::span<const std::uint32_t> words) noexcept {
    base::Fnv1a digest;
    for (const std::uint32_t word : words) {
        const std::array<std::byte, 4> bytes{
            std::byte(word & 0xffU), std::byte((word >> 8) & 0xffU),
            std::byte((word >> 16) & 0xffU), std::byte(word >> 24)};
        digest.add(bytes);
    }
    return digest.value();
}

}  // namespace spvtune::vulkan::detail
