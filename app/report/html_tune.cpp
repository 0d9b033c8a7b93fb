#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "html_heatmaps.hpp"
#include "html_measured.hpp"
#include "html_report/candidate_chart.hpp"
#include "html_sections.hpp"
#include "key_table.hpp"

namespace spvtune::app {
namespace {

std::string seconds_text(double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f s", seconds);
    return text;
}

std::string scalar_text(const nlohmann::json& value) {
    return value.is_string() ? value.get<std::string>() : value.dump();
}

std::string table_row(std::string_view name, const std::string& value) {
    return "<tr><th>" + html_text(name) + "</th><td>" + html_text(value) + "</td></tr>\n";
}

/// The device's name and identity and the run's facts; the rest of the identity record folded
/// away (<details> opens without a script).
std::string device_table(const JsonView& report) {
    const JsonView device = report["device"];
    if (!device.json().is_object()) {
        device.fail("an object: the hardware identity record");
    }
    std::string rows;
    for (const char* name : {"device_name", "identity"}) {
        if (const auto value = device.find(name)) {
            rows += table_row(name, scalar_text(value->json()));
        }
    }
    for (const char* name :
         {"spvtune_version", "cache_file", "interrupted", "faulted_candidates"}) {
        if (const auto value = report.find(name)) {
            rows += table_row(name, scalar_text(value->json()));
        }
    }
    std::string record;
    for (const auto& [name, value] : device.json().items()) {
        if (name != "device_name" && name != "identity" && !value.is_structured()) {
            record += table_row(name, scalar_text(value));
        }
    }
    return "<table class=\"device\">\n" + rows + "</table>\n" +
           (record.empty() ? ""
                           : "<details><summary>The hardware identity record</summary>\n"
                             "<table class=\"device\">\n" +
                                 record + "</table>\n</details>\n");
}

/// The winner's time and its speedup over the key's reference when both were measured, else
/// why there is none.
struct KeyOutcome {
    std::string winner;
    std::optional<double> winner_ns;
    std::string speedup;
    /// The reference is ranked, but the cache entry that answered the key did not keep its
    /// statistics (only `tune --keep-ranking` keeps more than the winner's).
    bool reference_not_kept = false;
};

KeyOutcome key_outcome(const JsonView& key) {
    KeyOutcome outcome;
    if (const auto winner = key.find("winner")) {
        outcome.winner = winner->string();
    }
    const auto reference = key.find("reference");
    const std::string reference_name = reference ? reference->string() : "";
    std::optional<double> reference_ns;
    std::optional<JsonView> reference_candidate;
    for (const JsonView& candidate : key["candidates"].elements()) {
        const std::string name = candidate["name"].string();
        const auto times = measured(candidate);
        if (times && name == outcome.winner) {
            outcome.winner_ns = times->median_ns;
        }
        if (name == reference_name) {
            reference_candidate = candidate;
            if (times) {
                reference_ns = times->median_ns;
            }
        }
    }
    if (!outcome.winner_ns) {
        return outcome;  // nothing to compare: the key failed, or was not tuned
    }
    if (reference_ns) {
        outcome.speedup = outcome.winner == reference_name
                              ? "1.00x (the reference)"
                              : speedup_text(*reference_ns, *outcome.winner_ns);
    } else if (!reference_candidate) {
        outcome.speedup = "no reference";
    } else if (reference_candidate->find("rank")) {
        outcome.speedup = "not kept in the cache";
        outcome.reference_not_kept = true;
    } else {
        outcome.speedup = "reference " + (*reference_candidate)["status"].string();
    }
    return outcome;
}

std::string summary_table(const JsonView& report) {
    std::string rows;
    std::size_t keys = 0;
    std::size_t failed = 0;
    double seconds = 0;
    bool not_kept = false;
    for (const JsonView& problem : report["problems"].elements()) {
        const std::string problem_name = problem["name"].string();
        for (const JsonView& key : problem["keys"].elements()) {
            const KeyOutcome outcome = key_outcome(key);
            const std::string status = key["status"].string();
            const double elapsed = key["elapsed_s"].number();
            ++keys;
            failed += status == "failed" ? 1 : 0;
            seconds += elapsed;
            not_kept = not_kept || outcome.reference_not_kept;
            rows += "<tr><td>" + html_text(problem_name) + "</td><td><code>" +
                    html_text(key_text(key["key"])) + "</code></td><td class=\"status-" +
                    html_text(status) + "\">" + html_text(status) + "</td><td>" +
                    html_text(outcome.winner) + "</td><td class=\"number\">" +
                    (outcome.winner_ns ? html_text(format_duration_ns(*outcome.winner_ns)) : "") +
                    "</td><td class=\"number\">" + html_text(outcome.speedup) +
                    "</td><td class=\"number\">" + seconds_text(elapsed) + "</td></tr>\n";
        }
    }
    return "<table class=\"summary\">\n<tr><th>problem</th><th>key</th><th>status</th>"
           "<th>winner</th><th>winner's median</th><th>speedup over the reference</th>"
           "<th>tuning time</th></tr>\n" +
           rows + "<tr><th colspan=\"2\">" + std::to_string(keys) + (keys == 1 ? " key" : " keys") +
           "</th><th>" + std::to_string(failed) +
           " failed</th><th></th><th></th><th></th><th class=\"number\">" + seconds_text(seconds) +
           "</th></tr>\n</table>\n" +
           (not_kept ? "<p class=\"legend\">Not kept in the cache: the cache entry that answered "
                       "the key holds the winner's statistics alone, so the reference's time is "
                       "unknown; tune with <code class=\"option\">--keep-ranking</code> to keep "
                       "every measured candidate's.</p>\n"
                     : "");
}

std::string candidate_chart(const JsonView& key) {
    std::vector<html::CandidateRow> rows;
    for (const JsonView& candidate : key["candidates"].elements()) {
        const auto times = measured(candidate);
        if (!times) {
            continue;
        }
        html::CandidateRow row;
        row.name = candidate["name"].string();
        row.median_ns = times->median_ns;
        row.ci_low_ns = times->ci_low_ns;
        row.ci_high_ns = times->ci_high_ns;
        if (const auto samples = candidate.find("samples_ns")) {
            for (const JsonView& sample : samples->elements()) {
                row.samples_ns.push_back(sample.number());
            }
        }
        const std::string status = candidate["status"].string();
        row.mark = status == "winner" ? html::CandidateRow::Mark::winner
                   : status == "tied" ? html::CandidateRow::Mark::tied
                                      : html::CandidateRow::Mark::other;
        rows.push_back(std::move(row));
    }
    if (rows.empty()) {
        return "<p class=\"muted\">No candidate was measured.</p>\n";
    }
    return html::candidate_chart_svg(std::move(rows), format_duration_ns) +
           "<p class=\"legend\"><span class=\"swatch\" style=\"background:#3f9e5a\"></span>winner"
           "<span class=\"swatch\" style=\"background:#9fd3a9\"></span>tied with the winner"
           "<span class=\"swatch\" style=\"background:#b9c8d8\"></span>slower. Bars: median "
           "time per dispatch; whiskers: the confidence interval of the median; dots: this "
           "run's samples (none for a key answered by the cache).</p>\n";
}

std::string failures(const JsonView& key) {
    std::string items;
    for (const JsonView& candidate : key["candidates"].elements()) {
        if (const auto reason = candidate.find("reason")) {
            items += "<li><b>" + html_text(candidate["name"].string()) + "</b> (" +
                     html_text(candidate["status"].string()) +
                     "): " + html_prose(reason->string()) + "</li>\n";
        }
    }
    return items.empty()
               ? ""
               : "<h4>Failed or skipped</h4>\n<ul class=\"failures\">\n" + items + "</ul>\n";
}

std::string key_details(const JsonView& problem, const JsonView& key) {
    const std::string status = key["status"].string();
    std::string out = "<h3>" + html_text(problem["name"].string()) + " <code>" +
                      html_text(key_text(key["key"])) + "</code> <span class=\"status-" +
                      html_text(status) + "\">" + html_text(status) + "</span></h3>\n";
    if (const auto error = key.find("error")) {
        out += "<pre class=\"status-failed\">" + html_text(error->string()) + "</pre>\n";
    }
    std::string facts;
    for (const auto& [name, label] : {std::pair{"reference", "reference"}, std::pair{"ran", "ran"},
                                      std::pair{"tuned_at", "tuned at"}}) {
        if (const auto value = key.find(name)) {
            facts += std::string(label) + " " + html_text(value->string()) + " &#183; ";
        }
    }
    facts += "tuning time " + seconds_text(key["elapsed_s"].number());
    out += "<p class=\"muted\">" + facts + "</p>\n";
    return out + candidate_chart(key) + key_heatmaps(problem, key) + failures(key);
}

}  // namespace

std::string tune_section(const JsonView& report) {
    std::string out = device_table(report) + summary_table(report);
    for (const JsonView& problem : report["problems"].elements()) {
        for (const JsonView& key : problem["keys"].elements()) {
            out += key_details(problem, key);
        }
    }
    return out;
}

}  // namespace spvtune::app
