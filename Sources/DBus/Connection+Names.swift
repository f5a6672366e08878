import Synchronization

extension Connection {
  /// How to ask for a well-known name (`DBUS_NAME_FLAG_…`).
  public struct NameFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `DBUS_NAME_FLAG_ALLOW_REPLACEMENT`: another connection may take the name over.
    public static let allowReplacement = NameFlags(rawValue: 0x1)
    /// `DBUS_NAME_FLAG_REPLACE_EXISTING`: take the name over if its owner allows it.
    public static let replaceExisting = NameFlags(rawValue: 0x2)
    /// `DBUS_NAME_FLAG_DO_NOT_QUEUE`: fail instead of waiting in the queue.
    public static let doNotQueue = NameFlags(rawValue: 0x4)
  }

  /// The outcome of ``requestName(_:flags:)`` (`DBUS_REQUEST_NAME_REPLY_…`).
  public enum RequestNameReply: UInt32, Sendable {
    case primaryOwner = 1
    case inQueue = 2
    case exists = 3
    case alreadyOwner = 4
  }

  /// The outcome of ``releaseName(_:)`` (`DBUS_RELEASE_NAME_REPLY_…`).
  public enum ReleaseNameReply: UInt32, Sendable {
    case released = 1
    case nonExistent = 2
    case notOwner = 3
  }

  /// Asks the bus for a well-known name.
  ///
  /// - Throws: `InvalidArgs` for a unique name, the bus's error otherwise.
  public func requestName(_ name: BusName, flags: NameFlags = [.doNotQueue]) async throws(DBusError) -> RequestNameReply
  {
    guard !name.isUnique else { throw DBusError(.invalidArgs, "cannot request the unique name \(name)") }
    let code = try await call(BusInterface.requestName, destination: .bus, path: .bus, name.rawValue, flags.rawValue)
    guard let result = RequestNameReply(rawValue: code) else {
      throw DBusError(.failed, "the bus answered RequestName with the unknown code \(code)")
    }
    return result
  }

  /// Gives a well-known name back to the bus.
  ///
  /// - Throws: `InvalidArgs` for a unique name, the bus's error otherwise.
  @discardableResult
  public func releaseName(_ name: BusName) async throws(DBusError) -> ReleaseNameReply {
    guard !name.isUnique else { throw DBusError(.invalidArgs, "cannot release the unique name \(name)") }
    let code = try await call(BusInterface.releaseName, destination: .bus, path: .bus, name.rawValue)
    guard let result = ReleaseNameReply(rawValue: code) else {
      throw DBusError(.failed, "the bus answered ReleaseName with the unknown code \(code)")
    }
    return result
  }

  /// The unique name of the owner of `name`, or `nil` when no one owns it.
  ///
  /// - Throws: the bus's error other than `NameHasNoOwner`.
  public func nameOwner(_ name: BusName, timeout: Duration = .seconds(25)) async throws(DBusError) -> BusName? {
    do {
      return try BusName(
        try await call(BusInterface.getNameOwner, destination: .bus, path: .bus, name.rawValue, timeout: timeout))
    } catch  where error.is(.nameHasNoOwner) {
      return nil
    }
  }

  /// The process id of the connection `peer`, as the bus read it from the
  /// socket (`GetConnectionUnixProcessID`): the peer cannot choose it.
  ///
  /// - Throws: the bus's error (`NameHasNoOwner` when `peer` left, `Failed`
  ///   when the bus does not know the pid), or `InvalidSignature` for a reply of other types.
  public func processID(of peer: BusName, timeout: Duration = .seconds(25)) async throws(DBusError) -> UInt32 {
    try await call(
      BusInterface.getConnectionUnixProcessID, destination: .bus, path: .bus, peer.rawValue, timeout: timeout)
  }

  /// ``nameOwner(_:timeout:)`` with a blocking call, for set-up code that is not async
  /// (choosing a desktop backend, for one).
  ///
  /// - Throws: the bus's error other than `NameHasNoOwner`.
  public func nameOwnerBlocking(_ name: BusName, timeout: Duration = .seconds(25)) throws(DBusError) -> BusName? {
    let message = try BusInterface.getNameOwner.message(destination: .bus, path: .bus, name.rawValue)
    do {
      return try BusName(try BusInterface.getNameOwner.reply(from: try callBlocking(message, timeout: timeout)))
    } catch  where error.is(.nameHasNoOwner) {
      return nil
    }
  }

  /// Calls `departed` once, when the connection with the unique name `peer` leaves the bus.
  ///
  /// A unique name is never owned again, so its `NameOwnerChanged` with an
  /// empty new owner is its end. A peer that left before the bus knew of the
  /// rule is asked after (`GetNameOwner`): then `departed` is called at once.
  ///
  /// - Returns: the subscription; cancel it to stop watching.
  /// - Throws: `InvalidArgs` for a well-known name (use ``NameOwnerTracker``),
  ///   the bus's error when the rule cannot be added.
  public func watchDeparture(
    of peer: BusName, timeout: Duration = .seconds(5), _ departed: @escaping @Sendable () -> Void
  ) async throws(DBusError) -> SignalSubscription {
    guard peer.isUnique else {
      throw DBusError(.invalidArgs, "'\(peer)' is a well-known name; only a unique name leaves the bus for good")
    }
    let rule = BusInterface.nameOwnerChanged.rule(sender: .bus, path: .bus, arguments: [0: peer.rawValue, 2: ""])
    let once = Once(departed)
    let subscription = try await addSignalHandler(matching: rule) { _ in once.call() }
    if (try? await nameOwner(peer, timeout: timeout)) == nil { once.call() }
    return subscription
  }
}

/// A closure called at most once, from whichever thread comes first.
private final class Once: Sendable {
  private let called = Atomic(false)
  private let body: @Sendable () -> Void

  init(_ body: @escaping @Sendable () -> Void) {
    self.body = body
  }

  func call() {
    guard !called.exchange(true, ordering: .acquiringAndReleasing) else { return }
    body()
  }
}
