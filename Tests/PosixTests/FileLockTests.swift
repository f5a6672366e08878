import Glibc
import Posix
import Testing

@Suite("A file lock excludes every other holder and gives up after its timeout")
struct FileLockTests {
  @Test func aSecondHolderTimesOutWhileTheFirstHoldsTheLock() throws {
    try withScratchFolder { folder in
      let path = folder + "/state.lock"
      let first = try FileLock(path: path, timeout: .seconds(30))
      let start = ContinuousClock.now
      #expect(throws: FileLockError.timedOut) { _ = try FileLock(path: path, timeout: .milliseconds(150)) }
      let waited = ContinuousClock.now - start
      #expect(waited >= .milliseconds(150))
      first.unlock()
      let second = try FileLock(path: path, timeout: .seconds(30))
      second.unlock()
    }
  }

  @Test func withLockRunsTheBodyAndReleasesTheLock() throws {
    try withScratchFolder { folder in
      let path = folder + "/state.lock"
      let value = try FileLock.withLock(path: path, timeout: .seconds(30), lockFailure: { $0 }) {
        () throws(FileLockError) in
        #expect(throws: FileLockError.timedOut) { _ = try FileLock(path: path, timeout: .milliseconds(20)) }
        return 42
      }
      #expect(value == 42)
      try FileLock(path: path, timeout: .milliseconds(20)).unlock()
    }
  }

  @Test func aLockFileThatCannotBeCreatedIsAnOpenError() throws {
    try withScratchFolder { folder in
      #expect(throws: FileLockError.open(.noSuchFileOrDirectory)) {
        _ = try FileLock(path: folder + "/missing/state.lock", timeout: .seconds(1))
      }
    }
  }

  @Test func aFIFOOrADeviceInTheLockFilesPlaceIsRefusedAtOnce() throws {
    try withScratchFolder { folder in
      let fifo = folder + "/fifo.lock"
      #expect(mkfifo(fifo, 0o600) == 0)
      // A wait for the timeout would end in `timedOut`.
      #expect(throws: FileLockError.notRegularFile(.fifo)) { _ = try FileLock(path: fifo, timeout: .seconds(1)) }
      let device = folder + "/device.lock"
      #expect(symlink("/dev/null", device) == 0)
      #expect(throws: FileLockError.notRegularFile(.characterDevice)) {
        _ = try FileLock(path: device, timeout: .seconds(1))
      }
      #expect(throws: FileLockError.open(.isDirectory)) { _ = try FileLock(path: folder, timeout: .seconds(1)) }
    }
  }
}
