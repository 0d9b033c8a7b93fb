#include "subprocess.hpp"

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <system_error>
#include <unistd.h>
#include <utility>

extern char** environ;

namespace spvtune::tune::testing {

Subprocess::Subprocess(const std::vector<std::string>& argv,
                       const std::optional<std::filesystem::path>& stderr_file) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        throw std::system_error(errno, std::generic_category(), "pipe");
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    if (stderr_file) {
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderr_file->c_str(),
                                         O_WRONLY | O_CREAT | O_TRUNC, 0644);
    }
    std::vector<char*> args;
    for (const std::string& arg : argv) {
        args.push_back(const_cast<char*>(arg.c_str()));
    }
    args.push_back(nullptr);
    const int error = ::posix_spawn(&pid_, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    stdout_fd_ = fds[0];
    if (error != 0) {
        ::close(stdout_fd_);
        throw std::system_error(error, std::generic_category(), "posix_spawn " + argv.at(0));
    }
}

Subprocess::~Subprocess() {
    if (pid_ > 0) {
        kill();
        wait();
    }
    if (stdout_fd_ >= 0) {
        ::close(stdout_fd_);
    }
}

bool Subprocess::fill() {
    char buffer[4096];
    for (;;) {
        const ssize_t got = ::read(stdout_fd_, buffer, sizeof buffer);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            return false;
        }
        buffered_.append(buffer, static_cast<std::size_t>(got));
        return true;
    }
}

std::string Subprocess::read_line() {
    std::size_t end = 0;
    while ((end = buffered_.find('\n')) == std::string::npos) {
        if (!fill()) {
            return std::exchange(buffered_, {});
        }
    }
    std::string line = buffered_.substr(0, end);
    buffered_.erase(0, end + 1);
    return line;
}

std::string Subprocess::read_stdout() {
    while (fill()) {
    }
    return std::exchange(buffered_, {});
}

void Subprocess::kill() {
    send(SIGKILL);
}

void Subprocess::send(int signal) {
    if (pid_ > 0) {
        ::kill(pid_, signal);
    }
}

int Subprocess::wait() {
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0) {
        if (errno != EINTR) {
            throw std::system_error(errno, std::generic_category(), "waitpid");
        }
    }
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace spvtune::tune::testing
