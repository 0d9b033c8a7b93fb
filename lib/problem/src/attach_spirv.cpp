#include <algorithm>
#include <functional>
#include <map>

#include <spvtune/problem/kernel_search.hpp>
#include <spvtune/problem/suggest.hpp>
#include <spvtune/vulkan/error.hpp>

#include "binding_label.hpp"
#include "parse/problem_parser.hpp"
#include "value_conversion.hpp"

namespace spvtune::problem::detail {
namespace {

using ModuleCache = std::map<std::string, std::shared_ptr<const vulkan::SpirvModule>>;

/// A binding as the file's `bindings` object spells it: "0.1".
std::string binding_key(std::uint32_t set, std::uint32_t binding) {
    return std::to_string(set) + "." + std::to_string(binding);
}

std::shared_ptr<const vulkan::SpirvModule> load_module(Reader& reader, const std::string& spirv,
                                                       const std::string& pointer,
                                                       const LoadOptions& options,
                                                       ModuleCache& cache,
                                                       std::filesystem::path& resolved) {
    const auto found = find_kernel(spirv, reader.file(), options.kernel_dirs);
    if (!found) {
        reader.error(pointer,
                     kernel_not_found("SPIR-V", spirv, reader.file(), options.kernel_dirs));
        return nullptr;
    }
    resolved = *found;
    std::error_code ignored;
    const auto canonical = std::filesystem::weakly_canonical(*found, ignored).string();
    if (auto it = cache.find(canonical); it != cache.end()) {
        return it->second;  // null when it failed: reported once, at its first use
    }
    std::shared_ptr<const vulkan::SpirvModule> module;
    try {
        module = std::make_shared<const vulkan::SpirvModule>(vulkan::SpirvModule::load(*found));
    } catch (const std::exception& error) {
        reader.error(pointer, error.what());
    }
    cache.emplace(canonical, module);
    return module;
}

/// One buffer behind two bindings is allowed only where the shader declares every one of them
/// read-only (readonly in GLSL): a write through one would change what the other reads
/// mid-dispatch, so the output would depend on the order the device runs invocations in. A
/// scratch buffer is the exception: it is the candidate's own working memory, and passes that
/// ping-pong between its halves bind it twice by design (the outputs it feeds are checked).
void check_aliasing(Reader& reader, const Problem& problem, const DispatchStep& step,
                    const vulkan::ComputeEntryPoint& entry, const std::string& shader) {
    const auto writable = [&entry](const Binding& bound) {
        return std::any_of(entry.bindings.begin(), entry.bindings.end(),
                           [&bound](const vulkan::DescriptorBinding& b) {
                               return b.set == bound.set && b.binding == bound.binding &&
                                      b.access != vulkan::Access::read_only;
                           });
    };
    for (std::size_t i = 0; i < step.bindings.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
            const Binding& first = step.bindings[j];
            const Binding& second = step.bindings[i];
            if (first.buffer != second.buffer || (!writable(first) && !writable(second)) ||
                problem.buffers[first.buffer].role == BufferRole::scratch) {
                continue;
            }
            reader.error(second.pointer,
                         "buffer '" + problem.buffers[second.buffer].name +
                             "' is bound to two bindings, " +
                             binding_label(first.set, first.binding) + " and " +
                             binding_label(second.set, second.binding) + ", and " + shader +
                             " may write through one of them; expected a buffer per binding "
                             "(or both declared readonly)");
        }
    }
}

void check_bindings(Reader& reader, const Problem& problem, const DispatchStep& step,
                    const StepDraft& draft, const vulkan::ComputeEntryPoint& entry,
                    const std::string& shader) {
    std::string used;
    for (const auto& binding : entry.bindings) {
        used +=
            (used.empty() ? "" : ", ") + binding_label(binding.set, binding.binding, binding.name);
    }
    for (const auto& wanted : entry.bindings) {
        const auto bound =
            std::find_if(step.bindings.begin(), step.bindings.end(), [&wanted](const Binding& b) {
                return b.set == wanted.set && b.binding == wanted.binding;
            });
        const std::string label = binding_label(wanted.set, wanted.binding, wanted.name);
        if (bound == step.bindings.end()) {
            reader.error(draft.at("bindings"), label + " (" + std::string(to_string(wanted.type)) +
                                                   ") that " + shader +
                                                   " uses is not bound; expected a buffer for \"" +
                                                   binding_key(wanted.set, wanted.binding) + "\"");
            continue;
        }
        if (wanted.type != vulkan::DescriptorType::storage_buffer &&
            wanted.type != vulkan::DescriptorType::uniform_buffer) {
            reader.error(bound->pointer, label + " of " + shader + " is a " +
                                             std::string(to_string(wanted.type)) +
                                             "; expected a storage buffer or uniform buffer "
                                             "(only buffers can be bound)");
            continue;
        }
        if (wanted.count != 1) {
            reader.error(
                bound->pointer,
                label + " of " + shader + " is an array of descriptors; expected a single buffer");
            continue;
        }
        // A view of whole elements (vec4[] or an array of structs over f32) is bound as is; only
        // a stride that splits an element is refused. Whether the buffer holds whole strides
        // depends on its count, so resolve_candidate checks that per key.
        const BufferSpec& buffer = problem.buffers[bound->buffer];
        const auto size = vulkan::element_size(buffer.type);
        if (wanted.runtime_array_stride % size != 0) {
            reader.error(bound->pointer,
                         "buffer '" + buffer.name + "' holds " +
                             std::string(vulkan::to_string(buffer.type)) + " (" +
                             std::to_string(size) + "-byte elements) but " + label + " of " +
                             shader + " is an array with a " +
                             std::to_string(wanted.runtime_array_stride) +
                             "-byte stride; expected a stride that is a multiple of " +
                             std::to_string(size) + " bytes (whole elements)");
        }
    }
    for (const Binding& binding : step.bindings) {
        const bool exists =
            std::any_of(entry.bindings.begin(), entry.bindings.end(),
                        [&binding](const vulkan::DescriptorBinding& b) {
                            return b.set == binding.set && b.binding == binding.binding;
                        });
        if (!exists) {
            reader.error(
                binding.pointer,
                shader + " uses no " + binding_label(binding.set, binding.binding) +
                    "; expected one of the bindings it uses: " + (used.empty() ? "none" : used));
        }
    }
    check_aliasing(reader, problem, step, entry, shader);
}

void check_push_constants(Reader& reader, const DispatchStep& step, const StepDraft& draft,
                          const vulkan::ComputeEntryPoint& entry, const std::string& shader) {
    const std::uint32_t given = step.push_constant_size;
    const std::uint32_t block = entry.push_constants.size;
    if (given == block) {
        return;
    }
    // Appended in place: g++ 12 warns falsely (-Warray-bounds) on an inlined operator+ chain.
    std::string message = "push constants too ";
    message.append(given < block ? "small" : "large")
        .append(": ")
        .append(std::to_string(given))
        .append(" bytes given, the block of ")
        .append(shader)
        .append(" is ")
        .append(std::to_string(block))
        .append(" bytes");
    reader.error(draft.at("push_constants"), message);
}

std::string describe_constant(const vulkan::SpecializationConstant& constant) {
    std::string text = std::to_string(constant.id);
    if (!constant.name.empty()) {
        text += " '" + constant.name + "'";
    }
    for (std::size_t i = 0; i < constant.aliases.size(); ++i) {
        text += (i == 0 ? " (also '" : ", '") + constant.aliases[i] + "'";
        text += i + 1 == constant.aliases.size() ? ")" : "";
    }
    return text + " (" + std::string(vulkan::type_name(constant.default_value)) + ")";
}

/// Whether `label` is any name the module gives `constant`.
bool is_named(const vulkan::SpecializationConstant& constant, const std::string& label) {
    return constant.name == label || std::find(constant.aliases.begin(), constant.aliases.end(),
                                               label) != constant.aliases.end();
}

void attach_specialization(Reader& reader, DispatchStep& step, const StepDraft& draft,
                           const vulkan::ComputeEntryPoint& entry, const std::string& shader) {
    const auto& declared = entry.specialization_constants;
    std::string listing;
    std::vector<std::string> names;
    for (const auto& constant : declared) {
        listing += (listing.empty() ? "" : ", ") + describe_constant(constant);
        if (!constant.name.empty()) {
            names.push_back(constant.name);
        }
        names.insert(names.end(), constant.aliases.begin(), constant.aliases.end());
    }
    const std::string declares = listing.empty() ? "it declares none" : "it declares: " + listing;
    for (const auto& entry_draft : draft.specialization) {
        const std::string& label = entry_draft.label;
        const std::string& pointer = entry_draft.value.pointer;
        const bool by_id = std::isdigit(static_cast<unsigned char>(label[0])) != 0;
        const auto match = std::find_if(declared.begin(), declared.end(), [&](const auto& c) {
            return by_id ? std::to_string(c.id) == label : is_named(c, label);
        });
        if (match == declared.end()) {
            std::string message = shader + " declares no specialization constant ";
            if (by_id) {
                message += "with SpecId " + label;
            } else {
                message += "named '" + label + "'";
                if (const auto suggestion = did_you_mean(label, names)) {
                    message += " (did you mean '" + *suggestion + "'?)";
                }
            }
            reader.error(pointer, message + "; " + declares);
            continue;
        }
        const bool repeated =
            std::any_of(step.specialization.begin(), step.specialization.end(),
                        [&](const SpecializationEntry& e) { return e.id == match->id; });
        if (repeated) {
            reader.error(pointer, "specialization constant " + describe_constant(*match) +
                                      " is given twice (by SpecId and by name)");
            continue;
        }
        step.specialization.push_back({match->id, match->default_value, entry_draft.value});
    }
    std::sort(
        step.specialization.begin(), step.specialization.end(),
        [](const SpecializationEntry& a, const SpecializationEntry& b) { return a.id < b.id; });
}

/// Evaluates `located` for every candidate of family `f` when it uses grid parameters only, so
/// values of the wrong type or range are reported now rather than as a skip for every key.
void check_constant(Reader& reader, const Problem& problem, std::size_t f,
                    const LocatedExpression& located, const std::string& what,
                    const std::function<void(const Value&, std::string_view)>& convert) {
    // Anything but the point's values (a key parameter, a step's iteration) is known only per
    // key; every candidate of the family has the same names in its point.
    const auto& names = located.expression.variables();
    const auto first =
        std::find_if(problem.candidates.begin(), problem.candidates.end(),
                     [f](const Candidate& candidate) { return candidate.family == f; });
    const bool per_key =
        first == problem.candidates.end() ||
        std::any_of(names.begin(), names.end(), [&first](const auto& name) {
            return std::none_of(first->point.begin(), first->point.end(),
                                [&name](const auto& value) { return value.first == name; });
        });
    if (per_key) {
        return;
    }
    for (const Candidate& candidate : problem.candidates) {
        if (candidate.family != f) {
            continue;
        }
        Scope scope;
        for (const auto& [name, value] : candidate.point) {
            scope.set(name, Value(value));
        }
        try {
            convert(located.expression.evaluate(scope), located.expression.text());
        } catch (const ExpressionError& error) {
            reader.error(located.pointer, what + " of " + candidate.name + ": " + error.message(),
                         error.render("    "));
            return;  // once per expression: the other points likely fail alike
        }
    }
}

void check_constants(Reader& reader, const Problem& problem, std::size_t f,
                     const DispatchStep& step) {
    check_constant(reader, problem, f, step.repeat, "repeat count",
                   [](const Value& value, std::string_view text) {
                       if (as_int(value, text) < 0) {
                           throw ExpressionError(
                               std::string(text), 1, text.size(),
                               "expected a repeat count >= 0, got " + to_string(value));
                       }
                   });
    for (const SpecializationEntry& entry : step.specialization) {
        check_constant(reader, problem, f, entry.value,
                       "specialization constant " + std::to_string(entry.id) + " (" +
                           std::string(vulkan::type_name(entry.declared)) + ")",
                       [&entry](const Value& value, std::string_view text) {
                           (void)to_specialization(value, entry.declared, text);
                       });
    }
    static const char* const axes[] = {"x", "y", "z"};
    for (std::size_t i = 0; i < 3; ++i) {
        check_constant(reader, problem, f, step.workgroups[i],
                       std::string("workgroup count ") + axes[i],
                       [](const Value& value, std::string_view text) {
                           if (as_uint32(value, text) == 0) {
                               throw ExpressionError(std::string(text), 1, text.size(),
                                                     "expected a workgroup count > 0, got 0");
                           }
                       });
    }
    for (const PushConstant& constant : step.push_constants) {
        check_constant(reader, problem, f, constant.value,
                       "push constant (" + std::string(vulkan::to_string(constant.type)) + ")",
                       [&constant](const Value& value, std::string_view text) {
                           std::vector<std::byte> bytes(8);
                           write_push_constant(bytes, 0, constant.type, value, text);
                       });
    }
}

/// attach_module for family `f`, each fault reported once per cause: the families split from
/// one GLSL candidate differ only in their defines, so a fault they share is one message that
/// counts the grid points it hit rather than one message per point.
bool attach_family_module(Reader& reader, const Problem& problem, std::size_t f, DispatchStep& step,
                          const StepDraft& draft) {
    Reader faults(reader.file());
    if (attach_module(faults, problem, step, draft)) {
        return true;
    }
    const auto points = static_cast<std::size_t>(
        std::count_if(problem.candidates.begin(), problem.candidates.end(),
                      [f](const Candidate& candidate) { return candidate.family == f; }));
    // The cause is the message with the module's defines left out of the shader's name.
    const std::string source = draft.glsl ? draft.glsl->file : draft.spirv;
    for (const Diagnostic& fault : faults.diagnostics()) {
        std::string cause = fault.message;
        for (std::size_t at = cause.find(draft.spirv); at != std::string::npos;
             at = cause.find(draft.spirv, at + source.size())) {
            cause.replace(at, draft.spirv.size(), source);
        }
        reader.error_at_points(fault, cause, points);
    }
    return false;
}

}  // namespace

