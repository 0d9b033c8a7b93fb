#include <doctest/doctest.h>

#include <spvtune/vulkan/spirv_module.hpp>

#include "spirv_test_support.hpp"

namespace spvtune::vulkan::spirv_errors_test {
namespace {

using test::check_mentions;
using test::spirv_error_of;

TEST_CASE("spirv errors: a missing file is named") {
    const std::string path = (test::test_data_dir / "does_not_exist.spv").string();
    const std::string message = spirv_error_of([&] { SpirvModule::load(path); });
    check_mentions(message, {"cannot open SPIR-V file", path, "No such file"});
}

TEST_CASE("spirv errors: a directory is not a SPIR-V file") {
    const std::string path = test::test_data_dir.string();
    const std::string message = spirv_error_of([&] { SpirvModule::load(path); });
    check_mentions(message, {"cannot open SPIR-V file", path, "directory"});
}

TEST_CASE("spirv errors: a text file is not SPIR-V") {
    const std::string path = (test::test_data_dir / "not_spirv.txt").string();
    const std::string message = spirv_error_of([&] { SpirvModule::load(path); });
    check_mentions(message, {path, "is not a SPIR-V module", "starts with 0x73696854",
                             "magic number 0x07230203"});
}

TEST_CASE("spirv errors: a truncated file is not SPIR-V") {
    const SpirvModule saxpy = SpirvModule::load(test::kernel_dir / "saxpy.spv");
    test::TempDir dir;

    const auto cut = dir / "cut.spv";
    test::write_bytes(cut, saxpy.words().data(), saxpy.words().size_bytes() - 3);
    check_mentions(spirv_error_of([&] { SpirvModule::load(cut); }),
                   {cut.string(), "is not a SPIR-V module", "not a multiple of 4"});

    const auto header_only = dir / "short.spv";
    test::write_bytes(header_only, saxpy.words().data(), 8);
    check_mentions(spirv_error_of([&] { SpirvModule::load(header_only); }),
                   {header_only.string(), "is not a SPIR-V module", "20-byte SPIR-V header"});

    const auto empty = dir / "empty.spv";
    test::write_bytes(empty, "", 0);
    check_mentions(spirv_error_of([&] { SpirvModule::load(empty); }),
                   {empty.string(), "is not a SPIR-V module"});
}

TEST_CASE("spirv errors: whole words cut from the end fail validation") {
    const SpirvModule saxpy = SpirvModule::load(test::kernel_dir / "saxpy.spv");
    std::vector<std::uint32_t> words(saxpy.words().begin(), saxpy.words().end());
    words.resize(words.size() - 5);
    check_mentions(spirv_error_of([&] { SpirvModule::from_words(words, "cut saxpy"); }),
                   {"'cut saxpy'", "failed SPIR-V validation"});
}

TEST_CASE("spirv errors: a module that fails validation, from a file and from words") {
    const std::vector<std::uint32_t> words =
        test::assemble("fails_validation.spvasm", SPV_ENV_VULKAN_1_1);
    test::TempDir dir;
    const auto path = dir / "fails_validation.spv";
    test::write_words(path, words);
    check_mentions(spirv_error_of([&] { SpirvModule::load(path); }),
                   {path.string(), "failed SPIR-V validation", "Vulkan 1.1", "OpStore"});
    check_mentions(spirv_error_of([&] { SpirvModule::from_words(words, "inline kernel"); }),
                   {"'inline kernel'", "failed SPIR-V validation", "OpStore"});
}

TEST_CASE("spirv errors: a SPIR-V version newer than Vulkan 1.3 accepts") {
    const SpirvModule saxpy = SpirvModule::load(test::kernel_dir / "saxpy.spv");
    std::vector<std::uint32_t> words(saxpy.words().begin(), saxpy.words().end());
    words[1] = 0x00010700;  // SPIR-V 1.7
    check_mentions(spirv_error_of([&] { SpirvModule::from_words(words, "future.spv"); }),
                   {"'future.spv'", "SPIR-V version 1.7", "expected 1.0 to 1.6"});
}

TEST_CASE("spirv errors: an unknown entry point lists the available ones") {
    const SpirvModule module = SpirvModule::from_words(
        test::assemble("local_size_id.spvasm", SPV_ENV_VULKAN_1_3), "two_kernels.spv");
    check_mentions(spirv_error_of([&] { module.entry_point("mian"); }),
                   {"'two_kernels.spv'", "no entry point 'mian'", "'main', 'second'"});
}

TEST_CASE("spirv errors: a fragment entry point is not a compute kernel") {
    const SpirvModule module = SpirvModule::from_words(
        test::assemble("local_size_id.spvasm", SPV_ENV_VULKAN_1_3), "two_kernels.spv");
    check_mentions(spirv_error_of([&] { module.entry_point("frag"); }),
                   {"'two_kernels.spv'", "'frag'", "fragment shader", "not a compute kernel",
                    "'main', 'second'"});
}

}  // namespace
}  // namespace spvtune::vulkan::spirv_errors_test
