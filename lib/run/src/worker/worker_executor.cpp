#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <spvtune/base/digest.hpp>
#include <spvtune/base/duration_text.hpp>
#include <spvtune/problem/candidate_identity.hpp>
#include <spvtune/run/output_check.hpp>
#include <spvtune/run/worker_executor.hpp>
#include <spvtune/run/worker_protocol.hpp>
#include <spvtune/run/worker_server.hpp>

#include "worker/child_process.hpp"
#include "worker/test_fault.hpp"
#include "worker/watchdog.hpp"
#include "worker/worker_environment.hpp"

namespace spvtune::run {
namespace {

using worker::Message;

/// Long enough for a driver to load and a problem's SPIR-V to be read; not a kernel's time.
constexpr std::chrono::seconds start_timeout{120};
/// How long a worker may take to save its pipeline cache at the end.
constexpr std::chrono::seconds save_timeout{60};
/// How long a stopped worker gets to end on SIGTERM before SIGKILL.
constexpr std::chrono::milliseconds stop_grace{200};

}  // namespace

struct WorkerExecutor::Impl {
    const problem::Problem& problem;
    WorkerLaunch launch;

    std::mutex mutex;
    std::unique_ptr<worker::ChildProcess> child;
    /// Pipelines the running worker has built: (candidate, each step's specializations).
    std::set<std::pair<std::size_t, std::string>> prepared;
    /// Candidates that faulted, with the reason; never sent to a worker again.
    std::map<std::size_t, std::string> faulted;
    std::vector<CandidateFault> faults;
    worker::Watchdog watchdog;
    /// Wall time of prepare requests: the worker building pipelines or waiting for them.
    double build_seconds = 0;
    /// The references the running worker holds for checked runs, by their id there, oldest
    /// first (it keeps as many, worker::kept_references).
    std::vector<std::pair<std::shared_ptr<const CandidateOutputs>, std::uint64_t>> references;
    std::uint64_t next_reference_id = 0;
    /// The outputs of the running worker's last unchecked run, which it keeps: when they are a
    /// key's truth, it is told to keep them rather than sent them back.
    std::optional<CandidateOutputs> last_run;
    /// Whether the setup reached the worker launch_child() started; set until its answer is read.
    std::optional<tune::Status> setup_sent;

    Impl(const problem::Problem& p, WorkerLaunch l)
        : problem(p), launch(std::move(l)), watchdog(launch.kernel_timeout, launch.setup.batch) {}

    /// Starts a worker and sends it the setup, without waiting for its answer (await_ready).
    void launch_child() {
        child.reset();
        setup_sent.reset();
        prepared.clear();
        references.clear();
        last_run.reset();
        // The binary itself, whatever name or path it was started by.
        auto started_child = std::make_unique<worker::ChildProcess>(
            std::vector<std::string>{"/proc/self/exe", std::string(worker_argument)},
            worker::worker_environment());
        worker::log_test_spawn(started_child->pid());
        // Set together, and only once both are known: a child without setup_sent is one that
        // said it is ready.
        setup_sent =
            worker::write_message(started_child->fd(), worker::setup_message(launch.setup));
        child = std::move(started_child);
    }

    /// A worker to send requests to: the one started, once it said it is ready, or a new one.
    tune::Status started() {
        if (!child) {
            launch_child();
        }
        return setup_sent ? await_ready() : tune::ok();
    }

    /// Reads the answer of the worker launch_child() started; without a worker ready to serve
    /// the problem, ends it.
    tune::Status await_ready() {
        auto ready = read_ready();
        setup_sent.reset();
        std::string why;
        if (!ready) {
            why = ready.error().failure == worker::ReadFailure::timed_out
                      ? "it did not say it was ready within " +
                            std::to_string(start_timeout.count()) + " s"
                      : ready.error().message + " (" + child->reap(std::chrono::seconds(1)) + ")";
        } else if (!ready.value().header.value("ready", false)) {
            why = ready.value().header.value("error", "it did not say it was ready");
        } else if (ready.value().header.value("protocol", nlohmann::json()) !=
                   worker::protocol_version) {
            why = "it does not speak protocol " + std::to_string(worker::protocol_version);
        } else if (ready.value().header.value("candidates", "") !=
                   base::to_hex(candidate_list_checksum(problem))) {
            why = "its candidates differ from this process's: was " + problem.file.string() +
                  " edited during the run?";
        }
        if (!why.empty()) {
            child.reset();
            return tune::fail("the worker process did not start: " + why);
        }
        return tune::ok();
    }

