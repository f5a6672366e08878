/// Which desktop backend to use: `config.json`'s `"desktop"` (`"auto"` unless set).
public enum DesktopChoice: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
  /// Find the desktop from the environment (``Desktop/open(_:environment:covers:)`` says how).
  case auto
  /// Watch no desktop: nothing is counted.
  case off
  case x11
  case i3
  case sway
  /// KDE's KWin, through a script of ours loaded over the session bus.
  case kwin
  case processes
  /// GNOME Shell, through ShieldBridge's shell extension.
  case gnome

  /// The choice `text` names.
  ///
  /// - Throws: ``DesktopError`` listing the accepted values when `text` is none of them.
  public init(parsing text: String) throws(DesktopError) {
    guard let choice = DesktopChoice(rawValue: text) else {
      let accepted = Self.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
      throw DesktopError("\"desktop\" is \"\(text)\", which is none of \(accepted)")
    }
    self = choice
  }

  /// The backend this choice forces, of the same name; `nil` for ``auto`` and ``off``.
  public var kind: DesktopKind? { DesktopKind(rawValue: rawValue) }

  public var description: String { rawValue }
}
