import Glibc
import Posix

/// A fresh folder under `$TMPDIR` for one test, removed with everything in it by `body`'s end.
func withScratchFolder(_ body: (String) throws -> Void) throws {
  let folder = try FileSystem.makeTemporaryDirectory(prefix: (Environment.value("TMPDIR") ?? "/tmp") + "/posix-test.")
  defer { FileSystem.removeTree(folder) }
  try body(folder)
}

/// Writes `text` to a new file at `path` with plain C calls, so a test does not check Posix with itself.
func plainWrite(_ text: String, to path: String) {
  let file = fopen(path, "w")
  fputs(text, file)
  fclose(file)
}

/// The two ends of a new pipe, for a test to wrap in descriptors that own them.
func makePipe() -> (read: Int32, write: Int32) {
  var ends: [Int32] = [-1, -1]
  _ = pipe(&ends)
  return (ends[0], ends[1])
}