    /// The answer to the setup launch_child() sent.
    tune::Result<Message, worker::ReadError> read_ready() {
        if (!*setup_sent) {
            return tune::make_unexpected(worker::ReadError{
                worker::ReadFailure::closed, "it took no setup: " + setup_sent->error()});
        }
        return worker::read_message(child->fd(), std::chrono::steady_clock::now() + start_timeout);
    }

    /// Ends the worker after a fault of `candidate`, which is never sent to a worker again; the
    /// reason starts with the fault's name ("timed out: ...").
    std::string fault(std::size_t candidate, FaultKind kind, const std::string& detail) {
        child.reset();
        std::string reason = std::string(fault_kind_name(kind)) + ": " + detail;
        faulted.emplace(candidate, reason);
        faults.push_back({candidate, problem.candidates[candidate].name, kind, reason});
        return reason;
    }

    /// Sends `request` about `candidate` and waits for the reply until `deadline` seconds from
    /// now; a worker that does not reply in time, dies or loses the device is a fault.
    tune::Result<Message> call(std::size_t candidate, Message request,
                               const worker::Allowance& allowance) {
        if (const auto found = faulted.find(candidate); found != faulted.end()) {
            return tune::fail("not run again after a fault earlier in this run: " + found->second);
        }
        if (auto ready = started(); !ready) {
            return tune::fail(ready.error());
        }
        const std::string op = request.header.value("op", "");
        request.header["candidate"] = candidate;
        if (!worker::write_message(child->fd(), request)) {
            return tune::fail(fault(candidate, FaultKind::crashed,
                                    "the worker was gone before " + op + " (" +
                                        child->reap(std::chrono::seconds(1)) + ")"));
        }
        const auto deadline = std::chrono::steady_clock::now() +
                              std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                  std::chrono::duration<double>(allowance.seconds));
        auto reply = worker::read_message(child->fd(), deadline);
        if (!reply) {
            if (reply.error().failure == worker::ReadFailure::timed_out) {
                child->stop(stop_grace);
                return tune::fail(fault(candidate, FaultKind::timed_out,
                                        op + " did not finish within " +
                                            base::duration_text(allowance.seconds) + " (" +
                                            allowance.why + "); the worker was killed"));
            }
            const std::string ended = child->reap(std::chrono::seconds(1));
            return tune::fail(fault(candidate, FaultKind::crashed,
                                    "the worker died during " + op + " (" + ended + "; " +
                                        reply.error().message + ")"));
        }
        const nlohmann::json& header = reply.value().header;
        if (header.value("device_lost", false)) {
            child->reap(std::chrono::seconds(1));
            return tune::fail(
                fault(candidate, FaultKind::device_lost, header.value("error", std::string())));
        }
        if (!header.value("ok", false)) {
            return tune::fail(header.value("error", "the worker failed without a reason"));
        }
        return std::move(reply.value());
    }

    /// Builds the candidate's pipeline in the worker unless it has: a pipeline build is not a
    /// kernel, so it gets its own generous deadline rather than eating into a kernel's.
    tune::Status ensure_prepared(const problem::ResolvedCandidate& candidate) {
        const nlohmann::json steps = worker::step_specializations_to_json(candidate.dispatches);
        // A step compiled per key has a module per key: the same specializations of another
        // module are another pipeline.
        std::string modules;
        for (const problem::ResolvedDispatch& dispatch : candidate.dispatches) {
            modules += std::to_string(dispatch.module->content_hash()) + ",";
        }
        auto slot = std::make_pair(candidate.candidate, steps.dump() + modules);
        if (child && prepared.contains(slot)) {
            return tune::ok();
        }
        Message request;
        // The key tells the worker which module a step compiled per key has.
        request.header = {{"op", "prepare"}, {"steps", steps}, {"key", candidate.key}};
        const auto start = std::chrono::steady_clock::now();
        auto reply = call(candidate.candidate, std::move(request), watchdog.prepare());
        build_seconds +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (!reply) {
            return tune::fail(reply.error());
        }
        prepared.insert(std::move(slot));
        return tune::ok();
    }

