#ifndef CGIFLIB_SHIM_H
#define CGIFLIB_SHIM_H
#include <gif_lib.h>

#endif
