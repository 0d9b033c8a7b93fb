#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>

#include <spvtune/base/digest.hpp>
#include <spvtune/base/foreign_link.hpp>
#include <spvtune/cache/atomic_write.hpp>
#include <spvtune/cache/cache_location.hpp>
#include <spvtune/cache/pipeline_cache_file.hpp>

namespace spvtune::cache {
namespace {

// The envelope: magic (8 bytes), format version (u32), reserved (u32), data size (u64), FNV-1a
// of the data (u64), then the data; little-endian.
constexpr std::string_view magic = "SPVTPIPE";
constexpr std::uint32_t format_version = 1;
constexpr std::size_t envelope_size = 8 + 4 + 4 + 8 + 8;
/// Far beyond any real pipeline cache: a larger file is not read into memory.
constexpr std::uintmax_t largest_file = std::uintmax_t{1} << 30;

template <class T>
T read_le(const std::byte* bytes) {
    T value = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) {
        value |= static_cast<T>(static_cast<T>(bytes[i]) << (8 * i));
    }
    return value;
}

template <class T>
void append_le(std::string& text, T value) {
    for (std::size_t i = 0; i < sizeof(T); ++i) {
        text.push_back(static_cast<char>((value >> (8 * i)) & 0xffU));
    }
}

std::uint64_t checksum(std::span<const std::byte> data) {
    return base::Fnv1a().add(data).value();
}

}  // namespace

std::string pipeline_cache_file_name(const tune::HardwareIdentity& hardware) {
    std::string name = cache_file_name(hardware);  // validates the key
    name.resize(name.size() - std::string_view(".json").size());
    return name + std::string(pipeline_cache_extension);
}

tune::Result<std::vector<std::byte>> read_pipeline_cache_file(const std::filesystem::path& file) {
    std::error_code error;
    // symlink_status: a link is foreign (its target may be any file), so it is not read; the
    // next save replaces the link itself.
    const auto status = std::filesystem::symlink_status(file, error);
    if (std::filesystem::is_symlink(status)) {
        return tune::fail(base::foreign_link_message(file));
    }
    if (!std::filesystem::exists(status)) {
        return std::vector<std::byte>{};
    }
    if (!std::filesystem::is_regular_file(status)) {
        return tune::fail(file.string() + " is not a regular file");
    }
    const std::uintmax_t size = std::filesystem::file_size(file, error);
    if (error) {
        return tune::fail(file.string() + ": " + error.message());
    }
    if (size > largest_file) {
        return tune::fail(file.string() + " is too large (" + std::to_string(size) + " bytes)");
    }
    std::ifstream in(file, std::ios::binary);
    std::vector<std::byte> bytes(static_cast<std::size_t>(size));
    if (!in || !in.read(reinterpret_cast<char*>(bytes.data()),
                        static_cast<std::streamsize>(bytes.size()))) {
        return tune::fail(file.string() + ": cannot be read: " + std::strerror(errno));
    }
    if (bytes.size() < envelope_size ||
        std::memcmp(bytes.data(), magic.data(), magic.size()) != 0) {
        return tune::fail(file.string() + " is not a spvtune pipeline cache file");
    }
    const std::byte* field = bytes.data() + magic.size();
    if (const auto version = read_le<std::uint32_t>(field); version != format_version) {
        return tune::fail(file.string() + " has pipeline cache format " + std::to_string(version) +
                          ", not " + std::to_string(format_version));
    }
    if (read_le<std::uint32_t>(field + 4) != 0) {
        return tune::fail(file.string() + " is damaged: its reserved field is not 0");
    }
    const auto data_size = read_le<std::uint64_t>(field + 8);
    const auto sum = read_le<std::uint64_t>(field + 16);
    if (data_size != bytes.size() - envelope_size) {
        return tune::fail(file.string() + " is truncated or damaged: it says " +
                          std::to_string(data_size) + " bytes of data and holds " +
                          std::to_string(bytes.size() - envelope_size));
    }
    std::vector<std::byte> data(bytes.begin() + envelope_size, bytes.end());
    if (checksum(data) != sum) {
        return tune::fail(file.string() + " is damaged: its checksum does not match");
    }
    return data;
}

std::string pipeline_cache_file_content(std::span<const std::byte> data) {
    std::string text(magic);
    append_le(text, format_version);
    append_le(text, std::uint32_t{0});
    append_le(text, static_cast<std::uint64_t>(data.size()));
    append_le(text, checksum(data));
    text.append(reinterpret_cast<const char*>(data.data()), data.size());
    return text;
}

void write_pipeline_cache_file(const std::filesystem::path& file, std::span<const std::byte> data) {
    if (file.has_parent_path()) {
        std::filesystem::create_directories(file.parent_path());
    }
    write_file_atomically(file, pipeline_cache_file_content(data));
}

}  // namespace spvtune::cache
