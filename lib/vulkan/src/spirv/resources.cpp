#include "resources.hpp"

#include <algorithm>
#include <memory>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>

#include <spirv_cross/spirv_cross_c.h>

#include <spvtune/vulkan/error.hpp>

#include "binary.hpp"

namespace spvtune::vulkan::detail {
namespace {

struct ContextDeleter {
    void operator()(spvc_context context) const noexcept { spvc_context_destroy(context); }
};
using ContextHandle = std::unique_ptr<std::remove_pointer_t<spvc_context>, ContextDeleter>;

bool has(const SpvDecoration* decorations, std::size_t count, SpvDecoration wanted) {
    return std::find(decorations, decorations + count, wanted) != decorations + count;
}

// SPIRV-Cross returns names from its own storage; guard against a null all the same.
std::string text(const char* maybe_null) {
    return maybe_null != nullptr ? std::string(maybe_null) : std::string();
}

Access access_from(bool non_writable, bool non_readable) {
    if (non_writable) {
        return Access::read_only;
    }
    return non_readable ? Access::write_only : Access::read_write;
}

/// The variables whose runtime array's length the module takes (OpArrayLength), anywhere in it.
struct ArrayLengths {
    std::unordered_set<std::uint32_t> variables;
    /// A length is taken through a pointer that is not a variable or a chain of access chains
    /// and copies of one, so any storage buffer may be the one measured.
    bool untraced = false;
};

/// Reads the words directly: SPIRV-Cross's C API does not say which buffers OpArrayLength reads.
/// The module has been validated, so every instruction fits in it.
ArrayLengths find_array_lengths(std::span<const std::uint32_t> words) {
    std::unordered_map<std::uint32_t, std::uint32_t> base_of;  // pointer id -> what it points into
    std::unordered_set<std::uint32_t> variables;
    std::vector<std::uint32_t> measured;
    for (std::size_t position = spirv_header_words; position < words.size();) {
        const std::uint32_t word_count = words[position] >> 16;
        const std::uint32_t opcode = words[position] & 0xffffU;
        const std::span<const std::uint32_t> operands = words.subspan(position + 1, word_count - 1);
        switch (opcode) {
            case SpvOpVariable:
                variables.insert(operands[1]);
                break;
            case SpvOpAccessChain:
            case SpvOpInBoundsAccessChain:
            case SpvOpPtrAccessChain:
            case SpvOpInBoundsPtrAccessChain:
            case SpvOpCopyObject:
                base_of[operands[1]] = operands[2];
                break;
            case SpvOpArrayLength:
                measured.push_back(operands[2]);
                break;
            default:
                break;
        }
        position += word_count;
    }
    ArrayLengths found;
    for (std::uint32_t pointer : measured) {
        // Access chains into arrays of descriptors, and copies, lead back to the variable.
        for (auto it = base_of.find(pointer); it != base_of.end(); it = base_of.find(pointer)) {
            pointer = it->second;
        }
        if (variables.contains(pointer)) {
            found.variables.insert(pointer);
        } else {
            found.untraced = true;
        }
    }
    return found;
}

class Reflector {
  public:
    Reflector(std::span<const std::uint32_t> words, const std::string& display_name)
        : display_name_(display_name), array_lengths_(find_array_lengths(words)) {
        spvc_context context = nullptr;
        if (spvc_context_create(&context) != SPVC_SUCCESS) {
            throw SpirvError("cannot reflect '" + display_name_ +
                             "': SPIRV-Cross could not create a context");
        }
        context_.reset(context);
        // Errors are read back with spvc_context_get_last_error_string and thrown; the callback
        // only keeps SPIRV-Cross from printing them.
        spvc_context_set_error_callback(
            context, [](void*, const char*) {}, nullptr);
        spvc_parsed_ir ir = nullptr;
        check(spvc_context_parse_spirv(context, words.data(), words.size(), &ir), "parsing");
        check(spvc_context_create_compiler(context, SPVC_BACKEND_NONE, ir,
                                           SPVC_CAPTURE_MODE_TAKE_OWNERSHIP, &compiler_),
              "creating a compiler");
    }

