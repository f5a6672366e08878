import Spawn

/// Copies the program at `source` to `destination` (executable), written by a
/// `cp` of its own rather than by this process.
///
/// A test process starts children from many threads at once: a file it wrote
/// itself could still be open for writing in a child forked meanwhile (until
/// that child's `exec`), and starting the copy would then fail with "Text
/// file busy" (`ETXTBSY`). A file another process wrote and closed has no
/// such writer here.
///
/// `cp` runs through Spawn, which waits for its own child by its pid:
/// Foundation's `Process.waitUntilExit` waits for a SIGCHLD its run loop must
/// see, and once left both of the concurrency pool's threads waiting beside
/// a `cp` that had ended, which stopped the whole test run.
public func copyExecutable(from source: String, to destination: String) throws {
  let copy = try Subprocess.run(["/bin/cp", source, destination], timeout: .seconds(60))
  guard copy.status == 0 else {
    throw DesktopError("cp \(source) \(destination) failed: \(copy.error)")
  }
}
