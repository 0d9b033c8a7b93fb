#include "worker/child_process.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include <spvtune/run/worker_protocol.hpp>

namespace spvtune::run::worker {
namespace {

/// Waits for `pid` up to `grace`; true when it was reaped, with its status.
bool wait_for(pid_t pid, std::chrono::milliseconds grace, int& status) {
    const auto until = std::chrono::steady_clock::now() + grace;
    while (true) {
        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid || (done < 0 && errno != EINTR)) {
            return true;
        }
        if (std::chrono::steady_clock::now() >= until) {
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

}  // namespace

std::string describe_exit(int status) {
    if (WIFSIGNALED(status)) {
        const int signal = WTERMSIG(status);
        const char* name = sigabbrev_np(signal);
        return "it was killed by signal " + std::to_string(signal) +
               (name != nullptr ? " (SIG" + std::string(name) + ")" : std::string());
    }
    if (WIFEXITED(status)) {
        return "it exited with status " + std::to_string(WEXITSTATUS(status));
    }
    return "it ended (wait status " + std::to_string(status) + ")";
}

ChildProcess::ChildProcess(const std::vector<std::string>& argv,
                           const std::vector<std::string>& environment) {
    int pair[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
        throw std::runtime_error(std::string("socketpair: ") + std::strerror(errno));
    }
    // Built before fork: the child may only make async-signal-safe calls.
    std::vector<char*> args;
    for (const std::string& arg : argv) {
        args.push_back(const_cast<char*>(arg.c_str()));
    }
    args.push_back(nullptr);
    std::vector<char*> variables;
    for (const std::string& variable : environment) {
        variables.push_back(const_cast<char*>(variable.c_str()));
    }
    variables.push_back(nullptr);
    const pid_t parent = ::getpid();
    pid_ = ::fork();
    if (pid_ < 0) {
        const int error = errno;
        ::close(pair[0]);
        ::close(pair[1]);
        throw std::runtime_error(std::string("fork: ") + std::strerror(error));
    }
    if (pid_ == 0) {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) {
            ::_exit(127);  // the parent died before prctl took effect
        }
        ::signal(SIGINT, SIG_IGN);
        ::signal(SIGPIPE, SIG_DFL);
        if (pair[1] == worker_fd) {
            ::fcntl(worker_fd, F_SETFD, 0);
        } else if (::dup2(pair[1], worker_fd) < 0) {
            ::_exit(127);
        }
        ::execve(args[0], args.data(), variables.data());
        ::_exit(127);
    }
    ::close(pair[1]);
    fd_ = pair[0];
}

ChildProcess::~ChildProcess() {
    // A healthy worker ends on its own when its socket closes, releasing the device cleanly.
    if (fd_ >= 0) {
        ::close(fd_);
        fd_ = -1;
    }
    reap(std::chrono::seconds(1));
}

std::string ChildProcess::stop(std::chrono::milliseconds grace) {
    if (pid_ > 0) {
        int status = 0;
        ::kill(pid_, SIGTERM);
        if (!wait_for(pid_, grace, status)) {
            ::kill(pid_, SIGKILL);
            while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
            }
        }
        ended_ = describe_exit(status);
        pid_ = -1;
    }
    if (fd_ >= 0) {
        ::close(fd_);
        fd_ = -1;
    }
    return ended_;
}

std::string ChildProcess::reap(std::chrono::milliseconds grace) {
    if (pid_ > 0) {
        int status = 0;
        if (wait_for(pid_, grace, status)) {
            ended_ = describe_exit(status);
            pid_ = -1;
        }
    }
    return stop(std::chrono::milliseconds(100));
}

}  // namespace spvtune::run::worker
