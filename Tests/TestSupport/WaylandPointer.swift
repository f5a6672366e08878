import Foundation
import Posix
import Synchronization

/// A pointer device of a test's own on a wlroots compositor (sway): a
/// `zwlr_virtual_pointer_v1`, the protocol `wlrctl` and remote-desktop tools
/// use, spoken on the Wayland socket without a client library.
///
/// A headless sway has no input devices, so its seat offers its clients no
/// pointer; this device gives the seat one, and its moves and clicks reach the
/// surface under it as a person's would (mako's bubble, a window). Debian 12
/// ships no `wlrctl`, and the protocol takes four requests, so the test speaks
/// it itself. The connection stays open while the value lives: its end takes
/// the device away.
public final class WaylandPointer: Sendable {
  /// The size of the output the absolute positions are given in.
  public let width: UInt32
  public let height: UInt32
  private let socket: FileDescriptor
  private let received = Mutex<[UInt8]>([])
  /// The id the next callback gets: a client's new ids count up one by one
  /// (the registry 2, a callback 3, the manager 4, the pointer 5, then callbacks).
  private let nextID = Mutex<UInt32>(3)

  private static let display: UInt32 = 1
  private static let registry: UInt32 = 2
  private static let manager: UInt32 = 4
  private static let pointer: UInt32 = 5
  /// `BTN_LEFT` of linux/input-event-codes.h.
  public static let leftButton: UInt32 = 0x110

  /// Connects to the compositor at `socketPath` (a Wayland socket's absolute
  /// path) and creates the virtual pointer, for an output of `width` × `height`.
  ///
  /// - Throws: ``DesktopError`` when the socket refuses, the compositor does not
  ///   offer `zwlr_virtual_pointer_manager_v1`, or it reports a protocol error.
  public init(socketPath: String, width: UInt32, height: UInt32) throws {
    self.width = width
    self.height = height
    do {
      socket = try FileDescriptor.connectUnixSocket(socketPath)
    } catch {
      throw DesktopError("cannot connect to the Wayland socket \(socketPath): \(error)")
    }
    try send(Self.display, opcode: 1, [.uint(Self.registry)])  // wl_display.get_registry
    let globals = try roundTrip()
    guard let manager = globals.first(where: { $0.interface == "zwlr_virtual_pointer_manager_v1" }) else {
      throw DesktopError(
        "the compositor offers no zwlr_virtual_pointer_manager_v1; it offers \(globals.map(\.interface))")
    }
    nextID.withLock { $0 = Self.pointer + 1 }
    // wl_registry.bind(name, interface, version 1, id); then create_virtual_pointer(no seat: the default, id).
    try send(
      Self.registry, opcode: 0,
      [.uint(manager.name), .string("zwlr_virtual_pointer_manager_v1"), .uint(1), .uint(Self.manager)])
    try send(Self.manager, opcode: 0, [.uint(0), .uint(Self.pointer)])
    _ = try roundTrip()
  }

  /// Moves the pointer to (`x`, `y`) on the output, as one motion.
  public func move(x: UInt32, y: UInt32) throws {
    try send(Self.pointer, opcode: 1, [.uint(Self.now), .uint(x), .uint(y), .uint(width), .uint(height)])
    try send(Self.pointer, opcode: 4, [.uint(Self.now)])  // frame
    _ = try roundTrip()
  }

  /// Presses and releases `button` where the pointer is, each in its own frame.
  public func click(button: UInt32 = WaylandPointer.leftButton) throws {
    for state: UInt32 in [1, 0] {
      try send(Self.pointer, opcode: 2, [.uint(Self.now), .uint(button), .uint(state)])
      try send(Self.pointer, opcode: 4, [.uint(Self.now)])
    }
    _ = try roundTrip()
  }

  /// Moves to (`x`, `y`) and clicks there.
  public func click(x: UInt32, y: UInt32) throws {
    try move(x: x, y: y)
    try click()
  }

