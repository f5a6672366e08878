/// The English source of one message as the catalogs know it: context, `msgid` and `msgid_plural`.
public struct MessageSource: Hashable, Sendable {
  /// The `msgctxt` of the variants used when the app name is missing or empty.
  public static let noAppContext = "no-app"

  /// `msgctxt`.
  public let context: String?
  /// `msgid`: the English text, and the singular of a plural message.
  public let singular: String
  /// `msgid_plural`: the English plural, for messages chosen by a number.
  public let plural: String?

  public init(context: String? = nil, _ singular: String, plural: String? = nil) {
    self.context = context
    self.singular = singular
    self.plural = plural
  }

  /// The lookup key in a catalog.
  public var key: MessageLookupKey { MessageLookupKey(context: context, id: singular) }
}

/// Everything the catalogs and tools know about one product message.
public struct MessageDefinition: Sendable {
  public let key: MessageKey
  public let role: MessageRole
  /// The comment for translators (`#.` in the template).
  public let comment: String
  /// The source text when the app name is known (or when the message has no app name).
  public let source: MessageSource
  /// The variant without the app name, in context ``MessageSource/noAppContext``.
  public let withoutApp: MessageSource?

  /// Both variants: ``source`` then ``withoutApp``.
  public var sources: [MessageSource] { [source] + (withoutApp.map { [$0] } ?? []) }
}
