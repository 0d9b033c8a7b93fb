#include "pipeline_builder.hpp"

#include <algorithm>
#include <variant>

namespace spvtune::problem::detail {
namespace {

/// The bytes a specialization list packs to: equal lists give equal pipelines.
std::string specialization_signature(const std::vector<vulkan::Specialization>& list) {
    std::string text;
    for (const auto& entry : list) {
        text += std::to_string(entry.id) + "=" + std::string(vulkan::type_name(entry.value)) + ":";
        std::visit(
            [&](auto v) {
                if constexpr (std::is_same_v<decltype(v), vulkan::Float16>) {
                    text += std::to_string(v.bits);
                } else {
                    text += std::to_string(v);
                }
            },
            entry.value);
        text += ";";
    }
    return text;
}

}  // namespace

PipelineSlot pipeline_slot(const ResolvedDispatch& dispatch) {
    return {dispatch.step, dispatch.module->content_hash(),
            specialization_signature(dispatch.specializations)};
}

CandidatePipelines build_pipelines(vulkan::Device& device, VkPipelineCache cache,
                                   const ResolvedCandidate& candidate,
                                   std::atomic<std::size_t>& created) {
    CandidatePipelines built;
    try {
        for (const ResolvedDispatch& dispatch : candidate.dispatches) {
            auto& pipeline = built.pipelines[pipeline_slot(dispatch)];
            if (!pipeline) {
                pipeline = std::make_unique<vulkan::ComputePipeline>(
                    device, *dispatch.module, dispatch.entry, dispatch.specializations, cache);
                ++created;
            }
        }
    } catch (...) {
        built.pipelines.clear();
        built.error = std::current_exception();
    }
    return built;
}

PipelineBuilder::PipelineBuilder(vulkan::Device& device, VkPipelineCache cache, std::size_t threads,
                                 std::size_t lookahead, std::atomic<std::size_t>& created)
    : device_(device),
      cache_(cache),
      lookahead_(std::max<std::size_t>(lookahead, 1)),
      created_(created) {
    for (std::size_t i = 0; i < threads; ++i) {
        threads_.emplace_back([this] { work(); });
    }
}

PipelineBuilder::~PipelineBuilder() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    for (std::thread& thread : threads_) {
        thread.join();
    }
}

void PipelineBuilder::announce(std::vector<ResolvedCandidate> candidates) {
    std::map<std::size_t, CandidatePipelines> unwanted;  // freed outside the lock
    {
        std::lock_guard lock(mutex_);
        order_ = std::move(candidates);
        position_.clear();
        queue_.clear();
        for (std::size_t i = 0; i < order_.size(); ++i) {
            const std::size_t candidate = order_[i].candidate;
            if (!position_.emplace(candidate, i).second) {
                continue;  // announced twice: built once
            }
            if (!ready_.contains(candidate) && !in_flight_.contains(candidate)) {
                queue_.push_back(i);
            }
        }
        for (auto it = ready_.begin(); it != ready_.end();) {
            if (position_.contains(it->first)) {
                ++it;
            } else {
                unwanted.insert(ready_.extract(it++));
            }
        }
    }
    changed_.notify_all();
}

void PipelineBuilder::drop_passed_over(std::size_t position) {
    for (auto it = ready_.begin(); it != ready_.end();) {
        const auto place = position_.find(it->first);
        if (place == position_.end() || place->second < position) {
            it = ready_.erase(it);
        } else {
            ++it;
        }
    }
}

std::optional<CandidatePipelines> PipelineBuilder::take(std::size_t candidate) {
    std::unique_lock lock(mutex_);
    const auto place = position_.find(candidate);
    if (place == position_.end() || threads_.empty()) {
        return std::nullopt;
    }
    drop_passed_over(place->second);
    const auto queued = [&] {
        return std::find(queue_.begin(), queue_.end(), place->second) != queue_.end();
    };
    if (queued()) {
        // Not started yet: it is needed now, so it goes first, whatever the lookahead holds.
        queue_.erase(std::find(queue_.begin(), queue_.end(), place->second));
        queue_.insert(queue_.begin(), place->second);
        wanted_ = place->second;
        changed_.notify_all();
    }
    changed_.wait(lock,
                  [&] { return stopping_ || (!in_flight_.contains(candidate) && !queued()); });
    wanted_.reset();
    const auto built = ready_.find(candidate);
    if (built == ready_.end()) {
        return std::nullopt;  // freed meanwhile (announced anew): the caller builds it
    }
    CandidatePipelines pipelines = std::move(built->second);
    ready_.erase(built);
    lock.unlock();
    changed_.notify_all();  // room in the lookahead
    return pipelines;
}

std::size_t PipelineBuilder::held() const {
    std::lock_guard lock(mutex_);
    return ready_.size();
}

void PipelineBuilder::work() {
    std::unique_lock lock(mutex_);
    while (true) {
        // The front of the queue may be a candidate the caller waits for: it is built even
        // when the lookahead is full.
        changed_.wait(lock, [&] {
            return stopping_ ||
                   (!queue_.empty() &&
                    (ready_.size() + in_flight_.size() < lookahead_ || queue_.front() == wanted_));
        });
        if (stopping_) {
            return;
        }
        const std::size_t place = queue_.front();
        queue_.erase(queue_.begin());
        const ResolvedCandidate candidate = order_[place];
        in_flight_.insert(candidate.candidate);
        lock.unlock();
        CandidatePipelines built = build_pipelines(device_, cache_, candidate, created_);
        lock.lock();
        in_flight_.erase(candidate.candidate);
        // Announced again meanwhile, or passed over: kept only while still announced.
        if (position_.contains(candidate.candidate)) {
            ready_.insert_or_assign(candidate.candidate, std::move(built));
        } else {
            lock.unlock();
            built = {};  // freed outside the lock
            lock.lock();
        }
        changed_.notify_all();
    }
}

}  // namespace spvtune::problem::detail
