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
