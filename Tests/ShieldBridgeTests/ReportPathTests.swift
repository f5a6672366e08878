import DBus
import Foundation
import JSON
import Model
import Notifications
import Posix
import Spawn
import TestSupport
import Testing

@Suite("report --html writes its own private file and replaces nothing else")
struct ReportPathTests {
  let config = #"{"rules":[{"name":"social","apps":["Instagram"],"dailyLimitMinutes":10}]}"#

  @Test("A symbolic link, a FIFO, a folder and a device at the path are refused and left as they were")
  func otherKindsAreRefused() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(config)
    let target = sandbox.root.file("target.html")
    try "the link's target\n".write(toFile: target, atomically: true, encoding: .utf8)
    let link = sandbox.root.file("link.html")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    let fifo = sandbox.root.file("fifo.html")
    #expect(mkfifo(fifo, 0o600) == 0)
    let folder = sandbox.root.file("folder.html")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    // As root, a device node of the sandbox's own: /dev/null's numbers.
    let device = sandbox.root.file("null.html")
    #expect(mknod(device, S_IFCHR | 0o600, dev_t(1 << 8 | 3)) == 0, "mknod: \(errno)")
    for (path, kind) in [
      (link, "a symbolic link"), (fifo, "a FIFO"), (folder, "a directory"), (device, "a character device"),
    ] {
      let result = try await sandbox.run(["report", "--html", path])
      #expect(result.status == 73, "\(path): \(result.output) \(result.error)")
      #expect(result.error.contains("it is \(kind), not a regular file"), "\(result.error)")
      #expect(result.output.isEmpty)
    }
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "the link's target\n")
    var status = stat()
    #expect(lstat(fifo, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO)
    #expect(lstat(device, &status) == 0 && (status.st_mode & S_IFMT) == S_IFCHR)
    #expect(lstat(folder, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR)
  }

  @Test("A new page and a page written again are 0600, like every other state file")
  func pagesArePrivate() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(config)
    let page = sandbox.root.file("week.html")
    for _ in 0..<2 {
      let result = try await sandbox.run(["report", "--html", page])
      #expect(result.status == 0, "\(result.error)")
      #expect(result.output == page + "\n")
      var status = stat()
      #expect(lstat(page, &status) == 0)
      #expect(status.st_mode & 0o7777 == 0o600, "\(String(status.st_mode & 0o7777, radix: 8))")
      #expect(status.st_mode & S_IFMT == S_IFREG)
    }
  }
}