  /// Event timestamps: milliseconds since boot, wrapped as the protocol wraps them.
  private static var now: UInt32 {
    UInt32(truncatingIfNeeded: Int(ProcessInfo.processInfo.systemUptime * 1000))
  }

  private enum Argument {
    case uint(UInt32)
    case string(String)
  }

  private func send(_ object: UInt32, opcode: UInt16, _ arguments: [Argument]) throws {
    var body: [UInt8] = []
    func append(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { body += $0 } }
    for argument in arguments {
      switch argument {
      case .uint(let value): append(value)
      case .string(let text):
        let bytes = Array(text.utf8) + [0]
        append(UInt32(bytes.count))
        body += bytes + [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4)
      }
    }
    var message: [UInt8] = []
    withUnsafeBytes(of: object.littleEndian) { message += $0 }
    withUnsafeBytes(of: (UInt32(8 + body.count) << 16 | UInt32(opcode)).littleEndian) { message += $0 }
    do {
      try socket.sendAll(message + body)
    } catch {
      throw DesktopError("the compositor closed the Wayland connection: \(error)")
    }
  }

  /// A global the registry announced.
  private struct Global {
    var name: UInt32
    var interface: String
  }

  /// Sends `wl_display.sync` and reads events until its callback is done; the
  /// globals the registry announced meanwhile.
  ///
  /// - Throws: ``DesktopError`` on a protocol error (`wl_display.error`), the
  ///   connection's end, or no answer within ``HangBound/answer``.
  private func roundTrip() throws -> [Global] {
    let callback = nextID.withLock { id in
      defer { id += 1 }
      return id
    }
    try send(Self.display, opcode: 0, [.uint(callback)])
    var globals: [Global] = []
    let deadline = ContinuousClock.now + HangBound.answer
    while true {
      while let (object, opcode, body) = received.withLock({ Self.takeMessage(&$0) }) {
        if object == Self.display && opcode == 0 {
          let code = body.count >= 8 ? Self.uint(body, at: 4) : 0
          throw DesktopError("the compositor reported protocol error \(code): \(Self.string(body, at: 8) ?? "")")
        }
        if object == Self.registry && opcode == 0, body.count >= 8, let interface = Self.string(body, at: 4) {
          globals.append(Global(name: Self.uint(body, at: 0), interface: interface))
        }
        if object == callback && opcode == 0 { return globals }
      }
      let remaining = deadline - ContinuousClock.now
      guard remaining > .zero, (try? socket.waitUntilReadable(timeout: remaining)) == true else {
        throw DesktopError("the compositor did not answer a Wayland sync within \(HangBound.answer)")
      }
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = (try? socket.read(into: &chunk)) ?? 0
      guard count > 0 else { throw DesktopError("the compositor closed the Wayland connection") }
      received.withLock { $0 += chunk[..<count] }
    }
  }

  private static func uint(_ bytes: [UInt8], at offset: Int) -> UInt32 {
    bytes[offset..<offset + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) }
  }

  /// A protocol string (its length with the NUL, the bytes, padding) at `offset`.
  private static func string(_ bytes: [UInt8], at offset: Int) -> String? {
    guard bytes.count >= offset + 4 else { return nil }
    let length = Int(uint(bytes, at: offset))
    guard length > 0, bytes.count >= offset + 4 + length else { return nil }
    return String(decoding: bytes[offset + 4..<offset + 4 + length - 1], as: UTF8.self)
  }

  /// Takes the next whole message from `bytes`: its object, opcode and arguments.
  private static func takeMessage(_ bytes: inout [UInt8]) -> (UInt32, UInt16, [UInt8])? {
    guard bytes.count >= 8 else { return nil }
    let word = uint(bytes, at: 4)
    let size = Int(word >> 16)
    guard size >= 8, bytes.count >= size else { return nil }
    let message = (uint(bytes, at: 0), UInt16(word & 0xffff), Array(bytes[8..<size]))
    bytes.removeFirst(size)
    return message
  }
}
