import Glibc
import Posix
import Testing

@Suite("inotify reports the writes and renames in a watched folder")
struct InotifyTests {
  @Test func aWriteAndARenameAreReportedWithTheirNames() throws {
    try withScratchFolder { folder in
      let inotify = try Inotify()
      let watch = try inotify.addWatch(folder, [.closeWrite, .movedTo, .create, .delete])
      #expect(try inotify.readEvents().isEmpty)
      plainWrite("{}", to: folder + "/new.json")
      #expect(rename(folder + "/new.json", folder + "/config.json") == 0)
      var events: [Inotify.Event] = []
      // Bounded: the kernel queues the events before the calls above return.
      while !events.contains(where: { $0.name == "config.json" }) {
        #expect(try Poll.readable([inotify.descriptor], timeout: .seconds(10)) == [0])
        events += try inotify.readEvents()
      }
      #expect(events.allSatisfy { $0.watch == watch })
      #expect(events.contains { $0.name == "new.json" && $0.mask.contains(.closeWrite) })
      #expect(events.contains { $0.name == "config.json" && $0.mask.contains(.movedTo) })
    }
  }

  @Test func aMissingFolderCannotBeWatched() throws {
    try withScratchFolder { folder in
      #expect(throws: Errno.noSuchFileOrDirectory) {
        try Inotify().addWatch(folder + "/absent", [.create])
      }
    }
  }
}
