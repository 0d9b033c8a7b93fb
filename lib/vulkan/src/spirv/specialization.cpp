#include "specialization.hpp"

#include <algorithm>
#include <bit>
#include <iterator>
#include <map>

#include <spirv_cross/spirv.h>

#include <spvtune/vulkan/error.hpp>

#include "spec_computation.hpp"

namespace spvtune::vulkan::detail {
namespace {

std::string describe_spec_id(std::uint32_t spec_id, const std::string& name) {
    std::string text = "specialization constant " + std::to_string(spec_id);
    if (!name.empty()) {
        text += " ('" + name + "')";
    }
    return text;
}

SpecializationValue default_value(const ModuleDeclarations& declarations,
                                  const ConstantDeclaration& constant, const std::string& what,
                                  const std::string& display_name) {
    if (constant.opcode == SpvOpSpecConstantTrue) {
        return true;
    }
    if (constant.opcode == SpvOpSpecConstantFalse) {
        return false;
    }
    const auto type = declarations.scalar_types.find(constant.type_id);
    if (constant.opcode != SpvOpSpecConstant || type == declarations.scalar_types.end()) {
        throw SpirvError(what + " in '" + display_name +
                         "' is not a scalar OpSpecConstant; expected a bool, integer or float");
    }
    const ScalarTypeDeclaration& scalar = type->second;
    const bool known_width =
        scalar.width == 8 || scalar.width == 16 || scalar.width == 32 || scalar.width == 64;
    const bool is_float = scalar.opcode == SpvOpTypeFloat;
    const std::size_t literal_words = scalar.width == 64 ? 2 : 1;
    if (!known_width || (is_float && scalar.width == 8) ||
        constant.operands.size() < literal_words) {
        throw SpirvError(what + " in '" + display_name + "' has a " + std::to_string(scalar.width) +
                         "-bit " + (is_float ? "float" : "integer") +
                         " type; spvtune supports bool, 8-, 16-, 32- and 64-bit integers and 16-, "
                         "32- and 64-bit floats");
    }
    const std::uint32_t low = constant.operands[0];
    // Literals narrower than a word sit in its low-order bits.
    if (scalar.width == 8) {
        const auto byte = static_cast<std::uint8_t>(low & 0xffU);
        return scalar.is_signed ? SpecializationValue(std::bit_cast<std::int8_t>(byte))
                                : SpecializationValue(byte);
    }
    if (scalar.width == 16) {
        const auto half = static_cast<std::uint16_t>(low & 0xffffU);
        if (is_float) {
            return Float16{half};
        }
        return scalar.is_signed ? SpecializationValue(std::bit_cast<std::int16_t>(half))
                                : SpecializationValue(half);
    }
    if (scalar.width == 32) {
        if (is_float) {
            return std::bit_cast<float>(low);
        }
        if (scalar.is_signed) {
            return std::bit_cast<std::int32_t>(low);
        }
        return low;
    }
    // Literals wider than a word store their low-order word first.
    const std::uint64_t bits = (std::uint64_t{constant.operands[1]} << 32) | low;
    if (scalar.opcode == SpvOpTypeFloat) {
        return std::bit_cast<double>(bits);
    }
    if (scalar.is_signed) {
        return std::bit_cast<std::int64_t>(bits);
    }
    return bits;
}

/// The non-empty debug names of `id`, first given first.
std::vector<std::string> find_names(const ModuleDeclarations& declarations, std::uint32_t id) {
    std::vector<std::string> found;
    const auto names = declarations.names.find(id);
    if (names != declarations.names.end()) {
        std::copy_if(names->second.begin(), names->second.end(), std::back_inserter(found),
                     [](const std::string& name) { return !name.empty(); });
    }
    return found;
}

/// Adds `names` not yet known to `constant` (its name first, then its aliases).
void add_names(SpecializationConstant& constant, const std::vector<std::string>& names) {
    for (const std::string& name : names) {
        if (constant.name.empty()) {
            constant.name = name;
        } else if (name != constant.name &&
                   std::find(constant.aliases.begin(), constant.aliases.end(), name) ==
                       constant.aliases.end()) {
            constant.aliases.push_back(name);
        }
    }
}

WorkgroupDimension dimension_from_constant(const ModuleDeclarations& declarations,
                                           std::uint32_t constant_id, const std::string& what,
                                           const std::string& display_name) {
    const auto constant = declarations.constants.find(constant_id);
    if (constant != declarations.constants.end() && !constant->second.operands.empty()) {
        const ConstantDeclaration& declaration = constant->second;
        if (declaration.opcode == SpvOpConstant) {
            return {declaration.operands[0], std::nullopt, std::nullopt};
        }
        const auto spec_id = declarations.spec_ids.find(constant_id);
        if (declaration.opcode == SpvOpSpecConstant && spec_id != declarations.spec_ids.end()) {
            return {declaration.operands[0], spec_id->second, std::nullopt};
        }
        if (declaration.opcode == SpvOpSpecConstantOp) {
            // A size such as `TILE * 2`: kept as a computation, evaluated once the values are
            // known; its default is the value with every constant at its default.
            SpecConstantComputation computed =
                build_computation(declarations, constant_id, what, display_name);
            const std::uint64_t size = evaluate(computed, {}, what + " in '" + display_name + "'");
            return {static_cast<std::uint32_t>(size), std::nullopt, std::move(computed)};
        }
    }
    throw SpirvError(what + " in '" + display_name +
                     "' is neither a literal, a specialization constant with a SpecId, nor "
                     "computed from them with OpSpecConstantOp");
}

}  // namespace

std::vector<SpecializationConstant> reflect_specialization_constants(
    const ModuleDeclarations& declarations, const std::string& display_name) {
    // Visit ids in order so that which duplicate supplies the default and name is deterministic.
    const std::map<std::uint32_t, std::uint32_t> spec_ids(declarations.spec_ids.begin(),
                                                          declarations.spec_ids.end());
    std::map<std::uint32_t, SpecializationConstant> by_spec_id;
    for (const auto& [id, spec_id] : spec_ids) {
        const auto constant = declarations.constants.find(id);
        if (constant == declarations.constants.end()) {
            continue;  // SpecId on something else: the validator reports that, not reflection
        }
        const std::vector<std::string> names = find_names(declarations, id);
        const std::string what = describe_spec_id(spec_id, names.empty() ? "" : names.front());
        SpecializationConstant reflected{
            spec_id, default_value(declarations, constant->second, what, display_name), {}, {}};
        add_names(reflected, names);
        // Several ids may share a SpecId (glslang emits one for LocalSizeId and one for the
        // WorkgroupSize built-in); they are one constant to Vulkan, so they must agree on type.
        const auto [existing, inserted] = by_spec_id.emplace(spec_id, reflected);
        if (inserted) {
            continue;
        }
        if (existing->second.default_value.index() != reflected.default_value.index()) {
            throw SpirvError(what + " in '" + display_name + "' is declared as both " +
                             std::string(type_name(existing->second.default_value)) + " and " +
                             std::string(type_name(reflected.default_value)));
        }
        add_names(existing->second, names);
    }
    std::vector<SpecializationConstant> constants;
    constants.reserve(by_spec_id.size());
    for (auto& [spec_id, constant] : by_spec_id) {
        constants.push_back(std::move(constant));
    }
    return constants;
}

std::array<WorkgroupDimension, 3> reflect_workgroup_size(const ModuleDeclarations& declarations,
                                                         const EntryPointDeclaration& entry,
                                                         const std::string& display_name) {
    static constexpr std::array<char, 3> axes{'x', 'y', 'z'};
    const std::string owner = "entry point '" + entry.name + "'";
    std::array<WorkgroupDimension, 3> size;

    std::optional<std::array<std::uint32_t, 3>> constant_ids = entry.local_size_ids;
    if (declarations.workgroup_size_id) {
        const auto composite = declarations.constants.find(*declarations.workgroup_size_id);
        if (composite == declarations.constants.end() || composite->second.operands.size() != 3) {
            throw SpirvError("the WorkgroupSize built-in in '" + display_name +
                             "' is not a constant with three components");
        }
        const auto& parts = composite->second.operands;
        constant_ids = std::array<std::uint32_t, 3>{parts[0], parts[1], parts[2]};
    }
    if (constant_ids) {
        for (std::size_t axis = 0; axis < 3; ++axis) {
            size[axis] = dimension_from_constant(
                declarations, (*constant_ids)[axis],
                std::string("workgroup size ") + axes[axis] + " of " + owner, display_name);
        }
        return size;
    }
    if (entry.local_size) {
        for (std::size_t axis = 0; axis < 3; ++axis) {
            size[axis].size = (*entry.local_size)[axis];
        }
        return size;
    }
    throw SpirvError(owner + " in '" + display_name +
                     "' declares no workgroup size (expected a LocalSize or LocalSizeId "
                     "execution mode or the WorkgroupSize built-in)");
}

}  // namespace spvtune::vulkan::detail
