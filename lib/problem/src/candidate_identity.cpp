#include <spvtune/base/digest.hpp>
#include <spvtune/problem/candidate_identity.hpp>
#include <spvtune/tune/tunable_set.hpp>

#include "glsl/per_key_glsl.hpp"

namespace spvtune::problem {
namespace {

/// What the step's kernel is: its module's bytes or, for a step compiled per key, what each
/// key's module is made from (so the checksum does not depend on the keys).
std::uint64_t kernel_identity(const DispatchStep& step) {
    return step.module ? step.module->content_hash() : step.per_key_glsl->identity();
}

void add_dispatch_fields(base::Fnv1a& digest, const DispatchStep& step) {
    for (const SpecializationEntry& entry : step.specialization) {
        digest.add(std::uint64_t{entry.id}).add_field(entry.value.expression.text());
    }
    for (const LocatedExpression& count : step.workgroups) {
        digest.add_field(count.expression.text());
    }
    for (const PushConstant& constant : step.push_constants) {
        digest.add_field(vulkan::to_string(constant.type))
            .add_field(constant.value.expression.text());
    }
}

void add_bindings(base::Fnv1a& digest, const Problem& problem, const DispatchStep& step) {
    for (const Binding& binding : step.bindings) {
        const BufferSpec& buffer = problem.buffers[binding.buffer];
        digest.add(std::uint64_t{binding.set}).add(std::uint64_t{binding.binding});
        digest.add_field(buffer.name).add_field(vulkan::to_string(buffer.type));
        digest.add_field(buffer.count.text()).add_field(to_string(buffer.role));
        if (buffer.padding) {
            // Only when given, so that the digests of buffers without padding stay as they were.
            digest.add_field("padding").add_field(buffer.padding->text());
        }
    }
}

}  // namespace

std::string candidate_digest(const Problem& problem, std::size_t index) {
    const Candidate& candidate = problem.candidates[index];
    const CandidateFamily& family = problem.families[candidate.family];
    const DispatchStep& first = family.steps.front();
    // A candidate of one plain step digests as it did before candidates had steps, so the
    // cache entries of existing problems stay valid.
    base::Fnv1a digest;
    digest.add(kernel_identity(first)).add_field(first.entry);
    for (const auto& [name, value] : candidate.point) {
        digest.add_field(name).add(static_cast<std::uint64_t>(value));
    }
    for (const Constraint& constraint : family.constraints) {
        digest.add_field(constraint.condition.expression.text());
    }
    add_dispatch_fields(digest, first);
    for (const std::string& capability : family.required_capabilities) {
        digest.add_field(capability);
    }
    add_bindings(digest, problem, first);
    for (std::size_t s = 0; s < family.steps.size(); ++s) {
        const DispatchStep& step = family.steps[s];
        if (s > 0) {
            digest.add(kernel_identity(step)).add_field(step.entry);
            add_dispatch_fields(digest, step);
            add_bindings(digest, problem, step);
        }
        if (s > 0 || step.repeat.expression.text() != "1" || !step.iteration.empty()) {
            digest.add_field(step.repeat.expression.text()).add_field(step.iteration);
        }
    }
    return base::to_hex(digest.value());
}

std::uint64_t candidate_list_checksum(const Problem& problem) {
    base::Fnv1a checksum;
    for (std::size_t i = 0; i < problem.candidates.size(); ++i) {
        tune::add_to_list_checksum(checksum, problem.candidates[i].name,
                                   candidate_digest(problem, i));
    }
    return checksum.value();
}

}  // namespace spvtune::problem
