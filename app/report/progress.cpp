#include "progress.hpp"

#include <cstdio>
#include <iostream>
#include <unistd.h>

namespace spvtune::app {
namespace {

std::string seconds(std::chrono::steady_clock::duration duration) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1fs", std::chrono::duration<double>(duration).count());
    return text;
}

}  // namespace

Progress::Style Progress::style_for(bool quiet) {
    if (quiet) {
        return Style::quiet;
    }
    return isatty(STDERR_FILENO) != 0 ? Style::live : Style::lines;
}

Progress::Progress(Style style, std::size_t total_keys) : style_(style), total_(total_keys) {
    if (style_ == Style::live) {
        ticker_ = std::thread([this] { tick(); });
    }
}

Progress::~Progress() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (ticker_.joinable()) {
        ticker_.join();
    }
    clear();
}

void Progress::start_key(std::size_t index, std::string label) {
    std::lock_guard lock(mutex_);
    index_ = index;
    label_ = std::move(label);
    detail_.clear();
    key_start_ = std::chrono::steady_clock::now();
    active_ = true;
    if (style_ == Style::lines) {
        std::cerr << "[" << index_ + 1 << "/" << total_ << "] " << label_ << std::endl;
    } else if (style_ == Style::live) {
        redraw_locked();
    }
}

void Progress::set_detail(std::string detail) {
    std::lock_guard lock(mutex_);
    detail_ = std::move(detail);
}

void Progress::finish_key(bool measured) {
    std::lock_guard lock(mutex_);
    if (measured) {
        ++measured_keys_;
        measured_time_ += std::chrono::steady_clock::now() - key_start_;
    }
    active_ = false;
    if (style_ == Style::live) {
        std::cerr << "\r\033[K" << std::flush;
    }
}

void Progress::clear() {
    std::lock_guard lock(mutex_);
    if (style_ == Style::live) {
        std::cerr << "\r\033[K" << std::flush;
    }
}

void Progress::redraw_locked() {
    if (!active_) {
        return;
    }
    const auto now = std::chrono::steady_clock::now();
    std::string line = "[" + std::to_string(index_ + 1) + "/" + std::to_string(total_) + "] " +
                       label_ + (detail_.empty() ? "" : ": " + detail_) + "  elapsed " +
                       seconds(now - run_start_);
    if (measured_keys_ > 0) {
        const auto per_key = measured_time_ / measured_keys_;
        const auto remaining = per_key * static_cast<long>(total_ - index_);
        line += "  ETA " + seconds(remaining);
    }
    std::cerr << "\r\033[K" << line << std::flush;
}

void Progress::tick() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        wake_.wait_for(lock, std::chrono::milliseconds(250));
        if (!stopping_) {
            redraw_locked();
        }
    }
}

}  // namespace spvtune::app
