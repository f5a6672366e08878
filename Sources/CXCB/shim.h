#ifndef SHIELDBRIDGE_CXCB_SHIM_H
#define SHIELDBRIDGE_CXCB_SHIM_H

// libxcb and the extensions the X11 backend uses: MIT-SCREEN-SAVER for the
// screen saver's state, X-Resource for the pid of a window's client, SYNC for
// the server's IDLETIME counter (input idle as alarms, without polling).
#include <stdlib.h>
#include <xcb/xcb.h>
#include <xcb/screensaver.h>
#include <xcb/res.h>
#include <xcb/sync.h>

// xcb hands out every reply and event in memory the caller frees with free().
static inline void CXCB_free(void *pointer) { free(pointer); }

// The extensions' ids are mutable C globals, which Swift 6 refuses to touch
// from concurrent code; xcb only reads them.
static inline xcb_extension_t *CXCB_screensaver_id(void) { return &xcb_screensaver_id; }
static inline xcb_extension_t *CXCB_res_id(void) { return &xcb_res_id; }
static inline xcb_extension_t *CXCB_sync_id(void) { return &xcb_sync_id; }

#endif
