import Glibc
import Posix
import Testing

@Suite("Reading a whole file refuses what is not a small regular file, without hanging")
struct ReadFileTests {
  @Test func aRegularFileIsReadWhole() throws {
    try withScratchFolder { folder in
      plainWrite("hello\n", to: folder + "/a")
      let roomy = try FileSystem.readFile(folder + "/a", limit: 100)
      let exact = try FileSystem.readFile(folder + "/a", limit: 6)
      #expect(roomy == Array("hello\n".utf8))
      #expect(exact == Array("hello\n".utf8))
    }
  }

  @Test func aFileOverTheLimitIsRefused() throws {
    try withScratchFolder { folder in
      plainWrite("1234567", to: folder + "/big")
      #expect(throws: ReadFileError.tooLarge(limit: 6)) { try FileSystem.readFile(folder + "/big", limit: 6) }
    }
  }

  @Test func aFIFOIsRefusedAtOnceInsteadOfHangingTheReader() throws {
    try withScratchFolder { folder in
      let path = folder + "/fifo"
      #expect(mkfifo(path, 0o600) == 0)
      // Nobody ever opens the FIFO for writing: a blocking open would wait forever.
      #expect(throws: ReadFileError.notRegularFile(.fifo)) { try FileSystem.readFile(path, limit: 1 << 20) }
    }
  }

  @Test func theRefusalSaysWhatTheFileIs() {
    #expect(ReadFileError.notRegularFile(.fifo).description == "it is a FIFO, not a regular file")
    #expect(
      ReadFileError.notRegularFile(.characterDevice).description == "it is a character device, not a regular file")
  }

  @Test func aDirectoryAndADeviceAreRefused() throws {
    try withScratchFolder { folder in
      #expect(throws: ReadFileError.notRegularFile(.directory)) { try FileSystem.readFile(folder, limit: 10) }
    }
    #expect(throws: ReadFileError.notRegularFile(.characterDevice)) {
      try FileSystem.readFile("/dev/zero", limit: 10)
    }
  }

  @Test func aMissingFileIsToldApart() throws {
    try withScratchFolder { folder in
      do throws(ReadFileError) {
        _ = try FileSystem.readFile(folder + "/missing", limit: 10)
        Issue.record("read a missing file")
      } catch {
        #expect(error.isNotFound)
        #expect(error.description == "No such file or directory")
      }
      let missing = try FileSystem.readFileIfPresent(folder + "/missing", limit: 10)
      #expect(missing == nil)
    }
  }

  @Test("A file's bytes handed over are the file read, and refused as a read refuses them")
  func fileBytesAreTheFileRead() throws {
    try withScratchFolder { folder in
      let text = String(repeating: "a line of the file\n", count: 1_000)
      plainWrite(text, to: folder + "/a")
      let handed = try FileSystem.withFileBytesIfPresent(folder + "/a", limit: 1 << 20) { Array($0) }
      #expect(handed == (try FileSystem.readFile(folder + "/a", limit: 1 << 20)))
      #expect(handed == Array(text.utf8))
      // Cut short in place while its bytes are read: they stay whole (a mapping of the file would fault).
      let whole = try FileSystem.withFileBytesIfPresent(folder + "/a", limit: 1 << 20) { bytes in
        truncate(folder + "/a", 0)
        return Array(bytes)
      }
      #expect(whole == Array(text.utf8))
      plainWrite(text, to: folder + "/a")
      plainWrite("", to: folder + "/empty")
      #expect(try FileSystem.withFileBytesIfPresent(folder + "/empty", limit: 10) { $0.count } == 0)
      #expect(try FileSystem.withFileBytesIfPresent(folder + "/missing", limit: 10) { $0.count } == nil)
      #expect(throws: ReadFileError.tooLarge(limit: 100)) {
        try FileSystem.withFileBytesIfPresent(folder + "/a", limit: 100) { $0.count }
      }
      #expect(throws: ReadFileError.notRegularFile(.directory)) {
        try FileSystem.withFileBytesIfPresent(folder, limit: 10) { $0.count }
      }
      let fifo = folder + "/fifo"
      #expect(mkfifo(fifo, 0o600) == 0)
      // Nobody opens the FIFO for writing: refused at once, never waited on.
      #expect(throws: ReadFileError.notRegularFile(.fifo)) {
        try FileSystem.withFileBytesIfPresent(fifo, limit: 1 << 20) { $0.count }
      }
    }
  }

  @Test func anUnreadableFileIsASystemError() throws {
    try withScratchFolder { folder in
      plainWrite("secret", to: folder + "/locked")
      chmod(folder + "/locked", 0)
      chmod(folder, 0o755)
      // Root reads everything, so the read is made as `nobody`: the file-system
      // uid is the calling thread's own (the rest of the run keeps root's), and
      // the read runs on this thread without a suspension. For another user
      // the call fails and changes nothing: the file is unreadable to it anyway.
      let setfsuid = try #require(Self.setfsuid)
      let previous = setfsuid(65534)
      defer { _ = setfsuid(UInt32(bitPattern: previous)) }
      #expect(throws: ReadFileError.system(.permissionDenied)) {
        try FileSystem.readFileIfPresent(folder + "/locked", limit: 10)
      }
    }
  }

  /// glibc's `setfsuid`, which the Glibc module does not export (it is in `<sys/fsuid.h>`).
  static let setfsuid: (@convention(c) (UInt32) -> Int32)? = {
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "setfsuid") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (UInt32) -> Int32).self)
  }()
}