    EntryPointResources reflect(const std::string& entry_name) {
        check(spvc_compiler_set_entry_point(compiler_, entry_name.c_str(),
                                            SpvExecutionModelGLCompute),
              "selecting the entry point");
        spvc_set active = nullptr;
        check(spvc_compiler_get_active_interface_variables(compiler_, &active),
              "finding the used variables");
        spvc_resources resources = nullptr;
        check(spvc_compiler_create_shader_resources_for_active_variables(compiler_, &resources,
                                                                         active),
              "listing the resources");

        EntryPointResources out;
        add_bindings(resources, SPVC_RESOURCE_TYPE_UNIFORM_BUFFER, out.bindings);
        add_bindings(resources, SPVC_RESOURCE_TYPE_STORAGE_BUFFER, out.bindings);
        add_bindings(resources, SPVC_RESOURCE_TYPE_STORAGE_IMAGE, out.bindings);
        add_bindings(resources, SPVC_RESOURCE_TYPE_SAMPLED_IMAGE, out.bindings);
        add_bindings(resources, SPVC_RESOURCE_TYPE_SEPARATE_IMAGE, out.bindings);
        add_bindings(resources, SPVC_RESOURCE_TYPE_SEPARATE_SAMPLERS, out.bindings);
        add_bindings(resources, SPVC_RESOURCE_TYPE_ACCELERATION_STRUCTURE, out.bindings);
        std::sort(out.bindings.begin(), out.bindings.end(), [](const auto& a, const auto& b) {
            return a.set != b.set ? a.set < b.set : a.binding < b.binding;
        });
        out.push_constants = push_constant_block(resources);
        return out;
    }

  private:
    void check(spvc_result result, const char* step) const {
        if (result != SPVC_SUCCESS) {
            throw SpirvError("cannot reflect '" + display_name_ + "': SPIRV-Cross failed " + step +
                             ": " + text(spvc_context_get_last_error_string(context_.get())));
        }
    }

    std::span<const spvc_reflected_resource> list(spvc_resources resources,
                                                  spvc_resource_type type) const {
        const spvc_reflected_resource* items = nullptr;
        std::size_t count = 0;
        check(spvc_resources_get_resource_list_for_type(resources, type, &items, &count),
              "listing resources");
        return {items, count};
    }

    void add_bindings(spvc_resources resources, spvc_resource_type kind,
                      std::vector<DescriptorBinding>& bindings) const {
        for (const spvc_reflected_resource& resource : list(resources, kind)) {
            DescriptorBinding binding;
            binding.set =
                spvc_compiler_get_decoration(compiler_, resource.id, SpvDecorationDescriptorSet);
            binding.binding =
                spvc_compiler_get_decoration(compiler_, resource.id, SpvDecorationBinding);
            binding.name = text(spvc_compiler_get_name(compiler_, resource.id));
            if (binding.name.empty()) {
                binding.name = text(spvc_compiler_get_name(compiler_, resource.base_type_id));
            }
            binding.count = descriptor_count(resource.type_id);
            describe(kind, resource, binding);
            bindings.push_back(std::move(binding));
        }
    }

    void describe(spvc_resource_type kind, const spvc_reflected_resource& resource,
                  DescriptorBinding& binding) const {
        const spvc_type base = spvc_compiler_get_type_handle(compiler_, resource.base_type_id);
        const bool texel_buffer =
            (kind == SPVC_RESOURCE_TYPE_STORAGE_IMAGE || kind == SPVC_RESOURCE_TYPE_SAMPLED_IMAGE ||
             kind == SPVC_RESOURCE_TYPE_SEPARATE_IMAGE) &&
            spvc_type_get_image_dimension(base) == SpvDimBuffer;
        binding.access = Access::read_only;
        switch (kind) {
            case SPVC_RESOURCE_TYPE_UNIFORM_BUFFER:
                binding.type = DescriptorType::uniform_buffer;
                describe_block(base, binding);
                break;
            case SPVC_RESOURCE_TYPE_STORAGE_BUFFER: {
                binding.type = DescriptorType::storage_buffer;
                const SpvDecoration* decorations = nullptr;
                std::size_t count = 0;
                check(spvc_compiler_get_buffer_block_decorations(compiler_, resource.id,
                                                                 &decorations, &count),
                      "reading buffer decorations");
                binding.access = access_from(has(decorations, count, SpvDecorationNonWritable),
                                             has(decorations, count, SpvDecorationNonReadable));
                binding.uses_array_length =
                    array_lengths_.untraced || array_lengths_.variables.contains(resource.id);
                describe_block(base, binding);
                break;
            }
            case SPVC_RESOURCE_TYPE_STORAGE_IMAGE:
                binding.type = texel_buffer ? DescriptorType::storage_texel_buffer
                                            : DescriptorType::storage_image;
                binding.access = access_from(
                    spvc_compiler_has_decoration(compiler_, resource.id, SpvDecorationNonWritable),
                    spvc_compiler_has_decoration(compiler_, resource.id, SpvDecorationNonReadable));
                break;
            case SPVC_RESOURCE_TYPE_SAMPLED_IMAGE:
                binding.type = texel_buffer ? DescriptorType::uniform_texel_buffer
                                            : DescriptorType::combined_image_sampler;
                break;
            case SPVC_RESOURCE_TYPE_SEPARATE_IMAGE:
                binding.type = texel_buffer ? DescriptorType::uniform_texel_buffer
                                            : DescriptorType::sampled_image;
                break;
            case SPVC_RESOURCE_TYPE_SEPARATE_SAMPLERS:
                binding.type = DescriptorType::sampler;
                break;
            default:
                binding.type = DescriptorType::acceleration_structure;
                break;
        }
    }

