#include "chart_style.hpp"

namespace spvtune::html {

std::string_view chart_css() {
    return R"css(svg.chart { display: block; font: 12px system-ui, sans-serif; max-width: 100%; height: auto; }
svg.chart .grid { stroke: #e3e3e3; }
svg.chart .baseline { stroke: #888; }
svg.chart .tick { fill: #555; font-size: 11px; }
svg.chart .axis-title { fill: #333; font-size: 11px; }
svg.chart .label { fill: #222; }
svg.chart .label.winner, svg.chart .value.winner { font-weight: bold; }
svg.chart .bar { fill: #b9c8d8; }
svg.chart .bar.winner { fill: #3f9e5a; }
svg.chart .bar.tied { fill: #9fd3a9; }
svg.chart .ci { stroke: #1d2b3a; stroke-width: 1.5; fill: none; }
svg.chart .samples circle { fill: #d9480f; fill-opacity: 0.8; stroke: #fff; stroke-width: 0.6; }
svg.chart .value { fill: #333; }
svg.chart .cell { stroke: #fff; }
svg.chart .cell.missing { fill: #f2f2f2; stroke: #ccc; stroke-dasharray: 4 3; }
svg.chart .cell.failed { fill: #e7b3b3; }
svg.chart .cell.skipped, svg.chart .cell.not-run { fill: #dadada; }
svg.chart .cell.winner { stroke: #111; stroke-width: 3; }
svg.chart .cell-text { fill: #222; font-size: 11px; }
svg.chart .cell-text.winner { font-weight: bold; }
svg.chart .band { fill: #e9eef5; }
svg.chart .parity { stroke: #666; stroke-dasharray: 3 3; }
svg.chart .ratio { stroke: #fff; }
svg.chart .verdict-faster { stroke: #2b8a3e; fill: #2b8a3e; }
svg.chart .verdict-slower { stroke: #c92a2a; fill: #c92a2a; }
svg.chart .verdict-equivalent { stroke: #495057; fill: #495057; }
svg.chart .verdict-inconclusive { stroke: #e67700; fill: #e67700; }
svg.chart .ci.verdict-faster, svg.chart .ci.verdict-slower, svg.chart .ci.verdict-equivalent,
svg.chart .ci.verdict-inconclusive { fill: none; stroke-width: 2; }
svg.chart text.value[class*="verdict-"] { stroke: none; font-weight: bold; }
)css";
}

}  // namespace spvtune::html
