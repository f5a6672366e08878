import Model

/// The XDG base directories ShieldBridge uses, resolved as the XDG Base
/// Directory specification says.
///
/// A variable that is unset, empty or not an absolute path is ignored, and the
/// default under `$HOME` is used instead.
public enum BaseDirectory: Sendable {
  /// `$XDG_STATE_HOME`, default `~/.local/state`: the ledger.
  case state
  /// `$XDG_CONFIG_HOME`, default `~/.config`: `config.json`.
  case config

  /// ShieldBridge's own folder in this base directory, such as
  /// `/home/ada/.local/state/shieldbridge`; `nil` when neither the variable
  /// nor `HOME` is an absolute path.
  public func shieldBridgePath(environment: [String: String]) -> String? {
    let (variable, fallback) =
      switch self {
      case .state: ("XDG_STATE_HOME", ".local/state")
      case .config: ("XDG_CONFIG_HOME", ".config")
      }
    if let value = environment[variable], value.hasPrefix("/") {
      return BaseDirectory.join(value, "shieldbridge")
    }
    guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
    return BaseDirectory.join(BaseDirectory.join(home, fallback), "shieldbridge")
  }

  private static func join(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }
}
