#pragma once

// The smallest GLSL problem: one candidate, `scale.comp` beside the file, computing y from x over
// n = 256 elements with 64-wide workgroups and n as a push constant. Tests that only need some
// GLSL to compile (and its cache entries) write their own scale.comp next to it.

namespace spvtune::test {

inline constexpr const char* glsl_scale_problem = R"json({
    "name": "glsl-scale",
    "parameters": {"n": {"type": "int"}},
    "keys": {"list": [{"n": 256}]},
    "buffers": {
        "x": {"type": "f32", "count": "n", "init": {"random": {"seed": 1}}, "role": "input"},
        "y": {"type": "f32", "count": "n", "role": "output"}
    },
    "candidates": [{
        "name": "scale", "glsl": "scale.comp", "workgroups": ["ceil_div(n, 64)", 1, 1],
        "push_constants": [{"type": "u32", "value": "n"}], "bindings": {"0": "x", "1": "y"}
    }],
    "reference": {"candidate": "scale", "compare": {"y": {"exact": true}}}
})json";

}  // namespace spvtune::test
