#include "spec_computation.hpp"

#include <array>
#include <bit>
#include <type_traits>
#include <utility>
#include <vector>

#include <spirv_cross/spirv.h>

#include <spvtune/vulkan/error.hpp>

namespace spvtune::vulkan::detail {
namespace {

using Node = SpecConstantComputation::Node;
using Kind = SpecConstantComputation::Kind;

struct OperationName {
    std::uint32_t opcode;
    const char* name;
    std::size_t operands;
};

// The operations a workgroup size computation can need: integer arithmetic, bit operations,
// width conversions, comparisons and selection.
constexpr std::array<OperationName, 33> supported{{
    {SpvOpIAdd, "IAdd", 2},
    {SpvOpISub, "ISub", 2},
    {SpvOpIMul, "IMul", 2},
    {SpvOpUDiv, "UDiv", 2},
    {SpvOpSDiv, "SDiv", 2},
    {SpvOpUMod, "UMod", 2},
    {SpvOpSRem, "SRem", 2},
    {SpvOpSMod, "SMod", 2},
    {SpvOpShiftLeftLogical, "ShiftLeftLogical", 2},
    {SpvOpShiftRightLogical, "ShiftRightLogical", 2},
    {SpvOpShiftRightArithmetic, "ShiftRightArithmetic", 2},
    {SpvOpBitwiseOr, "BitwiseOr", 2},
    {SpvOpBitwiseXor, "BitwiseXor", 2},
    {SpvOpBitwiseAnd, "BitwiseAnd", 2},
    {SpvOpNot, "Not", 1},
    {SpvOpSNegate, "SNegate", 1},
    {SpvOpUConvert, "UConvert", 1},
    {SpvOpSConvert, "SConvert", 1},
    {SpvOpIEqual, "IEqual", 2},
    {SpvOpINotEqual, "INotEqual", 2},
    {SpvOpULessThan, "ULessThan", 2},
    {SpvOpSLessThan, "SLessThan", 2},
    {SpvOpUGreaterThan, "UGreaterThan", 2},
    {SpvOpSGreaterThan, "SGreaterThan", 2},
    {SpvOpULessThanEqual, "ULessThanEqual", 2},
    {SpvOpSLessThanEqual, "SLessThanEqual", 2},
    {SpvOpUGreaterThanEqual, "UGreaterThanEqual", 2},
    {SpvOpSGreaterThanEqual, "SGreaterThanEqual", 2},
    {SpvOpLogicalAnd, "LogicalAnd", 2},
    {SpvOpLogicalOr, "LogicalOr", 2},
    {SpvOpLogicalNot, "LogicalNot", 1},
    {SpvOpLogicalEqual, "LogicalEqual", 2},
    {SpvOpSelect, "Select", 3},
}};

const OperationName* find_operation(std::uint32_t opcode) {
    for (const OperationName& operation : supported) {
        if (operation.opcode == opcode) {
            return &operation;
        }
    }
    return nullptr;
}

std::uint64_t truncate(std::uint64_t value, std::uint32_t width) {
    return width >= 64 ? value : value & ((std::uint64_t{1} << width) - 1);
}

/// `value` of `width` bits read as two's complement.
std::int64_t as_signed(std::uint64_t value, std::uint32_t width) {
    if (width >= 64) {
        return std::bit_cast<std::int64_t>(value);
    }
    const std::uint64_t sign = std::uint64_t{1} << (width - 1);
    return std::bit_cast<std::int64_t>((value ^ sign) - sign);
}

// Deep enough for any real size expression; a deeper chain is a malformed or hostile module.
constexpr int max_depth = 64;

class Builder {
  public:
    Builder(const ModuleDeclarations& declarations, const std::string& what,
            const std::string& display_name)
        : declarations_(declarations), what_(what), display_name_(display_name) {}

    std::size_t add(std::uint32_t id, int depth) {
        if (depth > max_depth) {
            fail("nests OpSpecConstantOp deeper than " + std::to_string(max_depth));
        }
        const auto constant = declarations_.constants.find(id);
        if (constant == declarations_.constants.end()) {
            fail("uses %" + std::to_string(id) + ", which is not a constant");
        }
        const ConstantDeclaration& declaration = constant->second;
        Node node;
        std::tie(node.width, node.is_signed) = type_of(declaration.type_id, id);
        const auto spec_id = declarations_.spec_ids.find(id);
        switch (declaration.opcode) {
            case SpvOpConstantTrue:
            case SpvOpConstantFalse:
            case SpvOpSpecConstantTrue:
            case SpvOpSpecConstantFalse:
                node.value = declaration.opcode == SpvOpConstantTrue ||
                                     declaration.opcode == SpvOpSpecConstantTrue
                                 ? 1
                                 : 0;
                break;
            case SpvOpConstant:
            case SpvOpSpecConstant:
                node.value = literal(declaration, node.width, id);
                break;
            case SpvOpSpecConstantOp:
                return add_operation(declaration, std::move(node), depth);
            default:
                fail("uses %" + std::to_string(id) + ", which is not a scalar integer constant");
        }
        const bool specialized = declaration.opcode == SpvOpSpecConstant ||
                                 declaration.opcode == SpvOpSpecConstantTrue ||
                                 declaration.opcode == SpvOpSpecConstantFalse;
        if (specialized && spec_id != declarations_.spec_ids.end()) {
            node.kind = Kind::spec_constant;
            node.spec_id = spec_id->second;
        }
        computation_.nodes.push_back(std::move(node));
        return computation_.nodes.size() - 1;
    }

