/// A capability a notification server advertises in `GetCapabilities`.
///
/// The specification names a few; servers add their own (`x-dunst-stack-tag`,
/// KDE's `inline-reply`), so any string is one. The known ones are static
/// members, found as `.actions` or `.bodyMarkup`; on the wire a capability is
/// its raw value, unchanged.
public struct Capability: RawRepresentable, Hashable, Sendable, CustomStringConvertible,
  ExpressibleByStringLiteral
{
  public let rawValue: String

  public init(rawValue: String) { self.rawValue = rawValue }

  public init(stringLiteral value: String) { rawValue = value }

  /// The capability a server advertises when it reads `hint`, as dunst does
  /// for its stack tag: the same name.
  public init(hint: HintName) { rawValue = hint.rawValue }

  public var description: String { rawValue }

  /// `actions`: the server shows actions and reports `ActionInvoked`.
  public static let actions: Capability = "actions"
  /// `action-icons`: action keys are icon names.
  public static let actionIcons: Capability = "action-icons"
  /// `body`: the server shows the body.
  public static let body: Capability = "body"
  /// `body-hyperlinks`: links in the body can be opened.
  public static let bodyHyperlinks: Capability = "body-hyperlinks"
  /// `body-images`: images in the body are shown.
  public static let bodyImages: Capability = "body-images"
  /// `body-markup`: the body is read as markup.
  public static let bodyMarkup: Capability = "body-markup"
  /// `icon-multi`: an animated icon is shown frame by frame.
  public static let iconMulti: Capability = "icon-multi"
  /// `icon-static`: one frame of an icon is shown.
  public static let iconStatic: Capability = "icon-static"
  /// `persistence`: notifications are kept until the user removes them.
  public static let persistence: Capability = "persistence"
  /// `sound`: the server plays sounds.
  public static let sound: Capability = "sound"
  /// KDE's inline reply field; replies come back as `NotificationReplied`.
  public static let inlineReply: Capability = "inline-reply"
}
