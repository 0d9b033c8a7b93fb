#include "help_text.hpp"

namespace spvtune::app {

std::string exit_codes_help() {
    return "Exit codes:\n"
           "  0    success\n"
           "  1    the run failed: a key could not be tuned, a candidate hung or crashed its\n"
           "       worker, or a device, Vulkan or file error\n"
           "  2    bad usage or input: an unknown option or bad value, an invalid problem or\n"
           "       cache file, a --key or --tuner that matches nothing\n"
           "  130  tune was interrupted (Ctrl-C); every finished key is in the cache\n";
}

std::string environment_help() {
    return "Environment:\n"
           "  SPVTUNE_CACHE_DIR       the cache directory when --cache-dir is absent (default:\n"
           "                          $XDG_CACHE_HOME/spvtune, else $HOME/.cache/spvtune)\n"
           "  SPVTUNE_KERNEL_PATH     ':'-separated directories searched for SPIR-V files\n"
           "  SPVTUNE_AUTOTUNE_LEVEL  minimal|balanced|extensive|full: how coarsely bucketed\n"
           "                          parameters share cache entries (default: balanced)\n"
           "  SPVTUNE_VALIDATION      1: run with the Khronos validation layer (default: off)\n";
}

std::string tune_environment_help() {
    return "  SPVTUNE_BUILD_THREADS   tune: --build-threads when it is absent\n"
           "  SLURM_ARRAY_TASK_ID     tune without --shard: the shard is this Slurm array task,\n"
           "                          counted from SLURM_ARRAY_TASK_MIN (default: 0), of\n"
           "                          SLURM_ARRAY_TASK_COUNT shards\n"
           "  JOB_COMPLETION_INDEX    tune without --shard: the shard is this index (from 0) of a\n"
           "                          Kubernetes indexed Job, of --shard-count shards\n"
           "  CI_NODE_INDEX           tune without --shard: the shard is this GitLab parallel job\n"
           "                          (from 1), of CI_NODE_TOTAL shards\n"
           "  GLIBC_TUNABLES          tune and compare: a worker's C-library settings follow\n"
           "                          spvtune's (keep freed megabytes, ask for huge pages), so\n"
           "                          yours win; so do MALLOC_MMAP_THRESHOLD_ and\n"
           "                          MALLOC_TRIM_THRESHOLD_\n";
}

std::string footer_help(const std::string& more_environment) {
    return environment_help() + more_environment + "\n" + exit_codes_help();
}

}  // namespace spvtune::app
