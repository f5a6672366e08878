// The Unicode scalar names left out of the shipped binary (docs/developing/benchmarks.md, "Size").
//
// The standard library's `Unicode.Scalar.Properties.name` and `.nameAlias`
// read 0.55 MB of tables through these two runtime functions. Their callers
// sit in the one `.text` section of the static standard library that every
// binary keeps whole, so dead-code stripping cannot drop them. The release
// link (Package.swift) sends the two calls here with `--wrap`: the tables
// then have no caller and go. Nothing of ShieldBridge asks a scalar's name
// (scripts/lint-imports keeps it so); in the shipped binary both give nil.

#include "RuntimeTrim.h"

intptr_t __wrap__swift_stdlib_getScalarName(uint32_t scalar, uint8_t *buffer, intptr_t capacity) {
  (void)scalar;
  (void)buffer;
  (void)capacity;
  return 0;
}

const char *__wrap__swift_stdlib_getNameAlias(uint32_t scalar) {
  (void)scalar;
  return 0;
}
