import CDBus
import Dispatch
import Posix
import Synchronization

/// A private connection to a message bus.
///
/// Each `Connection` is its own libdbus connection with its own loop thread
/// (unless it is opened with ``Dispatching/callingThread``); nothing is shared
/// with other code in the process. Incoming messages are dispatched one at a
/// time, in order: on the loop thread, or on a thread that waits in
/// ``callBlocking(_:timeout:)`` and drives the connection meanwhile. Method and signal handlers therefore must not block. The
/// connection closes when the last reference goes away, or earlier with
/// ``close()``. Signal streams keep their connection alive while they are iterated.
public final class Connection: Sendable {
  /// Which bus to connect to.
  public enum Bus: Sendable, Hashable {
    /// The session bus: `DBUS_SESSION_BUS_ADDRESS`, or `$XDG_RUNTIME_DIR/bus` when that is unset.
    case session
    /// The system bus: `DBUS_SYSTEM_BUS_ADDRESS`, or `/run/dbus/system_bus_socket`.
    case system
    /// A bus at an explicit address, such as `unix:path=/tmp/bus`.
    case address(String)
  }

  /// Which thread reads the connection and dispatches what arrives.
  public enum Dispatching: Sendable, Hashable {
    /// A thread of the connection's own, from connecting until it closes: replies,
    /// signals and method calls are handled as they arrive. The default.
    case ownThread
    /// Only threads that wait for a reply: the connection starts no thread,
    /// every call (``call(_:timeout:)`` included) blocks its caller while it
    /// drives the connection, and signals and method calls are handled only
    /// then. For a program that makes a few calls and exits, which saves
    /// starting a thread and handing each reply over to another.
    case callingThread
  }

  let core: ConnectionCore

  /// Connects to `bus` and registers with it, waiting up to 25 s (libdbus's
  /// default) for the bus; the connection reads with a thread of its own.
  ///
  /// Never starts a bus: without a session bus address this fails (no X11
  /// autolaunch). Only local `unix:` addresses are accepted.
  ///
  /// - Throws: `NoServer` when there is no bus to connect to, `BadAddress`
  ///   for an invalid or non-local address, `NoReply` when the bus does not
  ///   answer, or the error libdbus reported.
  public convenience init(_ bus: Bus = .session) throws(DBusError) {
    try self.init(bus, timeout: .seconds(25))
  }

  /// Connects to `bus` and registers with it.
  ///
  /// - Parameters:
  ///   - timeout: How long the bus may take to accept the connection and answer `Hello`.
  ///   - dispatching: Who reads the connection; its own thread by default.
  /// - Throws: as ``init(_:)``, with `NoReply` when the bus does not answer within `timeout`.
  public init(_ bus: Bus = .session, timeout: Duration, dispatching: Dispatching = .ownThread)
    throws(DBusError)
  {
    core = try ConnectionCore.open(
      address: try Connection.address(of: bus), timeout: timeout, loopThread: dispatching == .ownThread)
  }

  /// Who reads the connection and dispatches what arrives.
  public var dispatching: Dispatching { core.hasLoopThread ? .ownThread : .callingThread }

  deinit {
    core.close()
  }

  /// The address `bus` resolves to in this environment.
  ///
  /// - Throws: `NoServer` when the session bus has no address.
  public static func address(of bus: Bus) throws(DBusError) -> String {
    switch bus {
    case .address(let address):
      return address
    case .system:
      return Environment.nonEmptyValue("DBUS_SYSTEM_BUS_ADDRESS") ?? "unix:path=/run/dbus/system_bus_socket"
    case .session:
      if let address = Environment.nonEmptyValue("DBUS_SESSION_BUS_ADDRESS") { return address }
      if let runtime = Environment.nonEmptyValue("XDG_RUNTIME_DIR") {
        let path = runtime + "/bus"
        if (try? FileSystem.status(path))?.kind == .socket {
          return "unix:path=" + escapeAddressValue(path)
        }
      }
      throw DBusError(
        .noServer, "no session bus: DBUS_SESSION_BUS_ADDRESS is not set and $XDG_RUNTIME_DIR/bus does not exist")
    }
  }

  /// The unique name the bus gave this connection, such as `:1.42`.
  public var uniqueName: BusName { core.uniqueName }

  /// Whether the connection is still open.
  public var isConnected: Bool { core.closedBecause == nil }

  /// Flushes what is queued, closes the connection and stops its thread.
  ///
  /// Pending calls fail with `Disconnected`; signal streams end.
  public func close() { core.close() }

  /// Waits until the connection is closed or lost, and returns why.
  public func disconnection() async -> DBusError {
    await withCheckedContinuation { continuation in
      core.onClose { continuation.resume(returning: $0) }
    }
  }

  /// Calls `handler` once when the connection is closed or lost (at once if it already is).
  public func onDisconnect(_ handler: @escaping @Sendable (DBusError) -> Void) {
    core.onClose(handler)
  }

  /// Sends a message without waiting for anything.
  ///
  /// - Throws: `Disconnected` when the connection is closed.
  public func send(_ message: Message) throws(DBusError) {
    try core.send(message)
  }

