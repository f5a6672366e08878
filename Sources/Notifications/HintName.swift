/// The name of a notification hint, the key in `Notify`'s `a{sv}`.
///
/// Any string is a hint name (servers read their own, such as
/// `x-dunst-stack-tag`); the ones ShieldBridge sets or reads are static
/// members, found as `.urgency` or `.dunstStackTag`. On the wire a hint name
/// is its raw value, unchanged.
public struct HintName: RawRepresentable, Hashable, Sendable, CustomStringConvertible,
  ExpressibleByStringLiteral
{
  public let rawValue: String

  public init(rawValue: String) { self.rawValue = rawValue }

  public init(stringLiteral value: String) { rawValue = value }

  public var description: String { rawValue }

  public static let urgency: HintName = "urgency"
  public static let category: HintName = "category"
  public static let desktopEntry: HintName = "desktop-entry"
  public static let transient: HintName = "transient"
  public static let resident: HintName = "resident"
  public static let imagePath: HintName = "image-path"
  public static let soundName: HintName = "sound-name"
  public static let suppressSound: HintName = "suppress-sound"
  public static let x: HintName = "x"
  public static let y: HintName = "y"
  /// KDE's placeholder text for the inline reply field.
  public static let replyPlaceholder: HintName = "x-kde-reply-placeholder-text"
  /// dunst's stack tag: a notification with the same tag replaces the shown one.
  public static let dunstStackTag: HintName = "x-dunst-stack-tag"
  /// The stack tag of Ubuntu's NotifyOSD, also read by dunst and others.
  public static let canonicalPrivateSynchronous: HintName = "x-canonical-private-synchronous"
}
