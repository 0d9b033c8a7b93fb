#include <spvtune/tune/statistics.hpp>

#include "compare_reports.hpp"

namespace spvtune::app {
namespace {

nlohmann::json arm_json(const run::ArmReport& arm) {
    const tune::SampleStatistics statistics = tune::summarize(arm.samples_ns);
    nlohmann::json json = {{"name", arm.name},
                           {"status", run::arm_status_name(arm.status)},
                           {"reference", arm.reference},
                           {"samples_ns", arm.samples_ns}};
    if (!arm.message.empty()) {
        json["message"] = arm.message;
    }
    if (!arm.samples_ns.empty()) {
        json["median_ns"] = statistics.median_ns;
        json["cv"] = tune::coefficient_of_variation(arm.samples_ns);
    }
    return json;
}

nlohmann::json key_json(const CompareRun& run, const run::KeyComparison& key) {
    nlohmann::json json = {{"key", key.key}, {"elapsed_s", key.elapsed_s}};
    if (key.error) {
        json["error"] = *key.error;
    }
    if (key.arms.empty()) {
        return json;
    }
    json["baseline"] = arm_json(key.arms.front());
    json["baseline"]["cv"] = key.outcome.baseline_cv;
    json["rounds"] = key.outcome.rounds;
    nlohmann::json contenders = nlohmann::json::array();
    for (std::size_t arm = 1; arm < key.arms.size(); ++arm) {
        nlohmann::json contender = arm_json(key.arms[arm]);
        if (const tune::ContenderComparison* verdict = find_verdict(key, arm)) {
            contender["ratio"] = verdict->interval.ratio;
            contender["ratio_low"] = verdict->interval.low;
            contender["ratio_high"] = verdict->interval.high;
            contender["verdict"] = tune::verdict_name(verdict->verdict);
            contender["coverage"] = verdict->coverage;
            contender["p_value"] = verdict->p_value;
            contender["samples_to_settle"] = verdict->samples_to_settle
                                                 ? nlohmann::json(*verdict->samples_to_settle)
                                                 : nlohmann::json(nullptr);
        }
        const auto failure = regression(run, key, arm);
        contender["regression"] = failure.has_value();
        if (failure) {
            contender["regression_reason"] = *failure;
        }
        contenders.push_back(std::move(contender));
    }
    json["contenders"] = std::move(contenders);
    return json;
}

}  // namespace

nlohmann::json compare_json(const CompareRun& run) {
    const CompareSummary summary = summarize(run);
    nlohmann::json groups = nlohmann::json::array();
    for (const ComparisonGroup& group : run.groups) {
        nlohmann::json keys = nlohmann::json::array();
        for (const run::KeyComparison& key : group.keys) {
            keys.push_back(key_json(run, key));
        }
        groups.push_back({{"problem", group.problem},
                          {"baseline_source", group.baseline_source},
                          {"contender_source", group.contender_source},
                          {"keys", std::move(keys)}});
    }
    return {
        {"schema_version", 1},
        {"command", "compare"},
        {"spvtune_version", SPVTUNE_VERSION},
        {"mode", run.mode},
        {"device", run.device},
        {"hardware", run.hardware},
        {"threshold", run.settings.threshold},
        {"fail_if_slower",
         run.fail_if_slower ? nlohmann::json(*run.fail_if_slower) : nlohmann::json(nullptr)},
        {"interval", interval_method(run)},
        {"family",
         {{"method", "holm"},
          {"size", run.family.size},
          {"confidence", 1 - run.family.family_level},
          {"looks", run.family.looks},
          {"look_level", run.family.look_level},
          {"description", family_method(run)}}},
        {"inconclusive", inconclusive_policy_name(run.inconclusive)},
        {"budget_s", run.budget_s ? nlohmann::json(*run.budget_s) : nlohmann::json(nullptr)},
        {"warnings", run.warnings},
        {"added", run.added},
        {"removed", run.removed},
        {"comparisons", std::move(groups)},
        {"summary",
         {{"faster", summary.faster},
          {"slower", summary.slower},
          {"equivalent", summary.equivalent},
          {"inconclusive", summary.inconclusive},
          {"wrong_output", summary.wrong_output},
          {"skipped", summary.skipped},
          {"failed", summary.failed},
          {"regressions", summary.regressions},
          {"exit_code", compare_exit_code(run, summary)}}},
    };
}

}  // namespace spvtune::app
