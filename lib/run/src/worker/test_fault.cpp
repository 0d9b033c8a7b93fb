#include "worker/test_fault.hpp"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <utility>

#include <spvtune/vulkan/error.hpp>

namespace spvtune::run::worker {

void inject_test_fault(std::string_view op, std::string_view candidate) {
    const char* setting = std::getenv("SPVTUNE_TEST_WORKER_FAULT");
    if (setting == nullptr || *setting == '\0') {
        return;
    }
    const std::string_view value(setting);
    const auto colon = value.find(':');
    const std::string_view kind = value.substr(0, colon);
    if (colon != std::string_view::npos && value.substr(colon + 1) != candidate) {
        return;
    }
    const bool kernel = op == "run" || op == "measure";
    if (kind == "hang" && kernel) {
        while (true) {
            std::this_thread::sleep_for(std::chrono::hours(1));
        }
    }
    if (kind == "abort" && op == "measure") {
        std::abort();
    }
    if (kind == "crash-in-pipeline" && op == "prepare") {
        std::raise(SIGSEGV);
    }
    if (kind == "device-lost" && op == "run") {
        throw vulkan::DeviceLostError("vkQueueSubmit");
    }
    if (kind == "stop-group" && op == "measure") {
        // Once: as Ctrl-Z would, tune included, while it waits for this reply.
        static bool stopped = false;
        if (!std::exchange(stopped, true)) {
            ::kill(0, SIGSTOP);
        }
    }
}

namespace {

void log_test_line(std::string_view word, pid_t pid) {
    const char* file = std::getenv("SPVTUNE_TEST_WORKER_LOG");
    if (file == nullptr || *file == '\0') {
        return;
    }
    std::ofstream(file, std::ios::app) << word << ' ' << pid << '\n';
}

}  // namespace

void log_test_start() {
    log_test_line("start", ::getpid());
}

void log_test_spawn(pid_t pid) {
    log_test_line("spawn", pid);
}

}  // namespace spvtune::run::worker
