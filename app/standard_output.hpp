#pragma once

namespace spvtune::app {

/// Makes std::cout write to file descriptor 1 through a buffer that keeps the first write
/// error's reason, which C's stdio forgets once its buffer is dropped (a report larger than the
/// buffer would otherwise fail with no reason to give). Buffered like stdio: line by line on a
/// terminal, in blocks otherwise. Call once, before anything is written.
void capture_standard_output();

/// Flushes standard output and returns `exit_code` when everything written to it arrived;
/// otherwise says why (`spvtune: error: standard output: No space left on device`) and returns
/// a failure, so a full disk or a closed file never passes for a delivered report. Every
/// command's exit goes through here.
int finish_standard_output(int exit_code);

}  // namespace spvtune::app