    SpecConstantComputation take() { return std::move(computation_); }

  private:
    std::size_t add_operation(const ConstantDeclaration& declaration, Node node, int depth) {
        if (declaration.operands.empty()) {
            fail("has an OpSpecConstantOp without an operation");
        }
        const OperationName* operation = find_operation(declaration.operands[0]);
        if (operation == nullptr) {
            fail("is computed with an OpSpecConstantOp of opcode " +
                 std::to_string(declaration.operands[0]) +
                 ", which spvtune does not evaluate (it evaluates integer arithmetic, bit "
                 "operations, conversions, comparisons and Select)");
        }
        if (declaration.operands.size() != operation->operands + 1) {
            fail(std::string("has an OpSpecConstantOp ") + operation->name + " with " +
                 std::to_string(declaration.operands.size() - 1) + " operands");
        }
        node.kind = Kind::operation;
        node.opcode = operation->opcode;
        for (std::size_t i = 1; i < declaration.operands.size(); ++i) {
            node.operands.push_back(add(declaration.operands[i], depth + 1));
        }
        computation_.nodes.push_back(std::move(node));
        return computation_.nodes.size() - 1;
    }

    std::pair<std::uint32_t, bool> type_of(std::uint32_t type_id, std::uint32_t id) const {
        const auto type = declarations_.scalar_types.find(type_id);
        if (type == declarations_.scalar_types.end() || type->second.opcode == SpvOpTypeFloat) {
            fail("uses %" + std::to_string(id) + ", which is not an integer or boolean");
        }
        if (type->second.opcode == SpvOpTypeBool) {
            return {1, false};
        }
        if (type->second.width == 0 || type->second.width > 64) {
            fail("uses a " + std::to_string(type->second.width) + "-bit integer");
        }
        return {type->second.width, type->second.is_signed};
    }

    std::uint64_t literal(const ConstantDeclaration& declaration, std::uint32_t width,
                          std::uint32_t id) const {
        if (declaration.operands.empty() || (width > 32 && declaration.operands.size() < 2)) {
            fail("uses %" + std::to_string(id) + ", a constant without its value");
        }
        std::uint64_t bits = declaration.operands[0];
        if (width > 32) {
            bits |= std::uint64_t{declaration.operands[1]} << 32;
        }
        return truncate(bits, width);
    }

    [[noreturn]] void fail(const std::string& reason) const {
        throw SpirvError(what_ + " in '" + display_name_ + "' " + reason);
    }

    const ModuleDeclarations& declarations_;
    const std::string& what_;
    const std::string& display_name_;
    SpecConstantComputation computation_;
};

std::uint64_t specialized_bits(const SpecializationValue& value) {
    return std::visit(
        [](auto v) -> std::uint64_t {
            using T = decltype(v);
            if constexpr (std::is_same_v<T, bool>) {
                return v ? 1 : 0;
            } else if constexpr (std::is_integral_v<T>) {
                return static_cast<std::uint64_t>(v);  // sign-extended; truncated by the caller
            } else {
                return 0;  // floats are never operands: build_computation refuses them
            }
        },
        value);
}

class Evaluator {
  public:
    Evaluator(const SpecConstantComputation& computation, const std::string& what)
        : computation_(computation), what_(what) {}

