#include <algorithm>

#include <spvtune/problem/resolve.hpp>

#include "value_conversion.hpp"

namespace spvtune::problem {
namespace {

Scope key_scope(const ProblemKey& key) {
    Scope scope;
    for (const auto& [name, value] : key.entries()) {
        std::visit([&](const auto& v) { scope.set(name, Value(v)); }, value);
    }
    return scope;
}

/// "/buffers/x/count: 'n / d': column 5: division by zero".
std::string failure(const std::string& pointer, const ExpressionError& error) {
    return pointer + ": '" + error.expression() + "': " + error.what();
}

/// The key parameters `expression` uses, as `n=1000,m=3`.
std::string key_values_used(const Problem& problem, const ProblemKey& key,
                            const Expression& expression) {
    std::string text;
    for (const std::string& name : expression.variables()) {
        if (problem.find_parameter(name) == nullptr) {
            continue;
        }
        if (const KeyValue* value = key.find(name)) {
            text += (text.empty() ? "" : ",") + name + "=" + to_string(*value);
        }
    }
    return text;
}

bool matches(ParameterType type, const KeyValue& value) {
    switch (type) {
        case ParameterType::integer:
            return std::holds_alternative<std::int64_t>(value);
        case ParameterType::floating:
            return std::holds_alternative<double>(value);
        case ParameterType::string:
            return std::holds_alternative<std::string>(value);
    }
    return false;
}

}  // namespace

tune::Status check_key(const Problem& problem, const ProblemKey& key) {
    for (const Parameter& parameter : problem.parameters) {
        const KeyValue* value = key.find(parameter.name);
        if (value == nullptr) {
            return tune::fail("key " + to_string(key) + " lacks parameter '" + parameter.name +
                              "'");
        }
        if (!matches(parameter.type, *value)) {
            return tune::fail("key " + to_string(key) + ": parameter '" + parameter.name +
                              "' must be " + std::string(to_string(parameter.type)));
        }
    }
    for (const auto& [name, value] : key.entries()) {
        if (problem.find_parameter(name) == nullptr) {
            return tune::fail("key " + to_string(key) + ": unknown parameter '" + name + "'");
        }
    }
    return tune::ok();
}

tune::Result<std::vector<ResolvedBuffer>> resolve_buffers(const Problem& problem,
                                                          const ProblemKey& key) {
    if (auto valid = check_key(problem, key); !valid) {
        return tune::fail(std::move(valid).error());
    }
    const Scope scope = key_scope(key);
    std::vector<ResolvedBuffer> buffers;
    for (const BufferSpec& spec : problem.buffers) {
        const std::string pointer = spec.pointer + "/count";
        std::int64_t count = 0;
        try {
            count = as_int(spec.count.evaluate(scope), spec.count.text());
        } catch (const ExpressionError& error) {
            return tune::fail(failure(pointer, error));
        }
        if (count <= 0) {
            return tune::fail(pointer + ": buffer '" + spec.name + "' would have " +
                              std::to_string(count) + " elements for " + to_string(key) +
                              "; expected a count > 0");
        }
        const auto size = static_cast<std::uint64_t>(vulkan::element_size(spec.type));
        const auto elements = static_cast<std::uint64_t>(count);
        if (elements > UINT64_MAX / size) {
            return tune::fail(pointer + ": buffer '" + spec.name + "' of " + std::to_string(count) +
                              " elements overflows 64-bit byte sizes");
        }
        buffers.push_back({spec.name, spec.type, elements, elements * size, spec.init, spec.role});
    }
    return buffers;
}

tune::Result<ResolvedCandidate> resolve_candidate(const Problem& problem, const ProblemKey& key,
                                                  std::size_t index,
                                                  std::span<const ResolvedBuffer> buffers) {
    const Candidate& candidate = problem.candidates.at(index);
    const CandidateFamily& family = problem.families.at(candidate.family);
    const Scope keys = key_scope(key);
    Scope scope(&keys);
    for (const auto& [name, value] : candidate.point) {
        scope.set(name, Value(value));
    }
    ResolvedCandidate resolved;
    resolved.name = candidate.name;
    resolved.candidate = index;
    resolved.module = family.module;
    resolved.entry = family.entry;
    const std::string* at = nullptr;  // the pointer of the expression being evaluated
    try {
        for (const Constraint& constraint : family.constraints) {
            if (!constraint.uses_key) {
                continue;
            }
            const Expression& condition = constraint.condition.expression;
            at = &constraint.condition.pointer;
            if (!as_bool(condition.evaluate(scope), condition.text())) {
                return tune::fail("constraint '" + condition.text() + "' is false for " +
                                  key_values_used(problem, key, condition));
            }
        }
        resolved.required_capabilities = family.required_capabilities;
        at = &family.priority.pointer;
        resolved.priority =
            as_int(family.priority.expression.evaluate(scope), family.priority.expression.text());
        if (resolved.priority < 0) {
            return tune::fail("priority is " + std::to_string(resolved.priority) +
                              " for this key: never run");
        }
        for (const SpecializationEntry& entry : family.specialization) {
            at = &entry.value.pointer;
            resolved.specializations.push_back(
                {entry.id,
                 detail::to_specialization(entry.value.expression.evaluate(scope), entry.declared,
                                           entry.value.expression.text())});
        }
        for (std::size_t i = 0; i < 3; ++i) {
            const LocatedExpression& count = family.workgroups[i];
            at = &count.pointer;
            resolved.workgroup_counts[i] =
                as_uint32(count.expression.evaluate(scope), count.expression.text());
            if (resolved.workgroup_counts[i] == 0) {
                return tune::fail(count.pointer + ": workgroup count " + "xyz"[i] +
                                  " is 0 for this key; expected at least 1");
            }
        }
        resolved.push_constants.resize(family.push_constant_size);
        for (const PushConstant& constant : family.push_constants) {
            at = &constant.value.pointer;
            detail::write_push_constant(resolved.push_constants, constant.offset, constant.type,
                                        constant.value.expression.evaluate(scope),
                                        constant.value.expression.text());
        }
    } catch (const ExpressionError& error) {
        return tune::fail(failure(*at, error));
    }
    const vulkan::ComputeEntryPoint& entry = family.entry_point();
    for (std::size_t i = 0; i < 3; ++i) {
        const vulkan::WorkgroupDimension& dimension = entry.workgroup_size[i];
        resolved.workgroup_size[i] = dimension.size;
        if (!dimension.spec_id) {
            continue;
        }
        for (const vulkan::Specialization& given : resolved.specializations) {
            if (given.id == *dimension.spec_id) {
                // Reflection gives workgroup-size constants as 32-bit integers.
                std::visit(
                    [&](auto v) { resolved.workgroup_size[i] = static_cast<std::uint32_t>(v); },
                    given.value);
            }
        }
    }
    for (const Binding& binding : family.bindings) {
        const auto reflected = std::find_if(
            entry.bindings.begin(), entry.bindings.end(), [&](const vulkan::DescriptorBinding& b) {
                return b.set == binding.set && b.binding == binding.binding;
            });
        const ResolvedBuffer& buffer = buffers[binding.buffer];
        if (reflected != entry.bindings.end() && buffer.bytes < reflected->block_size) {
            return tune::fail(binding.pointer + ": buffer '" + buffer.name + "' is " +
                              std::to_string(buffer.bytes) + " bytes for this key; the block of " +
                              "binding " + std::to_string(binding.set) + "." +
                              std::to_string(binding.binding) + " needs at least " +
                              std::to_string(reflected->block_size));
        }
        resolved.bindings.push_back({binding.set, binding.binding, binding.buffer,
                                     reflected != entry.bindings.end()
                                         ? reflected->type
                                         : vulkan::DescriptorType::storage_buffer});
    }
    return resolved;
}

}  // namespace spvtune::problem
