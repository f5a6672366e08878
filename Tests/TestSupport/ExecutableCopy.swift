import Foundation

/// Copies the program at `source` to `destination` (executable), written by a
/// `cp` of its own rather than by this process.
///
/// A test process starts children from many threads at once: a file it wrote
/// itself could still be open for writing in a child forked meanwhile (until
/// that child's `exec`), and starting the copy would then fail with "Text
/// file busy" (`ETXTBSY`). A file another process wrote and closed has no
/// such writer here.
public func copyExecutable(from source: String, to destination: String) throws {
  let copy = Process()
  copy.executableURL = URL(fileURLWithPath: "/bin/cp")
  copy.arguments = [source, destination]
  try copy.run()
  copy.waitUntilExit()
  guard copy.terminationStatus == 0 else {
    throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination])
  }
}
