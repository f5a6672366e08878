#ifndef CDBUS_SHIM_H
#define CDBUS_SHIM_H

#include <dbus/dbus.h>
#include <stdint.h>
#include <sys/eventfd.h>

/* Shims for what Swift cannot call or spell: libdbus's constants are macros,
 * some of them string macros that Swift does not import. */

static inline int CDBus_timeoutUseDefault(void) { return DBUS_TIMEOUT_USE_DEFAULT; }
static inline int CDBus_timeoutInfinite(void) { return DBUS_TIMEOUT_INFINITE; }

static inline const char *CDBus_serviceDBus(void) { return DBUS_SERVICE_DBUS; }
static inline const char *CDBus_pathDBus(void) { return DBUS_PATH_DBUS; }
static inline const char *CDBus_interfaceDBus(void) { return DBUS_INTERFACE_DBUS; }
static inline const char *CDBus_interfaceLocal(void) { return DBUS_INTERFACE_LOCAL; }
static inline const char *CDBus_pathLocal(void) { return DBUS_PATH_LOCAL; }

/* A DBusError lives on the caller's stack; these keep its layout out of Swift. */
static inline dbus_bool_t CDBus_errorIsSet(const DBusError *error) {
  return dbus_error_is_set(error);
}

/* Appending a basic value takes a pointer to it; for strings, a pointer to the
 * `const char *`. These shims keep that double indirection out of Swift. */
static inline dbus_bool_t CDBus_appendString(DBusMessageIter *iter, int type, const char *value) {
  return dbus_message_iter_append_basic(iter, type, &value);
}

static inline const char *CDBus_getString(DBusMessageIter *iter) {
  const char *value = NULL;
  dbus_message_iter_get_basic(iter, &value);
  return value;
}

/* The event loop's wake-up descriptor; Swift's Glibc module has no eventfd. */
static inline int CDBus_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

#endif
