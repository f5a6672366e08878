public import Posix

/// Why the browser's stream of native messages cannot be read on.
///
/// Each of these ends the host: a frame is a length and then that many
/// bytes, with nothing to mark where the next frame starts, so after a
/// length that cannot be honoured or a short body the stream cannot be
/// resynchronised. The browser sees the host end and may start a new one.
public enum NativeMessageError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A length prefix above the limit the reader takes.
  case tooLong(length: UInt32, limit: Int)
  /// The input ended inside a frame: after `received` of the `expected` bytes
  /// (4 for the length prefix, the length for the body).
  case truncated(part: Part, received: Int, expected: Int)
  /// `read` failed.
  case read(Errno)

  /// The part of a frame that was cut short.
  public enum Part: String, Hashable, Sendable {
    case lengthPrefix = "length prefix"
    case body
  }

  public var description: String {
    switch self {
    case .tooLong(let length, let limit):
      "a message of \(length) bytes is over the limit of \(limit) bytes; the stream cannot be "
        + "resynchronised after it, so the host ends"
    case .truncated(let part, let received, let expected):
      "the input ended inside a message (\(received) of the \(expected) bytes of its \(part.rawValue)); "
        + "the host ends"
    case .read(let errno):
      "cannot read the browser's messages: \(errno)"
    }
  }
}
