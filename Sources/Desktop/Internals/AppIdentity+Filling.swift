import Model

extension AppIdentity {
  /// This identity, with every name it lacks taken from `other` (the same app, seen another way).
  func filling(from other: AppIdentity) -> AppIdentity {
    var result = self
    result.instance = instance ?? other.instance
    result.windowClass = windowClass ?? other.windowClass
    result.appID = appID ?? other.appID
    result.executable = executable ?? other.executable
    result.command = command ?? other.command
    result.commandLineName = commandLineName ?? other.commandLineName
    result.scopeID = scopeID ?? other.scopeID
    result.pid = pid ?? other.pid
    return result
  }
}
