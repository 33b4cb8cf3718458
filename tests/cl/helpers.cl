#pragma once
#include "cl/scale.cl"

float helper_triple(float x) { return helper_scale(x, 3.0f); }
