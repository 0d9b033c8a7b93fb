// The one source of an anchor target of cmake/SpvtunePrecompiledHeaders.cmake: the target
// exists to build a precompiled header that other targets reuse, and a target needs a source.
