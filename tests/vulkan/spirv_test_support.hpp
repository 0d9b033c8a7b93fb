#pragma once

// Helpers for the SPIR-V module tests: a private temporary directory, raw file writing, and
// assembling the committed .spvasm test data (binary SPIR-V is never committed).

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <spirv-tools/libspirv.hpp>

#include <spvtune/vulkan/error.hpp>

namespace spvtune::vulkan::test {

inline const std::filesystem::path kernel_dir{SPVTUNE_KERNEL_DIR};
inline const std::filesystem::path test_kernel_dir{SPVTUNE_TEST_KERNEL_DIR};
inline const std::filesystem::path test_data_dir{SPVTUNE_TEST_DATA_DIR};

/// A directory of its own under the system temporary directory, removed with its contents.
class TempDir {
  public:
    TempDir() {
        std::string pattern = (std::filesystem::temp_directory_path() / "spvtune-spirv-XXXXXX");
        if (mkdtemp(pattern.data()) == nullptr) {
            throw std::runtime_error("cannot create a temporary directory from " + pattern);
        }
        path_ = pattern;
    }
    ~TempDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

  private:
    std::filesystem::path path_;
};

inline void write_bytes(const std::filesystem::path& path, const void* data, std::size_t size) {
    std::ofstream file(path, std::ios::binary);
    file.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
    if (!file) {
        throw std::runtime_error("cannot write " + path.string());
    }
}

inline void write_words(const std::filesystem::path& path,
                        const std::vector<std::uint32_t>& words) {
    write_bytes(path, words.data(), words.size() * sizeof(std::uint32_t));
}

/// Assembles a committed .spvasm file of tests/vulkan/data for the given environment.
inline std::vector<std::uint32_t> assemble(const std::string& name, spv_target_env env) {
    std::ifstream file(test_data_dir / name);
    const std::string text((std::istreambuf_iterator<char>(file)),
                           std::istreambuf_iterator<char>());
    if (text.empty()) {
        throw std::runtime_error("cannot read test data " + name);
    }
    std::string messages;
    spvtools::SpirvTools tools(env);
    tools.SetMessageConsumer([&messages](spv_message_level_t, const char*,
                                         const spv_position_t& position, const char* message) {
        messages += "line " + std::to_string(position.line) + ": " + message + "\n";
    });
    std::vector<std::uint32_t> words;
    if (!tools.Assemble(text, &words)) {
        throw std::runtime_error("cannot assemble test data " + name + ":\n" + messages);
    }
    return words;
}

/// The message of the SpirvError that `action` throws; fails the test when it throws none.
template <typename Action>
std::string spirv_error_of(Action&& action) {
    try {
        action();
    } catch (const SpirvError& error) {
        return error.what();
    }
    FAIL("expected a SpirvError, but nothing was thrown");
    return {};
}

/// Checks that `message` contains every one of `parts`, showing the message when one is missing.
inline void check_mentions(const std::string& message, std::initializer_list<std::string> parts) {
    for (const std::string& part : parts) {
        CHECK_MESSAGE(message.find(part) != std::string::npos,
                      "'" << part << "' missing from: " << message);
    }
}

}  // namespace spvtune::vulkan::test
