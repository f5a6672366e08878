/// The type of an i3 IPC message (i3's `ipc.h`; sway uses the same numbers).
///
/// Replies carry the type of the request; events have the high bit set.
public struct I3MessageType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public var rawValue: UInt32

  public init(rawValue: UInt32) {
    self.rawValue = rawValue
  }

  /// `RUN_COMMAND`: runs a command such as `[con_id=94] move scratchpad`.
  public static let runCommand = I3MessageType(rawValue: 0)
  /// `SUBSCRIBE`: asks for the events named in a JSON array.
  public static let subscribe = I3MessageType(rawValue: 2)
  /// `GET_TREE`: the whole layout tree.
  public static let getTree = I3MessageType(rawValue: 4)
  /// `GET_VERSION`: the version (sway adds `"variant": "sway"`).
  public static let getVersion = I3MessageType(rawValue: 7)
  /// The `workspace` event.
  public static let workspaceEvent = I3MessageType(rawValue: 0x8000_0000)
  /// The `window` event.
  public static let windowEvent = I3MessageType(rawValue: 0x8000_0003)
  /// The `shutdown` event (i3 exits or restarts).
  public static let shutdownEvent = I3MessageType(rawValue: 0x8000_0006)

  /// Whether this is an event (high bit set) rather than a reply.
  public var isEvent: Bool { rawValue & 0x8000_0000 != 0 }

  public var description: String { "0x" + String(rawValue, radix: 16) }
}
