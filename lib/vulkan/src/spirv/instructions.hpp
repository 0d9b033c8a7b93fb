#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

// Facts read straight from a module's declarations (everything before the first function).
// Specialization constants and workgroup sizes are flat tables of ids and literals, so reading
// the words directly is simpler and more exact than SPIRV-Cross, whose C API cannot return
// 64-bit integer constants.
namespace spvtune::vulkan::detail {

struct EntryPointDeclaration {
    std::uint32_t execution_model = 0;
    std::uint32_t function_id = 0;
    std::string name;
    /// OpExecutionMode LocalSize x y z (literals).
    std::optional<std::array<std::uint32_t, 3>> local_size;
    /// OpExecutionModeId LocalSizeId x y z (constant ids).
    std::optional<std::array<std::uint32_t, 3>> local_size_ids;
};

struct ScalarTypeDeclaration {
    std::uint32_t opcode = 0;  ///< OpTypeBool, OpTypeInt or OpTypeFloat
    std::uint32_t width = 0;   ///< bits; 0 for bool
    bool is_signed = false;
};

struct ConstantDeclaration {
    std::uint32_t opcode = 0;
    std::uint32_t type_id = 0;
    /// Literal words (OpConstant, OpSpecConstant) or constituent ids (the composites).
    std::vector<std::uint32_t> operands;
};

struct ModuleDeclarations {
    std::vector<EntryPointDeclaration> entry_points;
    /// Id -> every OpName it has, in module order: glslang names a specialization constant
    /// again after each `const uint alias = K;` that aliases it.
    std::unordered_map<std::uint32_t, std::vector<std::string>> names;
    /// Result id -> SpecId.
    std::unordered_map<std::uint32_t, std::uint32_t> spec_ids;
    /// The constant decorated BuiltIn WorkgroupSize, if any.
    std::optional<std::uint32_t> workgroup_size_id;
    std::unordered_map<std::uint32_t, ScalarTypeDeclaration> scalar_types;
    std::unordered_map<std::uint32_t, ConstantDeclaration> constants;
};

/// Reads the declarations of a host-order module whose header has been checked. Throws
/// SpirvError naming `display_name` if an instruction runs past the end of the code.
ModuleDeclarations read_declarations(std::span<const std::uint32_t> words,
                                     const std::string& display_name);

}  // namespace spvtune::vulkan::detail
