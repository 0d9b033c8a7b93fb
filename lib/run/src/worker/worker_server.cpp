#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <spvtune/base/digest.hpp>
#include <spvtune/cache/pipeline_cache_file.hpp>
#include <spvtune/problem/candidate_identity.hpp>
#include <spvtune/run/device_bridge.hpp>
#include <spvtune/run/device_executor.hpp>
#include <spvtune/run/device_limits.hpp>
#include <spvtune/run/kept_pipeline_cache.hpp>
#include <spvtune/run/key_plan.hpp>
#include <spvtune/run/output_check.hpp>
#include <spvtune/run/problem_runner.hpp>
#include <spvtune/run/worker_protocol.hpp>
#include <spvtune/run/worker_server.hpp>
#include <spvtune/vulkan/error.hpp>
#include <spvtune/vulkan/selected_device.hpp>

#include "fence_timeout.hpp"
#include "worker/test_fault.hpp"

namespace spvtune::run {
namespace {

using worker::Message;

Message failure(const std::string& error) {
    Message reply;
    reply.header = {{"ok", false}, {"error", error}};
    return reply;
}

/// Serves one worker's requests; one per process.
class Server {
  public:
    Server(const problem::Problem& problem, vulkan::Device& device, const worker::Setup& setup)
        : problem_(problem),
          setup_(setup),
          limits_(DeviceLimits::from(device.info())),
          kept_(keep_pipelines(device, setup)),
          executor_(
              problem, device, setup.batch, default_max_prepared_candidates,
              {kept_.get(), setup.build_threads.value_or(default_build_threads(device.info()))}) {}

    Message handle(const Message& request) {
        const nlohmann::json& header = request.header;
        const std::string op = header.value("op", "");
        if (op == "prefetch") {
            return prefetch(header.at("candidates"), header.at("key").get<problem::ProblemKey>());
        }
        if (op == "save") {
            // Before the tuner closes the socket: it then gives the worker only a moment to end.
            if (kept_) {
                kept_->save();
            }
            Message reply;
            reply.header["ok"] = true;
            return reply;
        }
        if (op == "reference" || op == "keep_reference") {
            return keep_reference(request, op == "keep_reference");
        }
        const std::size_t candidate = header.value("candidate", std::size_t{0});
        if (candidate >= problem_.candidates.size()) {
            return failure("no candidate #" + std::to_string(candidate));
        }
        worker::inject_test_fault(op, problem_.candidates[candidate].name);
        if (op == "prepare") {
            return prepare(candidate, header.at("steps"),
                           header.at("key").get<problem::ProblemKey>());
        }
        const problem::ResolvedCandidate* resolved =
            find(candidate, header.at("key").get<problem::ProblemKey>());
        if (resolved == nullptr) {
            return failure("the worker's plan does not run " + problem_.candidates[candidate].name);
        }
        Message reply;
        if (op == "run") {
            const std::shared_ptr<const CandidateOutputs> reference = checked_against(header);
            auto outputs = reference ? executor_.run_checked(*resolved, *plan_, reference)
                                     : executor_.run(*resolved, *plan_);
            if (!outputs) {
                return failure(outputs.error());
            }
            return run_reply(header, reference.get(), std::move(outputs.value()));
        }
        if (op == "measure" && header.contains("samples")) {
            auto taken =
                executor_.measure_samples(*resolved, *plan_, header.at("runs").get<std::uint32_t>(),
                                          header.at("samples").get<std::uint32_t>());
            if (!taken) {
                return failure(taken.error());
            }
            reply.header["samples"] = nlohmann::json::array();
            for (const tune::Sample& sample : taken.value()) {
                reply.header["samples"].push_back(worker::sample_to_json(sample));
            }
        } else if (op == "measure") {
            const auto runs = header.value("runs", own_batch);
            auto sample = executor_.measure(*resolved, *plan_, runs);
            if (!sample) {
                return failure(sample.error());
            }
            reply.header["sample"] = worker::sample_to_json(sample.value());
        } else {
            return failure("unknown request '" + op + "'");
        }
        reply.header["ok"] = true;
        return reply;
    }

    bool device_lost() const { return executor_.device_lost(); }

  private:
    /// The reference outputs a run request names to be checked against, when this worker holds
    /// them; null when it names none or one this worker does not hold.
    std::shared_ptr<const CandidateOutputs> checked_against(const nlohmann::json& header) const {
        const std::optional<std::uint64_t> id = check_id(header);
        const auto found = id ? references_.find(*id) : references_.end();
        return found == references_.end() ? nullptr : found->second;
    }

