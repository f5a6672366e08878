import Foundation
import Glibc
import Log
import TestSupport
import Testing

@testable import ShieldBridge

/// The watcher of a file whose folders do not exist yet: whatever the order in
/// which the folders and the file appear against the watcher's thread, the
/// written file is told.
@Suite struct FileWatcherTests {
  /// CI, stop 42: a folder made between its own failed watch and its parent's
  /// was never watched, and the file written in it was never told. The window
  /// is narrow, so the walk is tried many times.
  @Test func aFileWrittenInFoldersMadeJustAfterTheStartIsTold() async throws {
    for round in 0..<200 {
      let root = try TemporaryDirectory()
      let path = root.file("config/shieldbridge/config.json")
      let told = EventLog<Bool>()
      let watcher = try FileWatcher(path: path, label: "config.json", log: Logger(sink: LogSink { _ in })) {
        told.append(FileManager.default.fileExists(atPath: path))
      }
      // One folder, then the next after a pause that differs from round to round, so that some
      // fall between the watcher's look at the deeper folder and its watch on this one.
      try FileManager.default.createDirectory(atPath: root.file("config"), withIntermediateDirectories: false)
      usleep(UInt32(round % 20) * 25)
      try FileManager.default.createDirectory(
        atPath: root.file("config/shieldbridge"), withIntermediateDirectories: false)
      try "{}".write(toFile: path, atomically: true, encoding: .utf8)
      _ = try await told.first("round \(round): the change after the file was written") { $0 }
      watcher.stop()
    }
  }
}
