#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <thread>

namespace spvtune::app {

/// How the command shows where it is: a live status line on a terminal (key i/n, what runs,
/// elapsed, ETA), a plain line per key otherwise, nothing when quiet. Written to stderr so the
/// report on stdout stays clean.
class Progress {
  public:
    enum class Style { live, lines, quiet };

    Progress(Style style, std::size_t total_keys);
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    /// Key `index` (0-based) starts.
    void start_key(std::size_t index, std::string label);
    /// What runs now within the key (a candidate's name), shown on the live line.
    void set_detail(std::string detail);
    /// Key finished; `measured` says whether it counts towards the ETA (cached keys are instant).
    void finish_key(bool measured);
    /// Erases the live line before other output.
    void clear();

    /// live on a terminal, lines otherwise, or quiet.
    static Style style_for(bool quiet);

  private:
    void redraw_locked();
    void tick();

    Style style_;
    std::size_t total_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    bool active_ = false;
    std::size_t index_ = 0;
    std::string label_;
    std::string detail_;
    std::size_t measured_keys_ = 0;
    std::chrono::steady_clock::duration measured_time_{};
    std::chrono::steady_clock::time_point run_start_ = std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point key_start_ = run_start_;
    std::thread ticker_;
};

}  // namespace spvtune::app
