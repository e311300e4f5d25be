#ifndef CX11_SHIM_H
#define CX11_SHIM_H
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/keysym.h>

/// XDestroyImage is a macro, which Swift cannot call.
static inline void cx11_destroy_image(XImage *image) { XDestroyImage(image); }

#endif