    /// Tells the worker which candidates come next. Only a hint: a worker that does not
    /// answer is stopped (the next call starts another) and no candidate is blamed.
    void hint(const KeyPlan& plan, std::span<const std::size_t> candidates) {
        nlohmann::json list = nlohmann::json::array();
        for (const std::size_t candidate : candidates) {
            if (!faulted.contains(candidate)) {
                list.push_back(candidate);
            }
        }
        if (!started()) {
            return;
        }
        Message request;
        request.header = {{"op", "prefetch"}, {"key", plan.key}, {"candidates", std::move(list)}};
        const auto allowance = watchdog.prepare();
        const auto deadline = std::chrono::steady_clock::now() +
                              std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                  std::chrono::duration<double>(allowance.seconds));
        if (!worker::write_message(child->fd(), request) ||
            !worker::read_message(child->fd(), deadline)) {
            child.reset();
        }
    }

    /// The worker's id of `reference`, sent to it (or kept from its last run) unless it holds
    /// it; none when the worker cannot take it (it is then stopped, and no candidate blamed).
    std::optional<std::uint64_t> reference_id(
        const std::shared_ptr<const CandidateOutputs>& reference) {
        for (const auto& [held, id] : references) {
            if (held == reference) {
                return id;
            }
        }
        if (!started()) {
            return std::nullopt;
        }
        const std::uint64_t id = next_reference_id++;
        Message request;
        if (last_run && same_outputs(*last_run, *reference)) {
            request.header = {{"op", "keep_reference"}, {"id", id}};
        } else {
            request = worker::reference_message(id, *reference);
        }
        last_run.reset();
        const auto allowance = watchdog.prepare();
        const auto deadline = std::chrono::steady_clock::now() +
                              std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                  std::chrono::duration<double>(allowance.seconds));
        if (!worker::write_message(child->fd(), request)) {
            child.reset();
            return std::nullopt;
        }
        auto reply = worker::read_message(child->fd(), deadline);
        if (!reply || !reply.value().header.value("ok", false)) {
            child.reset();
            return std::nullopt;
        }
        if (references.size() >= worker::kept_references) {
            references.erase(references.begin());  // the worker lets its oldest go too
        }
        references.emplace_back(reference, id);
        return id;
    }

    /// Has the worker save its pipeline cache, which may take a while for a large one, before
    /// the socket closes: a closed socket gives it only a moment to end.
    void save_pipeline_cache() {
        if (setup_sent) {
            // Started early and never asked anything: it built nothing to save, and waiting for
            // it to finish loading a driver only to end would hold up this process's exit.
            child->stop(stop_grace);
            child.reset();
            setup_sent.reset();
        }
        if (!child) {
            return;
        }
        Message request;
        request.header = {{"op", "save"}};
        if (!worker::write_message(child->fd(), request) ||
            !worker::read_message(child->fd(), std::chrono::steady_clock::now() + save_timeout)) {
            child.reset();
        }
    }

    /// A run or measure request: prepared first, then sent with the watchdog's allowance.
    tune::Result<Message> kernel_call(const problem::ResolvedCandidate& candidate,
                                      const KeyPlan& plan, const char* op,
                                      const worker::Allowance& allowance,
                                      const nlohmann::json& arguments = nlohmann::json::object()) {
        if (auto prepared_now = ensure_prepared(candidate); !prepared_now) {
            return tune::fail(prepared_now.error());
        }
        Message request;
        request.header = arguments;
        request.header["op"] = op;
        request.header["key"] = plan.key;
        return call(candidate.candidate, std::move(request), allowance);
    }
};

WorkerExecutor::WorkerExecutor(const problem::Problem& problem, WorkerLaunch launch)
    : impl_(std::make_unique<Impl>(problem, std::move(launch))) {}

void WorkerExecutor::start_early() {
    std::lock_guard lock(impl_->mutex);
    if (impl_->child) {
        return;
    }
    try {
        impl_->launch_child();
    } catch (const std::runtime_error&) {
        // No process could be made (launch_child leaves none): the first request tries again,
        // and says why it could not.
    }
}

