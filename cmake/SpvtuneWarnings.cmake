# Warnings are errors in project code; third-party headers come in as SYSTEM includes and stay quiet.
add_library(spvtune_warnings INTERFACE)
target_compile_options(spvtune_warnings INTERFACE -Wall -Wextra -Wpedantic -Werror)