bool attach_module(Reader& reader, const Problem& problem, DispatchStep& step,
                   const StepDraft& draft) {
    const vulkan::ComputeEntryPoint* entry = nullptr;
    try {
        entry = &step.module->entry_point(step.entry);
    } catch (const vulkan::SpirvError& error) {
        reader.error(draft.at("entry"), error.what());
        return false;
    }
    const std::string shader = draft.spirv + ":" + step.entry;
    const std::size_t errors = reader.error_count();
    check_bindings(reader, problem, step, draft, *entry, shader);
    check_push_constants(reader, step, draft, *entry, shader);
    attach_specialization(reader, step, draft, *entry, shader);
    return reader.error_count() == errors;
}

void attach_spirv(Reader& reader, Problem& problem, const std::vector<FamilyDraft>& drafts,
                  const LoadOptions& options) {
    ModuleCache cache;
    for (std::size_t f = 0; f < problem.families.size(); ++f) {
        CandidateFamily& family = problem.families[f];
        const std::size_t errors = reader.error_count();
        for (std::size_t s = 0; s < family.steps.size(); ++s) {
            DispatchStep& step = family.steps[s];
            const StepDraft& draft = drafts[f].steps[s];
            if (!draft.glsl) {  // a GLSL step's module was compiled by compile_glsl_candidates
                step.module =
                    load_module(reader, draft.spirv, draft.at("spirv"), options, cache, step.spirv);
            }
            // A step compiled per key is checked against each key's module as it is resolved.
            if (step.module && attach_family_module(reader, problem, f, step, draft)) {
                check_constants(reader, problem, f, step);
            }
        }
        if (reader.error_count() == errors) {
            check_constant(
                reader, problem, f, family.priority, "priority",
                [](const Value& value, std::string_view text) { (void)as_int(value, text); });
        }
    }
}

}  // namespace spvtune::problem::detail
