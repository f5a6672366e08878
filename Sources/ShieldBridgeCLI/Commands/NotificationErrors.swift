import DBus
import Notifications

extension CommandFailure {
  /// The command failure for a notification error, with its `sysexits.h` status:
  /// 69 when the bus or the server is missing or refuses, 65 for bad data
  /// (an unknown id or action), 73 for a file that cannot be written.
  init(_ error: NotificationError) {
    let exitCode: ExitCode =
      switch error.code {
      case .unknownNotification, .invalidArgument: .dataError
      case .file: .cannotCreate
      default: .unavailable
      }
    self.init(error.message, exitCode: exitCode)
  }
}

/// The bus named by `--address`, or the session bus.
func bus(_ invocation: Invocation) -> Connection.Bus {
  invocation.value("--address").map(Connection.Bus.address) ?? .session
}

/// The `--address` option shared by the notification commands.
let addressOption = Option.value(
  "--address", "ADDR", "The D-Bus address to use instead of the session bus (unix:path=…).")
