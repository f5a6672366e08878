#ifndef SHIELDBRIDGE_CXCB_SHIM_H
#define SHIELDBRIDGE_CXCB_SHIM_H

// libxcb and the extensions the X11 backend uses: MIT-SCREEN-SAVER for input
// idle and the screen saver's state, X-Resource for the pid of a window's client.
#include <xcb/xcb.h>
#include <xcb/screensaver.h>
#include <xcb/res.h>

#endif