    /// The id of the reference a run request names to be checked against; none when it names
    /// none (or not as an id).
    static std::optional<std::uint64_t> check_id(const nlohmann::json& header) {
        const auto check = header.find("check");
        if (check == header.end() || !check->is_number_unsigned()) {
            return std::nullopt;
        }
        return check->get<std::uint64_t>();
    }

    /// A run's outputs: compared here with `reference` when the request named one this worker
    /// holds (only a mismatch's buffers then travel), else sent back whole.
    Message run_reply(const nlohmann::json& header, const CandidateOutputs* reference,
                      CandidateOutputs outputs) {
        if (reference != nullptr) {
            std::optional<std::string> mismatch = compare_outputs(problem_, *reference, outputs);
            return worker::outputs_reply(std::move(outputs), std::move(mismatch));
        }
        if (!check_id(header)) {
            last_run_ = outputs;  // it may be the key's truth: keep_reference takes it
        }
        return worker::outputs_reply(std::move(outputs), std::nullopt);
    }

    /// Keeps a reference's outputs as `id` for checked runs: the ones sent, or (keep) this
    /// worker's last unchecked run, which the tuner found to be the truth.
    Message keep_reference(const Message& request, bool keep) {
        std::pair<std::uint64_t, CandidateOutputs> reference;
        if (keep) {
            const auto id = request.header.find("id");
            if (id == request.header.end() || !id->is_number_unsigned() || !last_run_) {
                return failure("garbled keep_reference request, or no unchecked run to keep");
            }
            reference = {id->get<std::uint64_t>(), std::move(*last_run_)};
            last_run_.reset();
        } else {
            auto sent = worker::reference_from_message(request, problem_.reference.compare.size());
            if (!sent) {
                return failure(sent.error());
            }
            reference = std::move(sent.value());
        }
        if (references_.size() >= worker::kept_references) {
            references_.erase(references_.begin());  // the oldest id
        }
        references_.insert_or_assign(
            reference.first, std::make_shared<const CandidateOutputs>(std::move(reference.second)));
        Message reply;
        reply.header["ok"] = true;
        return reply;
    }

    static std::unique_ptr<KeptPipelineCache> keep_pipelines(vulkan::Device& device,
                                                             const worker::Setup& setup) {
        if (setup.pipeline_cache_dir.empty()) {
            return nullptr;
        }
        KeptPipelineCache::Note note;
        if (setup.notes) {
            note = [](const std::string& text) { std::cerr << "spvtune: note: " << text << '\n'; };
        }
        const tune::HardwareIdentity hardware = hardware_identity(device.info().identity);
        return std::make_unique<KeptPipelineCache>(
            device, setup.pipeline_cache_dir / cache::pipeline_cache_file_name(hardware), note);
    }

    /// A hint, answered at once: the pipelines are built on the executor's build threads.
    Message prefetch(const nlohmann::json& candidates, const problem::ProblemKey& key) {
        if (!plan_ || plan_->key != key) {
            plan_ = plan_key(problem_, key, &limits_, setup_.level);
        }
        std::vector<std::size_t> list;
        for (const nlohmann::json& candidate : candidates) {
            if (candidate.is_number_unsigned() &&
                candidate.get<std::size_t>() < problem_.candidates.size()) {
                list.push_back(candidate.get<std::size_t>());
            }
        }
        executor_.prefetch(*plan_, list);
        Message reply;
        reply.header["ok"] = true;
        return reply;
    }

    Message prepare(std::size_t candidate, const nlohmann::json& steps,
                    const problem::ProblemKey& key) {
        auto list = worker::step_specializations_from_json(steps);
        if (!list) {
            return failure(list.error());
        }
        const problem::CandidateFamily& family =
            problem_.families[problem_.candidates[candidate].family];
        problem::ResolvedCandidate resolved;
        resolved.name = problem_.candidates[candidate].name;
        resolved.candidate = candidate;
        resolved.dispatches = std::move(list.value());
        for (problem::ResolvedDispatch& dispatch : resolved.dispatches) {
            if (dispatch.step >= family.steps.size()) {
                return failure(resolved.name + " has no step " + std::to_string(dispatch.step));
            }
            dispatch.module = family.steps[dispatch.step].module;
            dispatch.entry = family.steps[dispatch.step].entry;
            if (!dispatch.module) {
                dispatch.module = planned_module(candidate, key, dispatch.step);
                if (!dispatch.module) {
                    return failure("the worker's plan does not run " + resolved.name + " for key " +
                                   to_string(key));
                }
            }
        }
        if (auto prepared = executor_.prepare(resolved); !prepared) {
            return failure(prepared.error());
        }
        // Under the build's deadline rather than the first run's: a driver that compiles at
        // the first dispatch compiles now.
        if (const problem::ResolvedCandidate* planned = find(candidate, key)) {
            if (auto warmed = executor_.warm_up(*planned, *plan_); !warmed) {
                return failure(warmed.error());
            }
        }
        Message reply;
        reply.header["ok"] = true;
        return reply;
    }