WorkerExecutor::~WorkerExecutor() {
    impl_->save_pipeline_cache();
}

tune::Result<CandidateOutputs> WorkerExecutor::run(const problem::ResolvedCandidate& candidate,
                                                   const KeyPlan& plan) {
    std::lock_guard lock(impl_->mutex);
    Impl& impl = *impl_;
    const auto start = std::chrono::steady_clock::now();
    impl.last_run.reset();  // set again only from this run's reply, as the worker keeps it
    auto reply = impl.kernel_call(candidate, plan, "run", impl.watchdog.run(plan.key));
    if (!reply) {
        return tune::fail(reply.error());
    }
    impl.watchdog.ran(plan.key, std::chrono::steady_clock::now() - start);
    auto outputs = worker::outputs_from_reply(std::move(reply.value()),
                                              impl.problem.reference.compare.size(), nullptr);
    if (outputs) {
        impl.last_run = outputs.value();
    }
    return outputs;
}

tune::Result<CandidateOutputs> WorkerExecutor::run_checked(
    const problem::ResolvedCandidate& candidate, const KeyPlan& plan,
    const std::shared_ptr<const CandidateOutputs>& reference) {
    std::unique_lock lock(impl_->mutex);
    Impl& impl = *impl_;
    const std::optional<std::uint64_t> id =
        impl.faulted.contains(candidate.candidate) ? std::nullopt : impl.reference_id(reference);
    if (!id) {
        lock.unlock();
        return run(candidate, plan);
    }
    const auto start = std::chrono::steady_clock::now();
    auto reply =
        impl.kernel_call(candidate, plan, "run", impl.watchdog.run(plan.key), {{"check", *id}});
    if (!reply) {
        return tune::fail(reply.error());
    }
    impl.watchdog.ran(plan.key, std::chrono::steady_clock::now() - start);
    // A worker that no longer held the reference (it was started afresh) answers unchecked.
    return worker::outputs_from_reply(std::move(reply.value()),
                                      impl.problem.reference.compare.size(), reference);
}

tune::Result<tune::Sample> WorkerExecutor::measure(const problem::ResolvedCandidate& candidate,
                                                   const KeyPlan& plan, std::uint32_t runs) {
    std::lock_guard lock(impl_->mutex);
    Impl& impl = *impl_;
    auto reply = impl.kernel_call(candidate, plan, "measure",
                                  impl.watchdog.measure(plan.key, candidate.candidate, runs),
                                  {{"runs", runs}});
    if (!reply) {
        return tune::fail(reply.error());
    }
    auto sample = worker::sample_from_json(reply.value().header.value("sample", nlohmann::json()));
    if (sample) {
        impl.watchdog.measured(plan.key, candidate.candidate, sample.value());
    }
    return sample;
}

tune::Result<std::vector<tune::Sample>> WorkerExecutor::measure_samples(
    const problem::ResolvedCandidate& candidate, const KeyPlan& plan, std::uint32_t runs,
    std::uint32_t samples) {
    std::lock_guard lock(impl_->mutex);
    Impl& impl = *impl_;
    auto reply =
        impl.kernel_call(candidate, plan, "measure",
                         impl.watchdog.measure(plan.key, candidate.candidate, runs, samples),
                         {{"runs", runs}, {"samples", samples}});
    if (!reply) {
        return tune::fail(reply.error());
    }
    auto taken = worker::samples_from_json(reply.value().header.value("samples", nlohmann::json()),
                                           samples, runs);
    if (taken) {
        for (const tune::Sample& sample : taken.value()) {
            impl.watchdog.measured(plan.key, candidate.candidate, sample);
        }
    }
    return taken;
}

tune::Status WorkerExecutor::prepare(const problem::ResolvedCandidate& candidate) {
    std::lock_guard lock(impl_->mutex);
    return impl_->ensure_prepared(candidate);
}

void WorkerExecutor::prefetch(const KeyPlan& plan, std::span<const std::size_t> candidates) {
    std::lock_guard lock(impl_->mutex);
    impl_->hint(plan, candidates);
}

double WorkerExecutor::pipeline_build_seconds() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->build_seconds;
}

std::vector<CandidateFault> WorkerExecutor::faults() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->faults;
}

}  // namespace spvtune::run
