#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <spvtune/vulkan/spirv_reflection.hpp>

namespace spvtune::vulkan {

/// A validated SPIR-V module and the reflection of its compute entry points.
///
/// Construction checks that the code is SPIR-V, validates it with SPIRV-Tools under the Vulkan
/// rules matching the module's SPIR-V version (1.0 to 1.6, i.e. Vulkan 1.0 to 1.3) and reflects
/// every GLCompute entry point, so a module that exists is fit to hand to a driver. Every failure
/// throws SpirvError with a message naming the file (or display name). Modules stored with the
/// opposite byte order are accepted and converted to host order. Immutable after construction,
/// so it can be shared between threads.
class SpirvModule {
  public:
    /// Reads, validates and reflects the .spv file at `path`.
    static SpirvModule load(const std::filesystem::path& path);

    /// Validates and reflects in-memory code; `display_name` stands for the file in messages.
    static SpirvModule from_words(std::vector<std::uint32_t> words, std::string display_name);

    /// The file path or display name the module was created with.
    const std::string& display_name() const noexcept { return display_name_; }

    /// The code, in host byte order.
    std::span<const std::uint32_t> words() const noexcept { return words_; }

    /// FNV-1a 64 of the code's bytes (little-endian words): stable across runs, platforms and
    /// the file's byte order, and changed by any edit of the code.
    std::uint64_t content_hash() const noexcept { return content_hash_; }

    /// content_hash() as 16 lower-case hex digits.
    std::string content_hash_hex() const;

    /// The GLCompute entry points, in declaration order.
    const std::vector<ComputeEntryPoint>& entry_points() const noexcept { return entry_points_; }

    /// The compute entry point called `name`. Throws SpirvError naming the module and listing
    /// the available compute entry points when there is none (also when `name` is an entry
    /// point of another stage).
    const ComputeEntryPoint& entry_point(std::string_view name) const;

  private:
    SpirvModule(std::vector<std::uint32_t> words, std::string display_name);

    std::string display_name_;
    std::vector<std::uint32_t> words_;
    std::uint64_t content_hash_ = 0;
    std::vector<ComputeEntryPoint> entry_points_;
    /// Entry points of other stages, kept to explain why they are refused.
    struct OtherStageEntryPoint {
        std::string name;
        std::string stage;
    };
    std::vector<OtherStageEntryPoint> other_stage_entry_points_;
};

}  // namespace spvtune::vulkan