    /// The module of `step` of `candidate` in the key's plan: for a step compiled per key, the
    /// one this worker compiled for the key. Null when the plan does not run the candidate.
    std::shared_ptr<const vulkan::SpirvModule> planned_module(std::size_t candidate,
                                                              const problem::ProblemKey& key,
                                                              std::size_t step) {
        if (const problem::ResolvedCandidate* planned = find(candidate, key)) {
            for (const problem::ResolvedDispatch& dispatch : planned->dispatches) {
                if (dispatch.step == step) {
                    return dispatch.module;
                }
            }
        }
        return nullptr;
    }

    /// The candidate in this key's plan, planned as the tuner planned it (same file, device
    /// and level); the last key's plan is kept, since a key's requests come together.
    const problem::ResolvedCandidate* find(std::size_t candidate, const problem::ProblemKey& key) {
        if (!plan_ || plan_->key != key) {
            plan_ = plan_key(problem_, key, &limits_, setup_.level);
        }
        for (const problem::ResolvedCandidate& resolved : plan_->runnable) {
            if (resolved.candidate == candidate) {
                return &resolved;
            }
        }
        return nullptr;
    }

    const problem::Problem& problem_;
    worker::Setup setup_;
    DeviceLimits limits_;
    std::unique_ptr<KeptPipelineCache> kept_;  ///< before the executor, which uses it
    DeviceExecutor executor_;
    std::optional<KeyPlan> plan_;
    /// The references checked runs are compared with, by the tuner's id (it numbers them in
    /// order, so the first is the oldest).
    std::map<std::uint64_t, std::shared_ptr<const CandidateOutputs>> references_;
    /// The outputs of the last unchecked run, until a keep_reference or the next such run.
    std::optional<CandidateOutputs> last_run_;
};

/// Says it is ready, then answers the tuner's requests until it closes the socket; returns the
/// process exit code.
int serve(const problem::Problem& problem, vulkan::Device& device, const worker::Setup& setup,
          int fd) {
    Server server(problem, device, setup);
    Message ready;
    ready.header = {{"ready", true},
                    {"protocol", worker::protocol_version},
                    {"candidates", base::to_hex(candidate_list_checksum(problem))}};
    if (!worker::write_message(fd, ready)) {
        return 1;
    }
    while (true) {
        auto request = worker::read_message(fd, std::nullopt);
        if (!request) {
            return request.error().failure == worker::ReadFailure::closed ? 0 : 3;
        }
        Message reply;
        bool lost = false;
        try {
            reply = server.handle(request.value());
            lost = server.device_lost();
        } catch (const vulkan::DeviceLostError& error) {
            reply = failure(error.what());
            lost = true;
        } catch (const std::exception& error) {
            reply = failure(std::string("the worker failed: ") + error.what());
        }
        if (lost) {
            // Nothing more can run on this device: say so, and let the tuner start afresh.
            reply.header["device_lost"] = true;
        }
        if (!worker::write_message(fd, reply) || lost) {
            return lost ? 4 : 1;
        }
    }
}

/// Tells the tuner why the worker could not start, so it reports that rather than a bare exit.
void report_start_failure(int fd, const std::string& message) {
    [[maybe_unused]] const auto written = worker::write_message(fd, failure(message));
}

}  // namespace

int worker_main(int fd) {
    worker::log_test_start();
    auto request = worker::read_message(fd, std::nullopt);
    if (!request) {
        return request.error().failure == worker::ReadFailure::closed ? 0 : 3;
    }
    auto setup = worker::setup_from_message(request.value());
    if (!setup) {
        report_start_failure(fd, setup.error());
        return 2;
    }
    try {
        const problem::Problem problem =
            problem::load_problem(setup.value().problem_file, setup.value().load);
        vulkan::SelectedDevice selected(setup.value().device, vulkan::DeviceAccess::logical,
                                        {.fence_timeout = setup.value().fence_timeout,
                                         .fence_timeout_hint = std::string(fence_timeout_hint)});
        return serve(problem, selected.device(), setup.value(), fd);
    } catch (const std::exception& error) {
        report_start_failure(fd, error.what());
        return 1;
    }
}

}  // namespace spvtune::run
