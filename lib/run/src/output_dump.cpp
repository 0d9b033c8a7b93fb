#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include <spvtune/base/digest.hpp>
#include <spvtune/base/regular_file.hpp>
#include <spvtune/run/output_dump.hpp>

namespace spvtune::run {
namespace {

// The files are documented as little-endian: what the device wrote, copied as is.
static_assert(std::endian::native == std::endian::little);

// Longer stems are cut and made unique by a hash, well under the usual 255-byte name limit.
constexpr std::size_t max_stem = 160;

/// A file name of safe characters: anything else (a '/' or a space in a string key value)
/// becomes '_', so a name can never leave the directory or hide as a dot file.
std::string safe_stem(const std::string& text) {
    std::string stem;
    for (const char c : text) {
        const bool safe = std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' ||
                          c == '-' || c == '.' || c == '=' || c == ',' || c == '[' || c == ']';
        stem += safe ? c : '_';
    }
    if (stem.empty() || stem.front() == '.') {
        stem.insert(stem.begin(), '_');
    }
    if (stem.size() > max_stem) {
        stem = stem.substr(0, max_stem - 17) + "_" + base::to_hex(base::Fnv1a().add(text).value());
    }
    return stem;
}

/// Replaces `path` with `bytes`. An existing entry is removed first, so a symbolic link there
/// is replaced rather than followed out of the directory.
void write_file(const std::filesystem::path& path, std::string_view bytes) {
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
        throw std::runtime_error("cannot write " + path.string());
    }
}

// Every byte or an error: a stream would stop quietly at an I/O error or when memory runs out,
// and the dump would look short.
std::string read_file(const std::filesystem::path& path) {
    std::optional<base::RegularFile> file;
    try {
        file = base::read_regular_file(path, UINTMAX_MAX);
    } catch (const std::system_error& error) {
        throw std::runtime_error(error.what());
    }
    if (!file) {
        throw std::runtime_error("cannot read " + path.string() + ": no such file");
    }
    return std::move(file->text);
}

template <class T>
T load(std::span<const std::byte> bytes, std::size_t index) {
    T value;
    std::memcpy(&value, bytes.data() + index * sizeof(T), sizeof(T));
    return value;
}

std::string format_float(double value, int digits) {
    if (std::isnan(value)) {
        return "nan";
    }
    std::ostringstream text;
    text.precision(digits);
    text << value;
    return text.str();
}

}  // namespace

OutputDump::OutputDump(std::filesystem::path directory) : directory_(std::move(directory)) {
    std::error_code error;
    std::filesystem::create_directories(directory_, error);
    if (error || !std::filesystem::is_directory(directory_)) {
        throw std::runtime_error("cannot create the output directory " + directory_.string() +
                                 ": " + (error ? error.message() : "not a directory"));
    }
}

void OutputDump::write(const problem::Problem& problem, std::size_t candidate,
                       const problem::ProblemKey& key, bool reference,
                       const CandidateOutputs& outputs) {
    const std::string& name = problem.candidates[candidate].name;
    std::lock_guard lock(mutex_);
    for (std::size_t i = 0; i < outputs.buffers.size() && i < problem.reference.compare.size();
         ++i) {
        const problem::BufferSpec& buffer = problem.buffers[problem.reference.compare[i].buffer];
        const auto& bytes = outputs.buffers[i];
        const std::string stem =
            safe_stem(problem.name + "." + to_string(key) + "." + name + "." + buffer.name);
        nlohmann::json manifest = {
            {"problem", problem.name},
            {"key", key},
            {"candidate", name},
            {"reference", reference},
            {"buffer", buffer.name},
            {"type", std::string(vulkan::to_string(buffer.type))},
            {"count", bytes.size() / vulkan::element_size(buffer.type)},
            {"data", stem + ".bin"},
        };
        write_file(directory_ / (stem + ".bin"),
                   {reinterpret_cast<const char*>(bytes.data()), bytes.size()});
        write_file(directory_ / (stem + ".json"), manifest.dump(2) + "\n");
    }
}

DumpedOutput read_dumped_output(const std::filesystem::path& file) {
    std::filesystem::path manifest_path = file;
    manifest_path.replace_extension(".json");
    DumpedOutput output;
    try {
        output.manifest = nlohmann::json::parse(read_file(manifest_path));
    } catch (const nlohmann::json::exception& error) {
        throw std::runtime_error(manifest_path.string() + ": not a dump manifest: " + error.what());
    }
    const auto field = [&](const char* name) -> const nlohmann::json& {
        if (!output.manifest.is_object() || !output.manifest.contains(name)) {
            throw std::runtime_error(manifest_path.string() + ": not a dump manifest: no '" + name +
                                     "'");
        }
        return output.manifest.at(name);
    };
    const auto type = field("type").is_string()
                          ? vulkan::parse_element_type(field("type").get<std::string>())
                          : std::nullopt;
    if (!type || !field("count").is_number_unsigned() || !field("data").is_string()) {
        throw std::runtime_error(manifest_path.string() +
                                 ": not a dump manifest: bad 'type', 'count' or 'data'");
    }
    output.type = *type;
    output.count = field("count").get<std::size_t>();
    const std::string data =
        read_file(manifest_path.parent_path() /
                  std::filesystem::path(field("data").get<std::string>()).filename());
    if (data.size() != output.count * vulkan::element_size(output.type)) {
        throw std::runtime_error(manifest_path.string() + ": the data file holds " +
                                 std::to_string(data.size()) + " bytes; expected " +
                                 std::to_string(output.count) + " elements of " +
                                 std::string(vulkan::to_string(output.type)));
    }
    output.bytes.resize(data.size());
    std::memcpy(output.bytes.data(), data.data(), data.size());
    return output;
}

std::string format_element(vulkan::ElementType type, std::span<const std::byte> bytes,
                           std::size_t index) {
    using vulkan::ElementType;
    switch (type) {
        case ElementType::f16:
            return format_float(vulkan::read_element(type, bytes, index), 5);
        case ElementType::f32:
            return format_float(load<float>(bytes, index), 9);
        case ElementType::f64:
            return format_float(load<double>(bytes, index), 17);
        case ElementType::i8:
            return std::to_string(load<std::int8_t>(bytes, index));
        case ElementType::u8:
            return std::to_string(load<std::uint8_t>(bytes, index));
        case ElementType::i16:
            return std::to_string(load<std::int16_t>(bytes, index));
        case ElementType::u16:
            return std::to_string(load<std::uint16_t>(bytes, index));
        case ElementType::i32:
            return std::to_string(load<std::int32_t>(bytes, index));
        case ElementType::u32:
            return std::to_string(load<std::uint32_t>(bytes, index));
        case ElementType::i64:
            return std::to_string(load<std::int64_t>(bytes, index));
        case ElementType::u64:
            return std::to_string(load<std::uint64_t>(bytes, index));
    }
    return "?";
}

}  // namespace spvtune::run
