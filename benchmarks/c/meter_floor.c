/* The C floor for the meter (issue 20): what an X11 focus meter minimally
 * does per focus change, written directly on libxcb.
 *
 *   meter_floor
 *
 * Connects to $DISPLAY, selects PropertyNotify on the root window, and on
 * each change of _NET_ACTIVE_WINDOW reads the active window's id from the
 * root, then that window's WM_CLASS and _NET_WM_PID (both requests sent
 * before either reply is awaited). One thread, one connection, blocked in
 * xcb_wait_for_event between changes. It prints one line per change,
 * "<seq> <class> <pid> <events>", so that the run can check it saw every
 * change (events: the X events read since the last change, this one's
 * PropertyNotify included; the window manager changes other root
 * properties too), and
 * exits 0 when the X server goes away, 1 when it cannot start.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/xcb.h>

static xcb_atom_t intern(xcb_connection_t *connection, const char *name) {
  xcb_intern_atom_reply_t *reply =
      xcb_intern_atom_reply(connection, xcb_intern_atom(connection, 0, strlen(name), name), NULL);
  if (!reply) return XCB_ATOM_NONE;
  xcb_atom_t atom = reply->atom;
  free(reply);
  return atom;
}

int main(void) {
  xcb_connection_t *connection = xcb_connect(NULL, NULL);
  if (xcb_connection_has_error(connection)) {
    fprintf(stderr, "meter_floor: cannot connect to the X display\n");
    return 1;
  }
  xcb_window_t root = xcb_setup_roots_iterator(xcb_get_setup(connection)).data->root;
  xcb_atom_t active = intern(connection, "_NET_ACTIVE_WINDOW");
  xcb_atom_t pid_atom = intern(connection, "_NET_WM_PID");
  if (active == XCB_ATOM_NONE || pid_atom == XCB_ATOM_NONE) {
    fprintf(stderr, "meter_floor: cannot intern the EWMH atoms\n");
    return 1;
  }
  uint32_t mask = XCB_EVENT_MASK_PROPERTY_CHANGE;
  xcb_change_window_attributes(connection, root, XCB_CW_EVENT_MASK, &mask);
  xcb_flush(connection);
  /* Line-buffered: each change is one write, as a meter's log line would be. */
  setvbuf(stdout, NULL, _IOLBF, 0);
  printf("ready\n");

  unsigned long changes = 0, events = 0;
  xcb_generic_event_t *event;
  while ((event = xcb_wait_for_event(connection))) {
    events++;
    int is_change = (event->response_type & 0x7f) == XCB_PROPERTY_NOTIFY &&
                    ((xcb_property_notify_event_t *)event)->atom == active;
    free(event);
    if (!is_change) continue;

    xcb_get_property_reply_t *reply = xcb_get_property_reply(
        connection, xcb_get_property(connection, 0, root, active, XCB_ATOM_WINDOW, 0, 1), NULL);
    xcb_window_t window = XCB_WINDOW_NONE;
    if (reply && xcb_get_property_value_length(reply) == 4)
      window = *(xcb_window_t *)xcb_get_property_value(reply);
    free(reply);
    char class_name[256] = "";
    unsigned long pid = 0;
    if (window != XCB_WINDOW_NONE) {
      xcb_get_property_cookie_t class_cookie =
          xcb_get_property(connection, 0, window, XCB_ATOM_WM_CLASS, XCB_ATOM_STRING, 0, 64);
      xcb_get_property_cookie_t pid_cookie =
          xcb_get_property(connection, 0, window, pid_atom, XCB_ATOM_CARDINAL, 0, 1);
      xcb_get_property_reply_t *class_reply = xcb_get_property_reply(connection, class_cookie, NULL);
      if (class_reply) {
        /* WM_CLASS is "instance\0class\0": the class is the second string. */
        int length = xcb_get_property_value_length(class_reply);
        const char *value = xcb_get_property_value(class_reply);
        int first = (int)strnlen(value, length);
        if (first + 1 < length) {
          int size = (int)strnlen(value + first + 1, length - first - 1);
          if (size > (int)sizeof class_name - 1) size = sizeof class_name - 1;
          memcpy(class_name, value + first + 1, size);
          class_name[size] = 0;
        }
        free(class_reply);
      }
      xcb_get_property_reply_t *pid_reply = xcb_get_property_reply(connection, pid_cookie, NULL);
      if (pid_reply && xcb_get_property_value_length(pid_reply) == 4)
        pid = *(uint32_t *)xcb_get_property_value(pid_reply);
      free(pid_reply);
    }
    printf("%lu %s %lu %lu\n", ++changes, class_name[0] ? class_name : "-", pid, events);
    events = 0;
  }
  xcb_disconnect(connection);
  return 0;
}
