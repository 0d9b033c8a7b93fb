// The macros the tree-sum kernels of configs/macro_reduction.json expect, as a project's shaders
// expect a shared prelude: the problem file gives this file as their "preamble", placed before
// the source, so the sources neither include nor define them.
#define LOAD(buffer, index) ((index) < p.n ? (buffer)[index] : 0.0)
#define SUM_PUSH_CONSTANTS layout(push_constant) uniform Pass { uint n; uint stride; } p
