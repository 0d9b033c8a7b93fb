#include <algorithm>
#include <cstdint>
#include <string>

#include <spirv_cross/spirv.h>

#include <spvtune/base/digest.hpp>
#include <spvtune/base/enum_names.hpp>
#include <spvtune/vulkan/error.hpp>
#include <spvtune/vulkan/spirv_module.hpp>

#include "binary.hpp"
#include "instructions.hpp"
#include "resources.hpp"
#include "specialization.hpp"
#include "validation.hpp"

namespace spvtune::vulkan {
namespace {

// Keyed by the raw word: a module may hold any value, and casting one the enum lacks is undefined.
constexpr base::EnumNames<std::uint32_t, 6> stage_names{{
    {SpvExecutionModelVertex, "vertex shader"},
    {SpvExecutionModelTessellationControl, "tessellation control shader"},
    {SpvExecutionModelTessellationEvaluation, "tessellation evaluation shader"},
    {SpvExecutionModelGeometry, "geometry shader"},
    {SpvExecutionModelFragment, "fragment shader"},
    {SpvExecutionModelKernel, "OpenCL kernel"},
}};

std::string stage_name(std::uint32_t execution_model) {
    if (const auto name = base::find_name(stage_names, execution_model)) {
        return std::string(*name);
    }
    return "non-compute entry point (execution model " + std::to_string(execution_model) + ")";
}

std::string quoted_list(const std::vector<ComputeEntryPoint>& entry_points) {
    if (entry_points.empty()) {
        return "none";
    }
    std::string list;
    for (const auto& entry : entry_points) {
        list += (list.empty() ? "'" : ", '") + entry.name + "'";
    }
    return list;
}

}  // namespace

SpirvModule SpirvModule::load(const std::filesystem::path& path) {
    std::string display_name = path.string();
    std::vector<std::uint32_t> words = detail::read_spirv_words(path, display_name);
    return SpirvModule(std::move(words), std::move(display_name));
}

SpirvModule SpirvModule::from_words(std::vector<std::uint32_t> words, std::string display_name) {
    return SpirvModule(std::move(words), std::move(display_name));
}

SpirvModule::SpirvModule(std::vector<std::uint32_t> words, std::string display_name)
    : display_name_(std::move(display_name)), words_(std::move(words)) {
    detail::normalize_spirv_words(words_, display_name_);
    // Validate before reflecting: the reflection code may then trust the module's structure.
    detail::validate_spirv(words_, display_name_);
    content_hash_ = detail::code_digest(words_);

    const detail::ModuleDeclarations declarations =
        detail::read_declarations(words_, display_name_);
    const std::vector<SpecializationConstant> constants =
        detail::reflect_specialization_constants(declarations, display_name_);

    std::vector<const detail::EntryPointDeclaration*> compute;
    std::vector<std::string> compute_names;
    for (const auto& entry : declarations.entry_points) {
        if (entry.execution_model == SpvExecutionModelGLCompute) {
            compute.push_back(&entry);
            compute_names.push_back(entry.name);
        } else {
            other_stage_entry_points_.push_back({entry.name, stage_name(entry.execution_model)});
        }
    }
    std::vector<detail::EntryPointResources> resources =
        detail::reflect_resources(words_, compute_names, display_name_);
    for (std::size_t i = 0; i < compute.size(); ++i) {
        entry_points_.push_back(ComputeEntryPoint{
            compute[i]->name,
            detail::reflect_workgroup_size(declarations, *compute[i], display_name_),
            std::move(resources[i].bindings), std::move(resources[i].push_constants), constants});
    }
}

std::string SpirvModule::content_hash_hex() const {
    char digits[17];
    std::snprintf(digits, sizeof digits, "%016llx", static_cast<unsigned long long>(content_hash_));
    return digits;
}

const ComputeEntryPoint& SpirvModule::entry_point(std::string_view name) const {
    const auto found = std::find_if(entry_points_.begin(), entry_points_.end(),
                                    [name](const auto& entry) { return entry.name == name; });
    if (found != entry_points_.end()) {
        return *found;
    }
    const auto other =
        std::find_if(other_stage_entry_points_.begin(), other_stage_entry_points_.end(),
                     [name](const auto& entry) { return entry.name == name; });
    const std::string reason = other != other_stage_entry_points_.end()
                                   ? "entry point '" + other->name + "' but it is a " +
                                         other->stage + ", not a compute kernel"
                                   : "no entry point '" + std::string(name) + "'";
    throw SpirvError("'" + display_name_ + "' has " + reason +
                     "; compute entry points: " + quoted_list(entry_points_));
}

}  // namespace spvtune::vulkan
