#include "saved_results.hpp"

#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "activity.hpp"
#include "input_file.hpp"

namespace spvtune::app {
namespace {

/// A saved report, with the file it came from for messages.
struct SavedReport {
    std::string file;
    nlohmann::json json;

    [[noreturn]] void malformed(const std::string& pointer, const std::string& expected) const {
        throw std::runtime_error(file + ": " + pointer + ": expected " + expected +
                                 " (a report written by spvtune tune --json)");
    }

    /// The member `name` of the object at `pointer`, of the type `check` accepts.
    template <class Check>
    const nlohmann::json& member(const nlohmann::json& object, const std::string& pointer,
                                 const char* name, Check check, const std::string& what) const {
        if (!object.is_object()) {
            malformed(pointer, "an object");
        }
        const auto found = object.find(name);
        if (found == object.end() || !check(*found)) {
            malformed(pointer + "/" + name, what);
        }
        return *found;
    }
};

SavedReport read_report(const std::string& file) {
    SavedReport report{file, while_doing("reading the saved results " + file, [&] {
                           return nlohmann::json::parse(read_input_file(file, "saved results"),
                                                        nullptr, false);
                       })};
    if (report.json.is_discarded()) {
        throw std::runtime_error(file +
                                 ": not valid JSON (expected a report written by "
                                 "spvtune tune --json)");
    }
    return report;
}

bool is_array(const nlohmann::json& json) {
    return json.is_array();
}
bool is_object(const nlohmann::json& json) {
    return json.is_object();
}
bool is_string(const nlohmann::json& json) {
    return json.is_string();
}

/// One candidate's samples, by problem name, exact key and candidate name.
using SampleIndex =
    std::map<std::string, std::map<std::string, std::map<std::string, std::vector<double>>>>;

struct IndexedReport {
    SampleIndex samples;
    /// Keys in the order the report lists them, per problem (with the parsed key).
    std::map<std::string, std::vector<problem::ProblemKey>> keys;
    std::vector<std::string> problems;
};

IndexedReport index_report(const SavedReport& report, const KeyFilter& filter) {
    IndexedReport indexed;
    const nlohmann::json& problems =
        report.member(report.json, "", "problems", is_array, "an array");
    for (std::size_t p = 0; p < problems.size(); ++p) {
        const std::string problem_pointer = "/problems/" + std::to_string(p);
        const std::string name =
            report.member(problems[p], problem_pointer, "name", is_string, "a string");
        indexed.problems.push_back(name);
        const nlohmann::json& keys =
            report.member(problems[p], problem_pointer, "keys", is_array, "an array");
        for (std::size_t k = 0; k < keys.size(); ++k) {
            const std::string key_pointer = problem_pointer + "/keys/" + std::to_string(k);
            problem::ProblemKey key;
            try {
                key = report.member(keys[k], key_pointer, "key", is_object, "an object")
                          .get<problem::ProblemKey>();
            } catch (const nlohmann::json::exception&) {
                report.malformed(key_pointer + "/key", "an object of parameter values");
            }
            if (!filter.matches(key)) {
                continue;
            }
            indexed.keys[name].push_back(key);
            auto& by_candidate = indexed.samples[name][problem::to_string(key)];
            const auto candidates = keys[k].find("candidates");
            if (candidates == keys[k].end()) {
                continue;  // a cached or failed key: nothing was measured
            }
            if (!candidates->is_array()) {
                report.malformed(key_pointer + "/candidates", "an array");
            }
            for (std::size_t c = 0; c < candidates->size(); ++c) {
                const std::string pointer = key_pointer + "/candidates/" + std::to_string(c);
                const nlohmann::json& candidate = (*candidates)[c];
                const std::string candidate_name =
                    report.member(candidate, pointer, "name", is_string, "a string");
                const auto samples = candidate.find("samples_ns");
                if (samples == candidate.end()) {
                    continue;
                }
                try {
                    by_candidate[candidate_name] = samples->get<std::vector<double>>();
                } catch (const nlohmann::json::exception&) {
                    report.malformed(pointer + "/samples_ns", "an array of numbers");
                }
            }
        }
    }
    return indexed;
}

std::string device_name(const nlohmann::json& device) {
    if (device.is_object() && device.contains("device_name") && device["device_name"].is_string()) {
        return device["device_name"].get<std::string>();
    }
    return "";
}

run::ArmReport saved_arm(const std::string& name, const std::vector<double>& samples) {
    run::ArmReport arm;
    arm.name = name;
    arm.samples_ns = samples;
    return arm;
}

}  // namespace

CompareRun compare_saved_results(const std::string& old_file, const std::string& new_file,
                                 const KeyFilter& filter,
                                 const tune::ComparisonSettings& settings) {
    const SavedReport old_report = read_report(old_file);
    const SavedReport new_report = read_report(new_file);
    const IndexedReport old_index = index_report(old_report, filter);
    const IndexedReport new_index = index_report(new_report, filter);

    CompareRun run;
    run.mode = "results";
    run.settings = settings;
    const nlohmann::json old_device = old_report.json.value("device", nlohmann::json());
    const nlohmann::json new_device = new_report.json.value("device", nlohmann::json());
    run.device = device_name(new_device);
    run.hardware = new_device;
    if (old_device.value("identity", "") != new_device.value("identity", "") ||
        old_device.value("identity", "").empty()) {
        run.warnings.push_back("the two results come from different hardware (" +
                               device_name(old_device) + " and " + device_name(new_device) +
                               "): their ratios compare machines, not kernels");
    }
    run.warnings.push_back(
        "saved results were measured at different times: unlike a measured comparison, they "
        "cannot cancel drift between the runs (clocks, heat, other load)");

    for (const std::string& problem_name : old_index.problems) {
        const auto new_problem = new_index.samples.find(problem_name);
        if (new_problem == new_index.samples.end()) {
            run.warnings.push_back("problem " + problem_name + " is only in " + old_file);
            continue;
        }
        ComparisonGroup group{problem_name, old_file, new_file, {}};
        for (const problem::ProblemKey& key : old_index.keys.at(problem_name)) {
            const std::string key_text = problem::to_string(key);
            const auto new_key = new_problem->second.find(key_text);
            if (new_key == new_problem->second.end()) {
                run.warnings.push_back(problem_name + " " + key_text + " is only in " + old_file);
                continue;
            }
            for (const auto& [name, old_samples] :
                 old_index.samples.at(problem_name).at(key_text)) {
                const auto new_samples = new_key->second.find(name);
                if (new_samples == new_key->second.end() || old_samples.empty() ||
                    new_samples->second.empty()) {
                    continue;
                }
                run::KeyComparison comparison;
                comparison.key = key;
                comparison.arms = {saved_arm(name, old_samples),
                                   saved_arm(name, new_samples->second)};
                comparison.outcome =
                    tune::compare_samples({old_samples, new_samples->second}, settings);
                group.keys.push_back(std::move(comparison));
            }
        }
        run.groups.push_back(std::move(group));
    }
    for (const std::string& problem_name : new_index.problems) {
        if (!old_index.samples.contains(problem_name)) {
            run.warnings.push_back("problem " + problem_name + " is only in " + new_file);
        }
    }
    return run;
}

}  // namespace spvtune::app
