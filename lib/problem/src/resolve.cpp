#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <optional>
#include <sstream>
#include <variant>

#include <spvtune/problem/resolve.hpp>
#include <spvtune/vulkan/error.hpp>

#include "binding_label.hpp"
#include "glsl/per_key_glsl.hpp"
#include "value_conversion.hpp"

namespace spvtune::problem {
namespace {

Scope key_scope(const ProblemKey& key) {
    Scope scope;
    for (const auto& entry : key.entries()) {
        // Not a structured binding: clang 14 cannot capture one in a lambda.
        std::visit([&](const auto& v) { scope.set(entry.first, Value(v)); }, entry.second);
    }
    return scope;
}

/// "/buffers/x/count: 'n / d': column 5: division by zero".
std::string failure(const std::string& pointer, const ExpressionError& error) {
    return pointer + ": '" + error.expression() + "': " + error.what();
}

/// The key parameters and device properties `expression` uses, as `n=1000,m=3` or
/// `device.subgroup_size=8`.
std::string key_values_used(const Problem& problem, const ProblemKey& key, const Scope& scope,
                            const Expression& expression) {
    std::string text;
    for (const std::string& name : expression.variables()) {
        if (problem.find_parameter(name) != nullptr) {
            if (const KeyValue* value = key.find(name)) {
                text += (text.empty() ? "" : ",") + name + "=" + to_string(*value);
            }
        } else if (is_device_variable(name)) {
            if (const Value* value = scope.find(name)) {
                text += (text.empty() ? "" : ",") + name + "=" + to_string(*value);
            }
        }
    }
    return text;
}

/// The first device property `family`'s per-key expressions use, if any.
std::optional<std::string> device_variable_used(const CandidateFamily& family) {
    std::vector<const LocatedExpression*> expressions{&family.priority};
    for (const Constraint& constraint : family.constraints) {
        expressions.push_back(&constraint.condition);
    }
    for (const DispatchStep& step : family.steps) {
        expressions.push_back(&step.repeat);
        for (const LocatedExpression& count : step.workgroups) {
            expressions.push_back(&count);
        }
        for (const SpecializationEntry& entry : step.specialization) {
            expressions.push_back(&entry.value);
        }
        for (const PushConstant& constant : step.push_constants) {
            expressions.push_back(&constant.value);
        }
    }
    for (const LocatedExpression* located : expressions) {
        for (const std::string& name : located->expression.variables()) {
            if (is_device_variable(name)) {
                return located->pointer + ": '" + located->expression.text() + "' uses " + name;
            }
        }
    }
    return std::nullopt;
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

/// Whether `buffer` fills the shader's view of it for this key: the fixed part of the block,
/// then whole array elements (a vec4[] view over f32 needs a multiple of 16 bytes).
tune::Status check_fit(const DispatchStep& step, const vulkan::DescriptorBinding& view,
                       const Binding& binding, const ResolvedBuffer& buffer) {
    const std::string size = "buffer '" + buffer.name + "' is " + std::to_string(buffer.bytes) +
                             " bytes (" + std::to_string(buffer.count) + " " +
                             std::string(vulkan::to_string(buffer.type)) + ") for this key";
    const std::string what = detail::binding_label(binding.set, binding.binding, view.name) +
                             " of " + step.spirv.filename().string() + ":" + step.entry;
    if (buffer.bytes < view.block_size) {
        return tune::fail(binding.pointer + ": " + size + "; the block of " + what +
                          " needs at least " + std::to_string(view.block_size) + " bytes");
    }
    const std::uint64_t stride = view.runtime_array_stride;
    if (stride == 0 || (buffer.bytes - view.block_size) % stride == 0) {
        return tune::ok();
    }
    // Loading the problem checked that the stride holds whole elements, so the fix is a count.
    const std::uint64_t per_stride = stride / vulkan::element_size(buffer.type);
    const std::string expected = view.block_size == 0
                                     ? "a multiple of " + std::to_string(stride) +
                                           " bytes (a count that is a multiple of " +
                                           std::to_string(per_stride) + ")"
                                     : std::to_string(view.block_size) +
                                           " bytes plus a multiple of " + std::to_string(stride);
    return tune::fail(binding.pointer + ": " + size + " but " + what +
                      " reads it as an array with a " + std::to_string(stride) +
                      "-byte stride; expected a size that is " + expected);
}

/// " (iteration i=2)" for a step that names its iteration variable, else nothing.
std::string iteration_note(const DispatchStep& step, std::int64_t i) {
    return step.iteration.empty() ? std::string()
                                  : " (iteration " + step.iteration + "=" + std::to_string(i) + ")";
}

/// Sets `dispatch`'s specializations from `step`'s values in `scope`; throws ExpressionError,
/// with `at` then the pointer of the value that failed.
void specialize(const DispatchStep& step, const Scope& scope, ResolvedDispatch& dispatch,
                const std::string*& at) {
    dispatch.specializations.clear();
    for (const SpecializationEntry& entry : step.specialization) {
        at = &entry.value.pointer;
        dispatch.specializations.push_back(
            {entry.id, detail::to_specialization(entry.value.expression.evaluate(scope),
                                                 entry.declared, entry.value.expression.text())});
    }
}

/// The workgroup size of `entry` under `dispatch`'s specializations.
tune::Status size_workgroup(const vulkan::ComputeEntryPoint& entry, ResolvedDispatch& dispatch) {
    try {
        dispatch.workgroup_size =
            vulkan::specialized_workgroup_size(entry, dispatch.specializations);
    } catch (const vulkan::SpirvError& error) {
        return tune::fail(error.what());
    }
    return tune::ok();
}

/// The most repetitions of one step: far beyond any log-depth pass count, and small enough that
/// a runaway expression is a clear skip rather than a command buffer that exhausts memory.
constexpr std::int64_t max_repeat = 4096;

/// The dispatches of `step` (number `index`) for the key and point in `scope`, appended to
/// `dispatches`: one per repetition, with the iteration variable set.
tune::Status resolve_step(const DispatchStep& step, std::size_t index, const Scope& scope,
                          std::span<const ResolvedBuffer> buffers,
                          std::vector<ResolvedDispatch>& dispatches) {
    // A specialization of the iteration variable gives each repetition its own pipeline.
    const bool per_repetition =
        !step.iteration.empty() &&
        std::any_of(step.specialization.begin(), step.specialization.end(),
                    [&step](const SpecializationEntry& entry) {
                        const auto& names = entry.value.expression.variables();
                        return std::find(names.begin(), names.end(), step.iteration) != names.end();
                    });
    ResolvedDispatch first;
    first.step = index;
    first.module = step.module;
    first.entry = step.entry;
    std::int64_t repeat = 0;
    const std::string* at = &step.repeat.pointer;
    try {
        repeat = as_int(step.repeat.expression.evaluate(scope), step.repeat.expression.text());
        if (repeat < 0 || repeat > max_repeat) {
            return tune::fail(step.repeat.pointer + ": repeat count is " + std::to_string(repeat) +
                              " for this key; expected 0.." + std::to_string(max_repeat));
        }
        if (!per_repetition) {
            specialize(step, scope, first, at);
        }
    } catch (const ExpressionError& error) {
        return tune::fail(failure(*at, error));
    }
    const vulkan::ComputeEntryPoint& entry = step.entry_point();
    if (!per_repetition) {
        if (auto sized = size_workgroup(entry, first); !sized) {
            return sized;
        }
    }
    for (const Binding& binding : step.bindings) {
        const auto reflected = std::find_if(
            entry.bindings.begin(), entry.bindings.end(), [&](const vulkan::DescriptorBinding& b) {
                return b.set == binding.set && b.binding == binding.binding;
            });
        const ResolvedBuffer& buffer = buffers[binding.buffer];
        if (reflected != entry.bindings.end()) {
            if (auto fits = check_fit(step, *reflected, binding, buffer); !fits) {
                return tune::fail(std::move(fits).error());
            }
        }
        first.bindings.push_back({binding.set, binding.binding, binding.buffer,
                                  reflected != entry.bindings.end()
                                      ? reflected->type
                                      : vulkan::DescriptorType::storage_buffer});
    }
    Scope iteration_scope(&scope);
    for (std::int64_t i = 0; i < repeat; ++i) {
        if (!step.iteration.empty()) {
            iteration_scope.set(step.iteration, Value(i));
        }
        ResolvedDispatch dispatch = first;
        try {
            if (per_repetition) {
                specialize(step, iteration_scope, dispatch, at);
                if (auto sized = size_workgroup(entry, dispatch); !sized) {
                    return sized;
                }
            }
            for (std::size_t axis = 0; axis < 3; ++axis) {
                const LocatedExpression& count = step.workgroups[axis];
                at = &count.pointer;
                dispatch.workgroup_counts[axis] =
                    as_uint32(count.expression.evaluate(iteration_scope), count.expression.text());
                if (dispatch.workgroup_counts[axis] == 0) {
                    return tune::fail(count.pointer + ": workgroup count " + "xyz"[axis] +
                                      " is 0 for this key" + iteration_note(step, i) +
                                      "; expected at least 1");
                }
            }
            dispatch.push_constants.resize(step.push_constant_size);
            for (const PushConstant& constant : step.push_constants) {
                at = &constant.value.pointer;
                detail::write_push_constant(dispatch.push_constants, constant.offset, constant.type,
                                            constant.value.expression.evaluate(iteration_scope),
                                            constant.value.expression.text());
            }
        } catch (const ExpressionError& error) {
            return tune::fail(failure(*at, error) + iteration_note(step, i));
        }
        dispatches.push_back(std::move(dispatch));
    }
    return tune::ok();
}

/// A comparison's `range` for the key: 0 <= begin < end <= the buffer's count.
/// An iota over `elements` floats that runs past what the type holds would store infinities
/// from that element on, and every candidate would be checked against them: the key's error.
/// (Integer fills clamp, as documented.)
tune::Status check_iota_fits(const BufferSpec& spec, std::uint64_t elements,
                             const ProblemKey& key) {
    const auto* iota = std::get_if<vulkan::FillIota>(&spec.init);
    if (iota == nullptr || !vulkan::is_floating(spec.type) || elements == 0) {
        return tune::ok();
    }
    const double largest = vulkan::largest_finite(spec.type);
    // Linear in the index: the first and the last element are the extremes.
    const double last = iota->start + iota->step * static_cast<double>(elements - 1);
    if (std::isfinite(last) && std::abs(last) <= largest) {
        return tune::ok();
    }
    std::ostringstream text;
    // Nine significant digits, so a value just past the bound does not print as below it.
    text << std::setprecision(9) << spec.pointer << "/init/iota: element " << elements - 1
         << " of buffer '" << spec.name << "' would be " << last << " for " << to_string(key)
         << ", beyond what " << vulkan::to_string(spec.type) << " holds ("
         << detail::magnitude_bound_text(spec.type)
         << "); expected a start and step that keep every element within it";
    return tune::fail(text.str());
}

tune::Result<std::pair<std::uint64_t, std::uint64_t>> checked_range(
    const std::array<LocatedExpression, 2>& range, const Scope& scope, const ResolvedBuffer& buffer,
    const ProblemKey& key) {
    std::array<std::int64_t, 2> ends{};
    for (std::size_t i = 0; i < 2; ++i) {
        try {
            ends[i] = as_int(range[i].expression.evaluate(scope), range[i].expression.text());
        } catch (const ExpressionError& error) {
            return tune::fail(failure(range[i].pointer, error));
        }
    }
    // Within the logical size: the padding is never checked.
    const auto count = static_cast<std::int64_t>(buffer.count - buffer.padding);
    if (ends[0] < 0 || ends[0] >= ends[1] || ends[1] > count) {
        return tune::fail(range[0].pointer.substr(0, range[0].pointer.size() - 2) + ": [" +
                          std::to_string(ends[0]) + ", " + std::to_string(ends[1]) + "] for " +
                          to_string(key) + " is not a range of buffer '" + buffer.name + "' (" +
                          std::to_string(count) +
                          " elements); expected 0 <= begin < end <= its count");
    }
    return std::pair{static_cast<std::uint64_t>(ends[0]), static_cast<std::uint64_t>(ends[1])};
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
        std::int64_t padding = 0;
        if (spec.padding) {
            const std::string padding_pointer = spec.pointer + "/padding";
            try {
                padding = as_int(spec.padding->evaluate(scope), spec.padding->text());
            } catch (const ExpressionError& error) {
                return tune::fail(failure(padding_pointer, error));
            }
            if (padding < 0) {
                return tune::fail(padding_pointer + ": buffer '" + spec.name + "' would have " +
                                  std::to_string(padding) + " elements of padding for " +
                                  to_string(key) + "; expected a padding >= 0");
            }
        }
        const auto size = static_cast<std::uint64_t>(vulkan::element_size(spec.type));
        const auto logical = static_cast<std::uint64_t>(count);
        const auto padded = static_cast<std::uint64_t>(padding);
        if (padded > UINT64_MAX - logical || logical + padded > UINT64_MAX / size) {
            return tune::fail(pointer + ": buffer '" + spec.name + "' of " + std::to_string(count) +
                              " elements and " + std::to_string(padding) +
                              " of padding overflows 64-bit byte sizes");
        }
        if (auto fits = check_iota_fits(spec, logical, key); !fits) {
            return tune::fail(std::move(fits).error());
        }
        const std::uint64_t elements = logical + padded;
        buffers.push_back({spec.name,
                           spec.type,
                           elements,
                           elements * size,
                           spec.init,
                           spec.role,
                           {0, logical},
                           padded});
    }
    for (const Comparison& comparison : problem.reference.compare) {
        if (!comparison.range) {
            continue;
        }
        ResolvedBuffer& buffer = buffers[comparison.buffer];
        auto range = checked_range(*comparison.range, scope, buffer, key);
        if (!range) {
            return tune::fail(std::move(range).error());
        }
        buffer.checked = range.value();
    }
    return buffers;
}

tune::Result<ResolvedCandidate> resolve_candidate(const Problem& problem, const ProblemKey& key,
                                                  std::size_t index,
                                                  std::span<const ResolvedBuffer> buffers,
                                                  const DeviceProperties* device) {
    const Candidate& candidate = problem.candidates.at(index);
    const CandidateFamily& family = problem.families.at(candidate.family);
    Scope keys = key_scope(key);
    if (device != nullptr) {
        set_device_variables(keys, *device);
    } else if (std::optional<std::string> used = device_variable_used(family)) {
        return tune::fail(*used + ", a property of the device, and no device is known here");
    }
    Scope scope(&keys);
    for (const auto& [name, value] : candidate.point) {
        scope.set(name, Value(value));
    }
    ResolvedCandidate resolved;
    resolved.name = candidate.name;
    resolved.candidate = index;
    resolved.key = key;
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
                                  key_values_used(problem, key, scope, condition));
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
    } catch (const ExpressionError& error) {
        return tune::fail(failure(*at, error));
    }
    for (std::size_t s = 0; s < family.steps.size(); ++s) {
        std::shared_ptr<const DispatchStep> compiled;  // a step compiled for this key
        if (const auto& glsl = family.steps[s].per_key_glsl) {
            auto made = glsl->step_for(problem, family.steps[s], scope, to_string(key));
            if (!made) {
                return tune::fail(std::move(made).error());
            }
            compiled = std::move(made).value();
        }
        const DispatchStep& step = compiled ? *compiled : family.steps[s];
        if (auto added = resolve_step(step, s, scope, buffers, resolved.dispatches); !added) {
            return tune::fail(std::move(added).error());
        }
    }
    if (resolved.dispatches.empty()) {
        return tune::fail(
            "every step repeats 0 times for this key; expected at least one "
            "dispatch");
    }
    return resolved;
}

}  // namespace spvtune::problem
