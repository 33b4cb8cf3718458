#pragma once

float helper_scale(float x, float by) { return by * x; }
