import JSON
import Posix
import Synchronization

/// The embedded server's record: one JSON object per line, appended and
/// written out line by line, never interleaved, whatever thread records.
final class Recorder: Sendable {
  let path: String
  private let file: FileDescriptor
  private let state = Mutex(State())

  /// The line being written, kept for the next one, and the first failure.
  private struct State: ~Copyable {
    var writer = JSONWriter()
    var failure: NotificationError?
  }

  /// Opens (or creates) the record file for appending; it must be a regular file.
  ///
  /// It is opened without blocking: a FIFO nobody reads would stop `open`
  /// for good (and, with a reader, every write of the server). A FIFO, a
  /// device or a directory is refused at once.
  ///
  /// - Throws: ``NotificationError`` `file` when it cannot be opened or is not a regular file.
  init(path: String) throws(NotificationError) {
    self.path = path
    if let kind = try? FileSystem.status(path).kind, kind != .regular {
      throw NotificationError(.file, "cannot record to \(path): it is \(kind), not a regular file")
    }
    let file: FileDescriptor
    let kind: FileStatus.Kind
    do {
      // Mode 0600: notifications can be private.
      file = try FileDescriptor.open(path, [.writeOnly, .append, .create, .nonBlocking], permissions: 0o600)
      kind = try file.status().kind
    } catch {
      throw NotificationError(.file, "cannot open \(path) for writing: \(error)")
    }
    // Replaced between the two looks: still refused, never waited on.
    guard kind == .regular else {
      throw NotificationError(.file, "cannot record to \(path): it is \(kind), not a regular file")
    }
    self.file = file
  }

  /// The first failure to write, if there was one; later lines are still tried.
  var failure: NotificationError? { state.withLock { $0.failure } }

  /// Appends one line: the object whose members `members` writes.
  func record(_ members: (inout JSONWriter) -> Void) {
    state.withLock { state in
      state.writer.removeAll()
      state.writer.beginObject()
      members(&state.writer)
      state.writer.endObject()
      state.writer.newline()
      do {
        try file.writeAll(state.writer.bytes)
      } catch  where state.failure == nil {
        state.failure = NotificationError(.file, "cannot write to \(path): \(error)")
      } catch {}
    }
  }
}
