// Fuzzes the problem-file parser: arbitrary text, read as a problem file beside the CLI tests'
// kernels, must either load (structure, expressions, SPIR-V reflection and grid expansion all
// checked, no device needed) or throw ProblemError; anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <spvtune/problem/diagnostic.hpp>
#include <spvtune/problem/problem.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    spvtune::problem::LoadOptions options;
    options.kernel_dirs = {SPVTUNE_FUZZ_KERNEL_DIR, SPVTUNE_KERNEL_DIR};
    try {
        // Relative `spirv` paths resolve next to the file: in the fuzz kernels' folder.
        (void)spvtune::problem::parse_problem(
            text, std::string_view(SPVTUNE_FUZZ_KERNEL_DIR "/fuzz.json"), options);
    } catch (const spvtune::problem::ProblemError&) {
        // The documented way to refuse a problem file.
    }
    return 0;
}
