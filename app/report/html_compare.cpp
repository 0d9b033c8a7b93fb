#include <cstdio>
#include <string>
#include <vector>

#include "html_report/ratio_chart.hpp"
#include "html_sections.hpp"
#include "key_table.hpp"

namespace spvtune::app {
namespace {

std::string percent_text(double fraction) {
    char text[32];
    std::snprintf(text, sizeof text, "%g%%", fraction * 100);
    return text;
}

std::string settings_table(const JsonView& report) {
    std::string rows;
    auto row = [&rows](std::string_view name, const std::string& value) {
        rows += "<tr><th>" + html_text(name) + "</th><td>" + html_text(value) + "</td></tr>\n";
    };
    row("device", report["device"].string());
    if (const auto hardware = report.find("hardware")) {
        if (const auto identity = hardware->find("identity")) {
            row("identity", identity->string());
        }
    }
    row("mode", report["mode"].string());
    row("threshold", percent_text(report["threshold"].number()));
    const auto gate = report.find("fail_if_slower");
    row("fail if slower", gate ? percent_text(gate->number()) : "no gate");
    std::string counts;
    const JsonView summary = report["summary"];
    for (const char* name : {"faster", "slower", "equivalent", "inconclusive", "wrong_output",
                             "skipped", "failed", "regressions", "exit_code"}) {
        counts += std::string(counts.empty() ? "" : ", ") + name + " " +
                  std::to_string(static_cast<long long>(summary[name].number()));
    }
    row("summary", counts);
    return "<table class=\"settings\">\n" + rows + "</table>\n";
}

std::string warnings(const JsonView& report) {
    std::string items;
    if (const auto list = report.find("warnings")) {
        for (const JsonView& warning : list->elements()) {
            items += "<li>" + html_prose(warning.string()) + "</li>\n";
        }
    }
    return items.empty() ? "" : "<h4>Warnings</h4>\n<ul class=\"failures\">\n" + items + "</ul>\n";
}

std::string group_details(const JsonView& group, double threshold) {
    std::vector<html::RatioRow> rows;
    std::string unmeasured;
    for (const JsonView& key : group["keys"].elements()) {
        const std::string key_name = key_text(key["key"]);
        if (const auto error = key.find("error")) {
            unmeasured += "<li><code>" + html_text(key_name) +
                          "</code>: " + html_prose(error->string()) + "</li>\n";
        }
        const auto contenders = key.find("contenders");
        if (!contenders) {
            continue;
        }
        for (const JsonView& contender : contenders->elements()) {
            const std::string name = contender["name"].string();
            const auto verdict = contender.find("verdict");
            if (!verdict) {
                const auto message = contender.find("message");
                unmeasured += "<li><code>" + html_text(key_name) + "</code> <b>" + html_text(name) +
                              "</b> (" + html_text(contender["status"].string()) + ")" +
                              (message ? ": " + html_prose(message->string()) : "") + "</li>\n";
                continue;
            }
            rows.push_back({key_name + "  " + name, contender["ratio"].number(),
                            contender["ratio_low"].number(), contender["ratio_high"].number(),
                            verdict->string()});
        }
    }
    std::string out = "<h3>" + html_text(group["problem"].string()) + "</h3>\n<p class=\"muted\">" +
                      html_text(group["baseline_source"].string()) + " (baseline) against " +
                      html_text(group["contender_source"].string()) + "</p>\n";
    if (!rows.empty()) {
        out += html::ratio_chart_svg(rows, threshold) +
               "<p class=\"legend\">Dots: the contender's time / the baseline's; whiskers: its 95% "
               "interval; the shaded band: equivalent within the threshold.</p>\n";
    }
    if (!unmeasured.empty()) {
        out += "<h4>Not compared</h4>\n<ul class=\"failures\">\n" + unmeasured + "</ul>\n";
    }
    return out;
}

}  // namespace

std::string compare_section(const JsonView& report) {
    std::string out = settings_table(report) + warnings(report);
    const double threshold = report["threshold"].number();
    for (const JsonView& group : report["comparisons"].elements()) {
        out += group_details(group, threshold);
    }
    return out;
}

}  // namespace spvtune::app