    void describe_block(spvc_type block, DescriptorBinding& binding) const {
        std::size_t size = 0;
        check(spvc_compiler_get_declared_struct_size(compiler_, block, &size),
              "sizing a buffer block");
        binding.block_size = size;
        const unsigned members = spvc_type_get_num_member_types(block);
        if (members == 0) {
            return;
        }
        const spvc_type last =
            spvc_compiler_get_type_handle(compiler_, spvc_type_get_member_type(block, members - 1));
        const unsigned dimensions = spvc_type_get_num_array_dimensions(last);
        // SPIRV-Cross lists array dimensions innermost first; only the outermost may be runtime.
        if (dimensions > 0 && spvc_type_array_dimension_is_literal(last, dimensions - 1) &&
            spvc_type_get_array_dimension(last, dimensions - 1) == 0) {
            unsigned stride = 0;
            check(spvc_compiler_type_struct_member_array_stride(compiler_, block, members - 1,
                                                                &stride),
                  "reading a runtime array's stride");
            binding.runtime_array_stride = stride;
        }
    }

    // Arrays of descriptors multiply out; a runtime-sized one (descriptor indexing) gives 0, and a
    // specialization-constant-sized one counts its default.
    std::uint32_t descriptor_count(spvc_type_id type_id) const {
        const spvc_type type = spvc_compiler_get_type_handle(compiler_, type_id);
        std::uint32_t count = 1;
        for (unsigned i = 0; i < spvc_type_get_num_array_dimensions(type); ++i) {
            std::uint32_t length = spvc_type_get_array_dimension(type, i);
            if (!spvc_type_array_dimension_is_literal(type, i)) {
                length = spvc_constant_get_scalar_u32(
                    spvc_compiler_get_constant_handle(compiler_, length), 0, 0);
            }
            count *= length;
        }
        return count;
    }

    PushConstantBlock push_constant_block(spvc_resources resources) const {
        PushConstantBlock block;
        const auto blocks = list(resources, SPVC_RESOURCE_TYPE_PUSH_CONSTANT);
        if (blocks.empty()) {
            return block;  // Vulkan allows one push-constant block per entry point
        }
        const spvc_type_id type_id = blocks.front().base_type_id;
        const spvc_type type = spvc_compiler_get_type_handle(compiler_, type_id);
        std::size_t size = 0;
        check(spvc_compiler_get_declared_struct_size(compiler_, type, &size),
              "sizing the push-constant block");
        block.size = static_cast<std::uint32_t>(size);
        for (unsigned i = 0; i < spvc_type_get_num_member_types(type); ++i) {
            PushConstantMember member;
            member.name = text(spvc_compiler_get_member_name(compiler_, type_id, i));
            check(spvc_compiler_type_struct_member_offset(compiler_, type, i, &member.offset),
                  "reading a push-constant member's offset");
            std::size_t member_size = 0;
            check(spvc_compiler_get_declared_struct_member_size(compiler_, type, i, &member_size),
                  "sizing a push-constant member");
            member.size = static_cast<std::uint32_t>(member_size);
            block.members.push_back(std::move(member));
        }
        return block;
    }

    std::string display_name_;
    ArrayLengths array_lengths_;
    ContextHandle context_;
    spvc_compiler compiler_ = nullptr;
};

}  // namespace

std::vector<EntryPointResources> reflect_resources(std::span<const std::uint32_t> words,
                                                   const std::vector<std::string>& entry_names,
                                                   const std::string& display_name) {
    Reflector reflector(words, display_name);
    std::vector<EntryPointResources> resources;
    resources.reserve(entry_names.size());
    for (const std::string& name : entry_names) {
        resources.push_back(reflector.reflect(name));
    }
    return resources;
}

}  // namespace spvtune::vulkan::detail
