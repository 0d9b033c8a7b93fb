// Fuzzes the SPIR-V reader and reflection: arbitrary words must either become a module or throw
// SpirvError; a module that exists must answer every query about its entry points.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include <spvtune/vulkan/error.hpp>
#include <spvtune/vulkan/spirv_module.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // A file's size that is not a multiple of 4 is refused before this point (SpirvModule::load);
    // the trailing bytes are dropped so every input reaches the word-level checks.
    std::vector<std::uint32_t> words(size / sizeof(std::uint32_t));
    if (!words.empty()) {
        std::memcpy(words.data(), data, words.size() * sizeof(std::uint32_t));
    }
    try {
        const auto module = spvtune::vulkan::SpirvModule::from_words(std::move(words), "fuzz.spv");
        (void)module.content_hash_hex();
        for (const auto& entry : module.entry_points()) {
            (void)module.entry_point(entry.name);
        }
        (void)module.entry_point("no such entry point");
    } catch (const spvtune::vulkan::SpirvError&) {
        // The documented way to refuse a module (and an unknown entry point).
    }
    return 0;
}
