import Glibc
import Posix
import Testing

/// How many SIGUSR1 the test's handler has seen.
nonisolated(unsafe) private var interruptions = 0

@Suite("A read that a signal interrupts goes on reading")
struct InterruptTests {
  @Test func aBlockedReadSurvivesASignalWithoutRestart() throws {
    // Without SA_RESTART the kernel ends the blocked read with EINTR; Posix must try again.
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in interruptions += 1 }
    action.sa_flags = 0
    sigemptyset(&action.sa_mask)
    #expect(sigaction(SIGUSR1, &action, nil) == 0)

    let (readRaw, writeRaw) = makePipe()
    let writeEnd = FileDescriptor(owning: writeRaw)
    // Owned here, so that the pipe stays open for the write below whatever the reader did.
    let readEnd = FileDescriptor(owning: readRaw)
    final class Outcome: @unchecked Sendable {
      var bytes: [UInt8] = []
      var failure: Errno?
    }
    let outcome = Outcome()
    let reader = Thread {
      // Threads inherit the mask of the test's pool thread, which blocks signals.
      var unblocked = sigset_t()
      sigemptyset(&unblocked)
      sigaddset(&unblocked, SIGUSR1)
      pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
      let reading = FileDescriptor(borrowing: readRaw)
      var buffer = [UInt8](repeating: 0, count: 16)
      do throws(Errno) {
        let count = try reading.read(into: &buffer)
        outcome.bytes = Array(buffer[..<count])
      } catch {
        outcome.failure = error
      }
    }
    let before = interruptions
    for _ in 0..<5 {
      usleep(20_000)
      reader.signal(SIGUSR1)
    }
    usleep(20_000)
    #expect(interruptions > before)
    try writeEnd.writeAll("x")
    reader.join()
    _ = readEnd
    #expect(outcome.failure == nil)
    #expect(outcome.bytes == Array("x".utf8))
  }
}
