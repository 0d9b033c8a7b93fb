#include <algorithm>

#include <doctest/doctest.h>

#include <spvtune/vulkan/spirv_module.hpp>

#include "spirv_test_support.hpp"

namespace spvtune::vulkan::spirv_module_test {
namespace {

std::uint32_t byteswap(std::uint32_t v) {
    return (v >> 24) | ((v >> 8) & 0xff00U) | ((v << 8) & 0xff0000U) | (v << 24);
}

TEST_CASE("spirv module: content hash is stable across loads and follows the code") {
    const SpirvModule first = SpirvModule::load(test::kernel_dir / "saxpy.spv");
    const SpirvModule second = SpirvModule::load(test::kernel_dir / "saxpy.spv");
    CHECK(first.content_hash() == second.content_hash());
    CHECK(first.content_hash_hex() == second.content_hash_hex());
    CHECK(first.content_hash_hex().size() == 16);
    CHECK(first.content_hash_hex().find_first_not_of("0123456789abcdef") == std::string::npos);

    const SpirvModule other = SpirvModule::load(test::test_kernel_dir / "reflect_literal.spv");
    CHECK(other.content_hash() != first.content_hash());

    // Same code under another name: the hash covers the code only.
    const std::vector<std::uint32_t> words(first.words().begin(), first.words().end());
    const SpirvModule renamed = SpirvModule::from_words(words, "embedded saxpy");
    CHECK(renamed.display_name() == "embedded saxpy");
    CHECK(renamed.content_hash() == first.content_hash());

    // One changed word (the generator magic in the header) gives another hash.
    std::vector<std::uint32_t> edited = words;
    edited[2] ^= 1U;
    CHECK(SpirvModule::from_words(edited, "edited").content_hash() != first.content_hash());
}

TEST_CASE("spirv module: FNV-1a 64 of the code's bytes") {
    // Independent byte-wise FNV-1a over the file as stored (little-endian host), so the digest
    // is the documented one and not merely self-consistent.
    const SpirvModule module = SpirvModule::load(test::kernel_dir / "saxpy.spv");
    std::uint64_t expected = 0xcbf29ce484222325ULL;
    const auto* bytes = reinterpret_cast<const unsigned char*>(module.words().data());
    for (std::size_t i = 0; i < module.words().size_bytes(); ++i) {
        expected = (expected ^ bytes[i]) * 0x100000001b3ULL;
    }
    CHECK(module.content_hash() == expected);
}

TEST_CASE("spirv module: a module stored in the other byte order loads the same") {
    const SpirvModule native = SpirvModule::load(test::kernel_dir / "saxpy.spv");
    std::vector<std::uint32_t> swapped(native.words().begin(), native.words().end());
    std::transform(swapped.begin(), swapped.end(), swapped.begin(), byteswap);
    test::TempDir dir;
    test::write_words(dir / "swapped.spv", swapped);

    const SpirvModule loaded = SpirvModule::load(dir / "swapped.spv");
    CHECK(std::equal(loaded.words().begin(), loaded.words().end(), native.words().begin(),
                     native.words().end()));
    CHECK(loaded.content_hash() == native.content_hash());
    CHECK(loaded.entry_point("main").push_constants.size == 8);
}

}  // namespace
}  // namespace spvtune::vulkan::spirv_module_test
