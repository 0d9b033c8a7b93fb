#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <utility>
#include <vector>

namespace spvtune::tune {

/// Builds, on its own threads, what the jobs announced as coming next need (a pipeline, say),
/// while the caller is busy with others (measuring); the caller takes each result when the job's
/// turn comes. Backend-free: the build is a function.
///
/// At most `lookahead` results are built ahead and not yet taken, so memory stays bounded
/// whatever the number of jobs. Jobs are built in the announced order; one the caller takes
/// before its build started goes first and is waited for, so `threads` is the number of builds
/// at a time. A result announced and then passed over (a later job was taken first) or no
/// longer announced is freed. Thread-safe.
template <class Job, class Built>
class BuildAhead {
  public:
    /// Must not throw: a failure is part of what it returns.
    using Build = std::function<Built(const Job&)>;

    BuildAhead(Build build, std::size_t threads, std::size_t lookahead)
        : build_(std::move(build)), lookahead_(std::max<std::size_t>(lookahead, 1)) {
        for (std::size_t i = 0; i < threads; ++i) {
            threads_.emplace_back([this] { work(); });
        }
    }

    /// Stops the threads once the builds in progress end.
    ~BuildAhead() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        changed_.notify_all();
        for (std::thread& thread : threads_) {
            thread.join();
        }
    }

    BuildAhead(const BuildAhead&) = delete;
    BuildAhead& operator=(const BuildAhead&) = delete;

    /// The jobs to build next, each with its id, in order, replacing the previous announcement
    /// (a job announced twice is built once).
    void announce(std::vector<std::pair<std::size_t, Job>> jobs) {
        std::map<std::size_t, Built> unwanted;  // freed outside the lock
        {
            std::lock_guard lock(mutex_);
            order_ = std::move(jobs);
            position_.clear();
            queue_.clear();
            passed_ = 0;
            wanted_.reset();  // a place in the old order
            ++announcements_;
            for (std::size_t i = 0; i < order_.size(); ++i) {
                const std::size_t id = order_[i].first;
                if (position_.emplace(id, i).second && !ready_.contains(id) &&
                    !in_flight_.contains(id)) {
                    queue_.push_back(i);
                }
            }
            for (auto it = ready_.begin(); it != ready_.end();) {
                if (still_wanted(it->first)) {
                    ++it;
                } else {
                    unwanted.insert(ready_.extract(it++));
                }
            }
        }
        changed_.notify_all();
    }

    /// What was built for job `id`, waiting for its build when it is announced; nothing when it
    /// is not (the caller builds it itself) or when there are no threads.
    std::optional<Built> take(std::size_t id) {
        std::optional<Built> taken;
        std::map<std::size_t, Built> passed_over;  // freed outside the lock
        {
            std::unique_lock lock(mutex_);
            // Looked at again when another thread announces new jobs meanwhile.
            while (true) {
                const auto place = position_.find(id);
                if (place == position_.end() || threads_.empty()) {
                    break;
                }
                const std::size_t position = place->second;
                // The jobs announced before this one were passed over: not built, or freed.
                passed_ = std::max(passed_, position);
                std::erase_if(queue_, [&](std::size_t queued) { return queued < position; });
                for (auto it = ready_.begin(); it != ready_.end();) {
                    if (!still_wanted(it->first)) {
                        passed_over.insert(ready_.extract(it++));
                    } else {
                        ++it;
                    }
                }
                const auto queued = [&] {
                    return std::find(queue_.begin(), queue_.end(), position) != queue_.end();
                };
                if (queued()) {
                    // Needed now: it goes first, whatever the lookahead holds.
                    queue_.erase(std::find(queue_.begin(), queue_.end(), position));
                    queue_.insert(queue_.begin(), position);
                    wanted_ = position;
                    changed_.notify_all();
                }
                const std::size_t announcement = announcements_;
                changed_.wait(lock, [&] {
                    return stopping_ || announcements_ != announcement ||
                           (!in_flight_.contains(id) && !queued());
                });
                if (announcements_ != announcement && !stopping_) {
                    continue;
                }
                wanted_.reset();
                if (auto built = ready_.find(id); built != ready_.end()) {
                    taken = std::move(built->second);
                    ready_.erase(built);
                }
                break;
            }
        }
        changed_.notify_all();  // room in the lookahead
        return taken;
    }

    /// How many results are built and not taken now.
    std::size_t held() const {
        std::lock_guard lock(mutex_);
        return ready_.size();
    }

  private:
    /// Whether job `id` is announced and not passed over. Under the lock.
    bool still_wanted(std::size_t id) const {
        const auto place = position_.find(id);
        return place != position_.end() && place->second >= passed_;
    }

    void work() {
        std::unique_lock lock(mutex_);
        while (true) {
            // The job the caller waits for is built even when the lookahead is full.
            changed_.wait(lock, [&] {
                return stopping_ ||
                       (!queue_.empty() && (ready_.size() + in_flight_.size() < lookahead_ ||
                                            queue_.front() == wanted_));
            });
            if (stopping_) {
                return;
            }
            const std::size_t place = queue_.front();
            queue_.erase(queue_.begin());
            const std::size_t id = order_[place].first;
            const Job job = order_[place].second;
            in_flight_.insert(id);
            lock.unlock();
            std::optional<Built> built(build_(job));
            lock.lock();
            in_flight_.erase(id);
            if (still_wanted(id)) {
                ready_.insert_or_assign(id, std::move(*built));
            } else {
                // No longer announced, or passed over: freed outside the lock.
                lock.unlock();
                built.reset();
                lock.lock();
            }
            changed_.notify_all();
        }
    }

    Build build_;
    std::size_t lookahead_;

    mutable std::mutex mutex_;
    std::condition_variable changed_;
    bool stopping_ = false;
    /// The announced jobs in order, and each id's place in it.
    std::vector<std::pair<std::size_t, Job>> order_;
    std::map<std::size_t, std::size_t> position_;
    /// Places before this one were passed over: a later job was taken first.
    std::size_t passed_ = 0;
    /// Places in order_ not started yet, front first.
    std::vector<std::size_t> queue_;
    std::set<std::size_t> in_flight_;
    std::map<std::size_t, Built> ready_;
    /// The place of the job take() waits for, if it waits for a build.
    std::optional<std::size_t> wanted_;
    /// How many announcements were made: a take() waiting through one looks again.
    std::size_t announcements_ = 0;
    std::vector<std::thread> threads_;  ///< last: started once everything else exists
};

}  // namespace spvtune::tune
