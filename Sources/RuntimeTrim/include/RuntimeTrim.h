// What the release link of `shieldbridge` leaves out of the Swift runtime (names.c).
#ifndef RUNTIME_TRIM_H
#define RUNTIME_TRIM_H

#include <stdint.h>

// Stand-ins for the runtime's `_swift_stdlib_getScalarName` and `_swift_stdlib_getNameAlias`:
// no scalar has a name or an alias.
intptr_t __wrap__swift_stdlib_getScalarName(uint32_t scalar, uint8_t *buffer, intptr_t capacity);
const char *__wrap__swift_stdlib_getNameAlias(uint32_t scalar);

#endif
