#include <chrono>
#include <utility>

#include <spvtune/base/digest.hpp>
#include <spvtune/base/stale_files.hpp>
#include <spvtune/cache/pipeline_cache_file.hpp>
#include <spvtune/run/kept_pipeline_cache.hpp>

namespace spvtune::run {
namespace {

/// A saver renames its temporary within moments; one older than this was left by a process
/// killed while saving (no lock guards the file, so age is the only sign).
constexpr std::chrono::minutes stale_after{10};

/// The file's data, or none (said to `note`) when it cannot be used.
std::vector<std::byte> load(const std::filesystem::path& file, const vulkan::Device& device,
                            const KeptPipelineCache::Note& note) {
    base::remove_stale_files(file.has_parent_path() ? file.parent_path() : ".",
                             file.filename().string() + ".tmp-", stale_after);
    auto data = cache::read_pipeline_cache_file(file);
    if (!data) {
        if (note) {
            note("ignoring the pipeline cache " + data.error() + "; it will be replaced");
        }
        return {};
    }
    if (auto problem = vulkan::pipeline_cache_data_problem(data.value(), device.info().identity)) {
        if (note) {
            note("ignoring the pipeline cache " + file.string() + ": " + *problem +
                 "; it will be replaced");
        }
        return {};
    }
    return std::move(data).value();
}

std::uint64_t digest(std::span<const std::byte> data) {
    return base::Fnv1a().add(data).value();
}

}  // namespace

KeptPipelineCache::KeptPipelineCache(vulkan::Device& device, std::filesystem::path file, Note note)
    : file_(std::move(file)), note_(std::move(note)), cache_(device, load(file_, device, note_)) {
    // The file holds these contents already: saved again only when they change. Otherwise
    // (no file, or one ignored) the first save writes it.
    if (cache_.seeded()) {
        saved_digest_ = digest(cache_.data());
    }
}

KeptPipelineCache::~KeptPipelineCache() {
    save();
}

void KeptPipelineCache::save() noexcept {
    try {
        const std::vector<std::byte> data = cache_.data();
        const std::uint64_t now = digest(data);
        if (saved_digest_ && now == *saved_digest_) {
            return;
        }
        cache::write_pipeline_cache_file(file_, data);
        saved_digest_ = now;
    } catch (const std::exception& error) {
        if (note_) {
            note_(std::string("the pipeline cache was not saved: ") + error.what());
        }
    }
}

}  // namespace spvtune::run
