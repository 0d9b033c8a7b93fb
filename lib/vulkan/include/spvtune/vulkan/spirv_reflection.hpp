#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <vulkan/vulkan.h>

namespace spvtune::vulkan {

/// The kind of resource a descriptor binding expects, as Vulkan names them.
enum class DescriptorType {
    sampler,
    combined_image_sampler,
    sampled_image,
    storage_image,
    uniform_texel_buffer,
    storage_texel_buffer,
    uniform_buffer,
    storage_buffer,
    acceleration_structure,
};

/// Readable name of a descriptor type ("storage buffer"), for messages.
std::string_view to_string(DescriptorType type) noexcept;

/// The VkDescriptorType to put in a descriptor set layout for this binding.
VkDescriptorType to_vk(DescriptorType type) noexcept;

/// What the shader may do with a buffer or image, from its NonWritable / NonReadable decorations.
enum class Access { read_write, read_only, write_only };

/// One descriptor binding that a compute entry point statically uses.
struct DescriptorBinding {
    std::uint32_t set = 0;
    std::uint32_t binding = 0;
    DescriptorType type = DescriptorType::storage_buffer;
    /// Number of descriptors in the binding (1 unless the shader declares an array); 0 means a
    /// runtime-sized array (descriptor indexing).
    std::uint32_t count = 1;
    Access access = Access::read_write;
    /// The variable's debug name, or its block type's name, or empty when the module has none.
    std::string name;
    /// Buffers: size in bytes of the block without its trailing runtime array; 0 for images.
    std::uint64_t block_size = 0;
    /// Buffers ending in a runtime array: bytes per array element (ArrayStride); 0 otherwise.
    /// A buffer holding n elements needs block_size + n * runtime_array_stride bytes.
    std::uint64_t runtime_array_stride = 0;
    /// Storage buffers: the module takes the length of its runtime array (OpArrayLength, GLSL's
    /// `.length()`), so the bytes bound decide what the shader computes. True as well for every
    /// storage buffer of a module that takes a length through a pointer reflection cannot trace
    /// back to its variable (a function parameter, OpSelect, a buffer reference). The whole
    /// module counts, not only the entry point's call graph: a needless true only keeps a range
    /// exact.
    bool uses_array_length = false;
};

/// A member of the push-constant block.
struct PushConstantMember {
    std::string name;  ///< debug name, or empty when the module has none
    std::uint32_t offset = 0;
    std::uint32_t size = 0;
};

/// The push-constant block an entry point uses; `size` is 0 when it has none.
struct PushConstantBlock {
    /// Bytes from offset 0 to the end of the last member: the range a pipeline layout declares.
    std::uint32_t size = 0;
    std::vector<PushConstantMember> members;
};

/// A 16-bit float specialization value, as the IEEE half-precision bits Vulkan is given.
struct Float16 {
    std::uint16_t bits = 0;
    friend bool operator==(const Float16&, const Float16&) = default;
};

/// A specialization constant's value; the alternative held is the constant's declared type.
/// Booleans are passed to Vulkan as a 4-byte VkBool32, every other type at its own width (8-
/// and 16-bit types need the device's shaderInt8 / shaderInt16 / shaderFloat16).
using SpecializationValue =
    std::variant<bool, std::int32_t, std::uint32_t, float, std::int64_t, std::uint64_t, double,
                 std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, Float16>;

/// Name of the type a value holds: "bool", "int32", "uint32", "float32", "int64", "uint64",
/// "float64", "int8", "uint8", "int16", "uint16" or "float16".
std::string_view type_name(const SpecializationValue& value) noexcept;

/// A specialization constant (a SpecId) declared in the module.
struct SpecializationConstant {
    std::uint32_t id = 0;  ///< the SpecId (`constant_id` / `local_size_x_id` in GLSL)
    SpecializationValue default_value;
    std::string name;  ///< debug name, or empty when the module has none
    /// Further debug names of the same constant: glslang names it again after every
    /// `const uint alias = K;`, so a user may know it by any of them.
    std::vector<std::string> aliases;
};

/// An integer the module computes from specialization constants with OpSpecConstantOp (a
/// workgroup size such as `TILE * 2`): a tree of nodes, each operand an earlier node, the root
/// last. Evaluated after specialization by specialized_workgroup_size().
struct SpecConstantComputation {
    enum class Kind { literal, spec_constant, operation };
    struct Node {
        Kind kind = Kind::literal;
        /// literal: the value; spec_constant: its default. Integer bits (bools are 0 or 1).
        std::uint64_t value = 0;
        std::uint32_t spec_id = 0;  ///< spec_constant only
        std::uint32_t opcode = 0;   ///< operation only: the SPIR-V opcode (SpvOpIMul, ...)
        std::uint32_t width = 32;   ///< bits of the result type (1 for bool)
        bool is_signed = false;
        std::vector<std::size_t> operands;  ///< indices of earlier nodes
    };
    std::vector<Node> nodes;
};

/// One dimension of the workgroup size: a literal, a specialization constant's value, or a
/// value computed from specialization constants.
struct WorkgroupDimension {
    /// The literal size, or the size with every specialization constant at its default.
    std::uint32_t size = 1;
    /// The SpecId the size comes from (`local_size_x_id`); empty for a literal or computed size.
    std::optional<std::uint32_t> spec_id;
    /// How the size is computed (OpSpecConstantOp); empty unless it is.
    std::optional<SpecConstantComputation> computed;
};

/// Everything needed to build a compute pipeline for one entry point.
struct ComputeEntryPoint {
    std::string name;
    /// x, y, z.
    std::array<WorkgroupDimension, 3> workgroup_size;
    /// Bindings the entry point statically uses, ordered by (set, binding).
    std::vector<DescriptorBinding> bindings;
    PushConstantBlock push_constants;
    /// Every SpecId declared in the module, ordered by id. SPIR-V does not tie specialization
    /// constants to entry points, so this is module-wide; Vulkan ignores ids a pipeline's entry
    /// point does not use.
    std::vector<SpecializationConstant> specialization_constants;
};

}  // namespace spvtune::vulkan