  /// Sends a method call and waits for its reply.
  ///
  /// On a connection without a thread of its own (``Dispatching/callingThread``)
  /// this blocks the calling thread like ``callBlocking(_:timeout:)``.
  ///
  /// - Parameter timeout: How long to wait for the reply (default 25 s, libdbus's default).
  /// - Returns: the method return.
  /// - Throws: the peer's error reply as a ``DBusError`` (for example
  ///   `ServiceUnknown` or `UnknownMethod`), `NoReply` after the timeout,
  ///   `Cancelled` when the task is cancelled, `Disconnected` when the
  ///   connection closes first.
  public func call(_ message: Message, timeout: Duration = .seconds(25)) async throws(DBusError) -> Message {
    // Nobody else reads a connection without a thread of its own: wait here.
    guard core.hasLoopThread else { return try core.callBlocking(message, timeout: timeout) }
    let state = CallState()
    // `sendWithReply` runs its completion exactly once, or throws and never
    // runs it, so the continuation is resumed exactly once; the unchecked
    // kind saves allocating a checker per call.
    let result: Result<Message, DBusError> = await withTaskCancellationHandler {
      await withUnsafeContinuation { continuation in
        do throws(DBusError) {
          try core.sendWithReply(
            message, timeout: timeout,
            sent: { [core] serial in if state.sent(serial) { core.cancelReply(serial: serial) } }
          ) { continuation.resume(returning: $0) }
        } catch {
          continuation.resume(returning: .failure(error))
        }
      }
    } onCancel: {
      if let serial = state.cancel() { core.cancelReply(serial: serial) }
    }
    return try result.get()
  }

  /// Sends a method call and hands its reply to `completion`, without waiting.
  ///
  /// For many calls in flight at once (pipelining) without a task per call.
  /// `completion` runs once, on the connection's dispatch thread, and must not
  /// block: with the reply, the peer's error, `NoReply` after `timeout`, or
  /// `Disconnected` when the connection closes first. On a connection without
  /// a thread of its own it runs during a later blocking call, or when the
  /// connection closes.
  ///
  /// - Throws: `Disconnected` when the connection is already closed (then `completion` never runs).
  public func call(
    _ message: Message, timeout: Duration = .seconds(25),
    completion: @escaping @Sendable (Result<Message, DBusError>) -> Void
  ) throws(DBusError) {
    try core.sendWithReply(message, timeout: timeout, complete: completion)
  }

  /// Sends a method call and blocks the calling thread until its reply arrives.
  ///
  /// For code outside Swift concurrency. The calling thread drives the
  /// connection itself while it waits (it reads the reply, and dispatches what
  /// else arrives meanwhile), which saves a thread hand-off per call. It must
  /// not be called from a handler of this same connection: that would wait for itself.
  ///
  /// - Throws: as ``call(_:timeout:)``, and `Failed` when called from a handler of this connection.
  public func callBlocking(_ message: Message, timeout: Duration = .seconds(25)) throws(DBusError) -> Message {
    try core.callBlocking(message, timeout: timeout)
  }

  /// Calls a method with typed arguments and returns the reply.
  ///
  /// ```swift
  /// let reply = try await connection.call(
  ///   destination, path, try InterfaceName(interface), try MemberName(member), "an argument")
  /// let answer = try reply.decode(String.self)
  /// ```
  ///
  /// A declared method is called through its contract instead
  /// (``call(_:destination:path:_:timeout:autoStart:)``; the bus's own in ``BusInterface``):
  /// this form is for calls whose names or types are known only at run time.
  ///
  /// - Throws: as ``call(_:timeout:)``.
  public func call<each A: DBusArgument>(
    _ destination: BusName, _ path: ObjectPath, _ interface: InterfaceName, _ member: MemberName,
    _ arguments: repeat each A, timeout: Duration = .seconds(25)
  ) async throws(DBusError) -> Message {
    let message = try Message.methodCall(destination: destination, path: path, interface: interface, member: member)
    try message.append(repeat each arguments)
    return try await call(message, timeout: timeout)
  }
}

/// Whether an async call was sent or cancelled first: the cancellation
/// handler may run before the serial is known.
private final class CallState: Sendable {
  private enum State {
    case waiting
    case sent(UInt32)
    case cancelled
  }

  private let state = Mutex(State.waiting)

  /// Records the serial; returns `true` when the call was cancelled before it was sent.
  func sent(_ serial: UInt32) -> Bool {
    state.withLock { state in
      if case .cancelled = state { return true }
      state = .sent(serial)
      return false
    }
  }

  /// Records the cancellation; returns the serial to cancel when the call was already sent.
  func cancel() -> UInt32? {
    state.withLock { state in
      if case .sent(let serial) = state { return serial }
      state = .cancelled
      return nil
    }
  }
}

/// Escapes a value for a D-Bus address (`dbus_address_escape_value`'s rules).
func escapeAddressValue(_ value: String) -> String {
  var result = ""
  for byte in value.utf8 {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "/"),
      UInt8(ascii: "."), UInt8(ascii: "\\"):
      result.unicodeScalars.append(Unicode.Scalar(byte))
    default:
      let hex = Array("0123456789abcdef".unicodeScalars)
      result += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0x0F)])
    }
  }
  return result
}
