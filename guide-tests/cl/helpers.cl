// OpenCL C helpers for the guide's `#[opencl]` example.
#pragma once
float helper_triple(float a) { return 3.0f * a; }
