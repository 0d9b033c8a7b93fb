#include "instructions.hpp"

#include <spirv_cross/spirv.h>

#include <spvtune/vulkan/error.hpp>

#include "binary.hpp"

namespace spvtune::vulkan::detail {
namespace {

// A SPIR-V literal string: UTF-8, NUL-terminated, packed four bytes per word, low byte first.
// Returns the string and advances `index` past the words it occupies.
std::string read_string(std::span<const std::uint32_t> operands, std::size_t& index) {
    std::string text;
    while (index < operands.size()) {
        const std::uint32_t word = operands[index++];
        for (int shift = 0; shift < 32; shift += 8) {
            const auto byte = static_cast<char>((word >> shift) & 0xffU);
            if (byte == '\0') {
                return text;
            }
            text += byte;
        }
    }
    return text;
}

std::array<std::uint32_t, 3> three(std::span<const std::uint32_t> operands) {
    return {operands[0], operands[1], operands[2]};
}

class DeclarationReader {
  public:
    explicit DeclarationReader(ModuleDeclarations& out) : out_(out) {}

    void read(std::uint32_t opcode, std::span<const std::uint32_t> operands) {
        switch (opcode) {
            case SpvOpName:
                if (operands.size() >= 2) {
                    std::size_t index = 1;
                    out_.names[operands[0]].push_back(read_string(operands, index));
                }
                break;
            case SpvOpEntryPoint:
                read_entry_point(operands);
                break;
            case SpvOpExecutionMode:
            case SpvOpExecutionModeId:
                read_execution_mode(operands);
                break;
            case SpvOpDecorate:
                read_decoration(operands);
                break;
            case SpvOpTypeBool:
            case SpvOpTypeInt:
            case SpvOpTypeFloat:
                read_scalar_type(opcode, operands);
                break;
            case SpvOpConstantTrue:
            case SpvOpConstantFalse:
            case SpvOpConstant:
            case SpvOpConstantComposite:
            case SpvOpSpecConstantTrue:
            case SpvOpSpecConstantFalse:
            case SpvOpSpecConstant:
            case SpvOpSpecConstantComposite:
            case SpvOpSpecConstantOp:
                if (operands.size() >= 2) {
                    out_.constants[operands[1]] = {
                        opcode, operands[0], {operands.begin() + 2, operands.end()}};
                }
                break;
            default:
                break;
        }
    }

  private:
    void read_entry_point(std::span<const std::uint32_t> operands) {
        if (operands.size() < 3) {
            return;
        }
        EntryPointDeclaration entry;
        entry.execution_model = operands[0];
        entry.function_id = operands[1];
        std::size_t index = 2;
        entry.name = read_string(operands, index);
        out_.entry_points.push_back(std::move(entry));
    }

    void read_execution_mode(std::span<const std::uint32_t> operands) {
        if (operands.size() < 5) {
            return;
        }
        for (auto& entry : out_.entry_points) {
            if (entry.function_id != operands[0]) {
                continue;
            }
            if (operands[1] == SpvExecutionModeLocalSize) {
                entry.local_size = three(operands.subspan(2));
            } else if (operands[1] == SpvExecutionModeLocalSizeId) {
                entry.local_size_ids = three(operands.subspan(2));
            }
        }
    }

    void read_decoration(std::span<const std::uint32_t> operands) {
        if (operands.size() < 3) {
            return;
        }
        if (operands[1] == SpvDecorationSpecId) {
            out_.spec_ids[operands[0]] = operands[2];
        } else if (operands[1] == SpvDecorationBuiltIn && operands[2] == SpvBuiltInWorkgroupSize) {
            out_.workgroup_size_id = operands[0];
        }
    }

    void read_scalar_type(std::uint32_t opcode, std::span<const std::uint32_t> operands) {
        if (operands.empty()) {
            return;
        }
        ScalarTypeDeclaration type{opcode, 0, false};
        if (opcode != SpvOpTypeBool && operands.size() >= 2) {
            type.width = operands[1];
            type.is_signed = opcode == SpvOpTypeFloat || (operands.size() >= 3 && operands[2] != 0);
        }
        out_.scalar_types[operands[0]] = type;
    }

    ModuleDeclarations& out_;
};

}  // namespace

ModuleDeclarations read_declarations(std::span<const std::uint32_t> words,
                                     const std::string& display_name) {
    ModuleDeclarations declarations;
    DeclarationReader reader(declarations);
    std::size_t position = spirv_header_words;
    while (position < words.size()) {
        const std::uint32_t word_count = words[position] >> 16;
        const std::uint32_t opcode = words[position] & 0xffffU;
        if (word_count == 0 || word_count > words.size() - position) {
            throw SpirvError("'" + display_name + "' is malformed: the instruction at word " +
                             std::to_string(position) + " runs past the end of the module");
        }
        if (opcode == SpvOpFunction) {
            break;  // declarations all precede the first function
        }
        reader.read(opcode, words.subspan(position + 1, word_count - 1));
        position += word_count;
    }
    return declarations;
}

}  // namespace spvtune::vulkan::detail