    std::uint64_t operation(const Node& node, const std::vector<std::uint64_t>& done) const {
        const auto operand = [&](std::size_t i) { return done.at(node.operands.at(i)); };
        const auto width = [&](std::size_t i) {
            return computation_.nodes.at(node.operands.at(i)).width;
        };
        const auto signed_operand = [&](std::size_t i) { return as_signed(operand(i), width(i)); };
        const std::uint64_t a = operand(0);
        switch (node.opcode) {
            case SpvOpIAdd:
                return a + operand(1);
            case SpvOpISub:
                return a - operand(1);
            case SpvOpIMul:
                return a * operand(1);
            case SpvOpUDiv:
                return a / nonzero(operand(1), "UDiv");
            case SpvOpUMod:
                return a % nonzero(operand(1), "UMod");
            case SpvOpSDiv:
            case SpvOpSRem:
            case SpvOpSMod:
                return signed_division(node.opcode, signed_operand(0), signed_operand(1));
            case SpvOpShiftLeftLogical:
                return a << shift(operand(1), width(0));
            case SpvOpShiftRightLogical:
                return a >> shift(operand(1), width(0));
            case SpvOpShiftRightArithmetic:
                return std::bit_cast<std::uint64_t>(signed_operand(0) >>
                                                    shift(operand(1), width(0)));
            case SpvOpBitwiseOr:
                return a | operand(1);
            case SpvOpBitwiseXor:
                return a ^ operand(1);
            case SpvOpBitwiseAnd:
            case SpvOpLogicalAnd:
                return a & operand(1);
            case SpvOpLogicalOr:
                return a | operand(1);
            case SpvOpNot:
                return ~a;
            case SpvOpLogicalNot:
                return a == 0 ? 1 : 0;
            case SpvOpSNegate:
                return std::uint64_t{0} - a;
            case SpvOpUConvert:
                return a;
            case SpvOpSConvert:
                return std::bit_cast<std::uint64_t>(signed_operand(0));
            case SpvOpIEqual:
            case SpvOpLogicalEqual:
                return a == operand(1) ? 1 : 0;
            case SpvOpINotEqual:
                return a != operand(1) ? 1 : 0;
            case SpvOpULessThan:
                return a < operand(1) ? 1 : 0;
            case SpvOpUGreaterThan:
                return a > operand(1) ? 1 : 0;
            case SpvOpULessThanEqual:
                return a <= operand(1) ? 1 : 0;
            case SpvOpUGreaterThanEqual:
                return a >= operand(1) ? 1 : 0;
            case SpvOpSLessThan:
                return signed_operand(0) < signed_operand(1) ? 1 : 0;
            case SpvOpSGreaterThan:
                return signed_operand(0) > signed_operand(1) ? 1 : 0;
            case SpvOpSLessThanEqual:
                return signed_operand(0) <= signed_operand(1) ? 1 : 0;
            case SpvOpSGreaterThanEqual:
                return signed_operand(0) >= signed_operand(1) ? 1 : 0;
            case SpvOpSelect:
                return a != 0 ? operand(1) : operand(2);
            default:
                throw SpirvError(what_ + ": opcode " + std::to_string(node.opcode) +
                                 " cannot be evaluated");
        }
    }

  private:
    std::uint64_t nonzero(std::uint64_t divisor, const char* operation) const {
        if (divisor == 0) {
            throw SpirvError(what_ + ": " + operation + " divides by zero after specialization");
        }
        return divisor;
    }

    std::uint64_t shift(std::uint64_t amount, std::uint32_t width) const {
        if (amount >= width) {
            throw SpirvError(what_ + ": a shift by " + std::to_string(amount) + " of a " +
                             std::to_string(width) + "-bit value after specialization");
        }
        return amount;
    }

    std::uint64_t signed_division(std::uint32_t opcode, std::int64_t a, std::int64_t b) const {
        if (b == 0) {
            throw SpirvError(what_ + ": a signed division by zero after specialization");
        }
        if (b == -1) {  // INT64_MIN / -1 overflows in C++; in two's complement it is a negation
            return opcode == SpvOpSDiv ? std::uint64_t{0} - std::bit_cast<std::uint64_t>(a) : 0;
        }
        if (opcode == SpvOpSDiv) {
            return std::bit_cast<std::uint64_t>(a / b);
        }
        std::int64_t remainder = a % b;
        if (opcode == SpvOpSMod && remainder != 0 && (remainder < 0) != (b < 0)) {
            remainder += b;  // SMod takes the divisor's sign
        }
        return std::bit_cast<std::uint64_t>(remainder);
    }

    const SpecConstantComputation& computation_;
    const std::string& what_;
};

}  // namespace

SpecConstantComputation build_computation(const ModuleDeclarations& declarations, std::uint32_t id,
                                          const std::string& what,
                                          const std::string& display_name) {
    Builder builder(declarations, what, display_name);
    builder.add(id, 0);
    return builder.take();
}

std::uint64_t evaluate(const SpecConstantComputation& computation,
                       const std::map<std::uint32_t, SpecializationValue>& values,
                       const std::string& what) {
    const Evaluator evaluator(computation, what);
    std::vector<std::uint64_t> done;
    done.reserve(computation.nodes.size());
    for (const Node& node : computation.nodes) {
        std::uint64_t value = node.value;
        if (node.kind == Kind::spec_constant) {
            if (auto given = values.find(node.spec_id); given != values.end()) {
                value = specialized_bits(given->second);
            }
        } else if (node.kind == Kind::operation) {
            value = evaluator.operation(node, done);
        }
        done.push_back(truncate(value, node.width));
    }
    return done.empty() ? 0 : done.back();
}

}  // namespace spvtune::vulkan::detail
