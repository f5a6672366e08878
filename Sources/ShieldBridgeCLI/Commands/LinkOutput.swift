import JSON

/// The answers of the link commands, collected as bytes until stdin has no
/// more to give at once, then written in one go.
///
/// The JSON module's writer, whose raw buffer is what makes a million lines a
/// second cheap; text answers use its raw appends.
typealias LinkOutput = JSONWriter

extension JSONWriter {
  /// Writes what was collected to stdout, flushes it, and starts again.
  mutating func write() {
    guard count > 0 else { return }
    withBytes { Output.out(buffer: $0) }
    Output.flush()
    removeAll()
  }
}
