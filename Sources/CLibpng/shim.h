#ifndef FPBRIDGE_CLIBPNG_SHIM_H
#define FPBRIDGE_CLIBPNG_SHIM_H

#include <png.h>

#endif
