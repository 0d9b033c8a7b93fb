#include <optional>
#include <string>

#include "html_sections.hpp"
#include "key_table.hpp"

namespace spvtune::app {
namespace {

std::string time_cell(const std::optional<JsonView>& ns) {
    const std::optional<double> value = ns ? ns->optional_number() : std::nullopt;
    return "<td class=\"number\">" + (value ? html_text(format_duration_ns(*value)) : "") + "</td>";
}

std::string hardware_details(const JsonView& hardware) {
    std::string out = "<h3>" + html_text(hardware["device"].string()) + " <code>" +
                      html_text(hardware["hardware"].string()) + "</code></h3>\n";
    const std::vector<JsonView> entries = hardware["entries"].elements();
    if (entries.empty()) {
        return out + "<p class=\"muted\">No changes.</p>\n";
    }
    out +=
        "<table class=\"changes\">\n<tr><th>change</th><th>tuner</th><th>key</th><th>old "
        "winner</th><th>new winner</th><th>old time</th><th>new time</th><th>new vs "
        "old</th></tr>\n";
    for (const JsonView& entry : entries) {
        const auto old_ns = entry.find("old_ns");
        const auto new_ns = entry.find("new_ns");
        const std::string change = entry["change"].string();
        std::string speedup;
        // The speedup means something where the winner changed: a new kernel against the old,
        // unless the runs' own statistics could not tell the two apart (`within_noise`: absent
        // in reports of older versions, null where the change is significant).
        const auto noise = entry.find("within_noise");
        if (noise) {
            speedup = "within noise: " + noise->string();
        } else if (old_ns && new_ns && change == "winner changed") {
            speedup = speedup_text(old_ns->number(), new_ns->number());
        }
        const char* verdict = noise                                         ? ""
                              : speedup.find("slower") != std::string::npos ? " verdict-slower"
                                                                            : " verdict-faster";
        out += "<tr><td>" + html_text(change) + "</td><td>" + html_text(entry["tuner"].string()) +
               "</td><td><code>" + html_text(entry["key"].string()) + "</code></td><td>" +
               html_text(entry["old_winner"].string()) + "</td><td>" +
               html_text(entry["new_winner"].string()) + "</td>" + time_cell(old_ns) +
               time_cell(new_ns) + "<td class=\"number" + verdict + "\">" + html_text(speedup) +
               "</td></tr>\n";
    }
    return out + "</table>\n";
}

}  // namespace

std::string cache_diff_section(const JsonView& report) {
    std::string out;
    if (const auto notes = report.find("notes")) {
        std::string items;
        for (const JsonView& note : notes->elements()) {
            items += "<li>" + html_prose(note.string()) + "</li>\n";
        }
        if (!items.empty()) {
            out += "<ul class=\"failures\">\n" + items + "</ul>\n";
        }
    }
    for (const JsonView& hardware : report["hardware"].elements()) {
        out += hardware_details(hardware);
    }
    return out;
}

}  // namespace spvtune::app
