#pragma once

namespace spvtune::vulkan::detail {

/// In sanitizer builds, keeps every shared library loaded so far (the Vulkan loader's drivers
/// and layers, and what they pulled in, such as LLVM) mapped until the process exits.
///
/// The loader unloads a driver when the last instance is destroyed. LeakSanitizer runs at exit
/// and can then no longer name the module of an allocation the driver never freed, so the
/// suppressions (`leak:libvulkan_lvp.so`, `leak:libLLVM`) cannot match and every test that
/// touched a device reports a leak that is not ours. Pinned, the module keeps its name and the
/// suppressions apply, while leaks in project code stay visible. Outside sanitizer builds this
/// does nothing: applications get the loader's ordinary unloading.
void pin_loaded_libraries_for_leak_checks();

}  // namespace spvtune::vulkan::detail
