public import DBus

/// Why the service could not do what was asked, with a stable code and the D-Bus error name it travels as.
public struct ServiceError: Error, Hashable, Sendable, CustomStringConvertible {
  public enum Code: String, Sendable, Hashable {
    /// The link does not parse or resolve.
    case badLink = "bad-link"
    /// No rule covers the app.
    case notCovered = "not-covered"
    /// The ledger could not be read or written.
    case state
    /// No notification server, or it failed.
    case notifications
    /// Another process already owns the service's name.
    case alreadyRunning = "already-running"
    /// The bus failed or went away.
    case bus
    /// The service is stopping and takes no new calls.
    case stopping
  }

  public var code: Code
  public var message: String

  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { message }

  /// The error as a D-Bus error reply.
  var dbusError: DBusError {
    let name =
      switch code {
      case .badLink: ServiceNames.Error.badLink
      case .notCovered: ServiceNames.Error.notCovered
      case .state: ServiceNames.Error.state
      case .stopping: ServiceNames.Error.stopping
      case .notifications, .alreadyRunning, .bus: ServiceNames.Error.notifications
      }
    return DBusError(name: name, message: message)
  }

  /// The error a D-Bus error reply from the service stands for.
  public init(_ error: DBusError) {
    let code: Code =
      switch error.name {
      case ServiceNames.Error.badLink: .badLink
      case ServiceNames.Error.notCovered: .notCovered
      case ServiceNames.Error.state: .state
      case ServiceNames.Error.notifications: .notifications
      case ServiceNames.Error.stopping: .stopping
      default: .bus
      }
    self.init(code, error.message)
  }
}
