import NotificationMarkup
import Posix

/// Renders product messages in a chain of languages, falling back message by message.
///
/// For each message the chain is tried in order: a catalog gives its
/// translation when it has a usable one (translated, not fuzzy, with a plural
/// form for the number and only known placeholders); a pseudo-locale rewrites
/// the English text; English, the last link, always answers. A key or a
/// placeholder never reaches the output.
public struct Localizer: Sendable {
  /// The languages tried, best first, ending with English.
  public let chain: [LocaleTag]
  private let providers: [Provider]

  private enum Provider: Sendable {
    case catalog(Catalog)
    case pseudo(PseudoLocale)
  }

  /// A localizer for `chain`, with the catalogs of `catalogs`; tags without a catalog are left out.
  public init(chain: [LocaleTag], catalogs: CatalogSet) {
    var used: [LocaleTag] = []
    var providers: [Provider] = []
    for tag in chain where !used.contains(tag) {
      if tag == .source { break }
      if let pseudo = PseudoLocale(tag: tag) {
        providers.append(.pseudo(pseudo))
      } else if let catalog = catalogs.catalogs[tag] {
        providers.append(.catalog(catalog))
      } else {
        continue
      }
      used.append(tag)
    }
    self.chain = used + [.source]
    self.providers = providers
  }

  /// English only: the source texts.
  public static let source = Localizer(chain: [], catalogs: .empty)

  /// The localizer for this process: catalogs found by ``CatalogDirectory/locate(explicit:environment:executablePath:currentDirectory:)``,
  /// languages negotiated from the environment, only the catalogs needed loaded.
  ///
  /// - Parameters:
  ///   - environment: The variables to negotiate from; this process's when `nil`.
  ///   - override: An explicit language (or colon list) that replaces the environment's.
  ///   - directory: The catalog folder; located when `nil`.
  public static func current(
    environment: [String: String]? = nil, override: String? = nil,
    directory: CatalogDirectory? = nil
  ) -> Localizer {
    let environment = environment ?? Environment.all
    let directory = directory ?? CatalogDirectory.locate(environment: environment)
    let files = Set(directory?.catalogFiles().map(\.tag) ?? [])
    let chain = LocaleNegotiation.chain(environment: environment, override: override) {
      files.contains($0) || PseudoLocale(tag: $0) != nil
    }
    return Localizer(chain: chain, catalogs: CatalogSet.load(from: directory, only: Set(chain)))
  }

  /// The language of the first link: the one most messages will be in.
  public var locale: LocaleTag { chain.first ?? .source }

  /// Whether text in ``locale`` runs right to left (Arabic, Hebrew, Persian, Urdu, …, and `ar-XB`).
  public var isRightToLeft: Bool {
    ["ar", "he", "fa", "ur", "ps", "yi", "dv", "ckb", "sd", "ug"].contains(locale.language)
  }

  /// The text of `message`.
  ///
  /// - Parameter markup: Escape `& < > " '` (in the translation and the
  ///   inserted values) for a notification server that reads body markup.
  public func render(_ message: ProductMessage, markup: Bool = false) -> String {
    let text = resolve(message)
    return markup ? Markup.escape(text) : text
  }

  /// The text of a command-line message (`status`, `rules`, `doctor`, the errors).
  public func render(_ message: CommandMessage) -> String {
    resolve(source: message.key.source, values: message.values, count: message.count)
  }

  private func resolve(_ message: ProductMessage) -> String {
    resolve(source: message.source, values: message.values, count: message.count)
  }

  private func resolve(source: MessageSource, values: [String: String], count: Int?) -> String {
    let n = UInt64(count?.magnitude ?? 1)
    let isPlural = source.plural != nil && count != nil
    let english = isPlural && n != 1 ? (source.plural ?? source.singular) : source.singular
    for provider in providers {
      let text: String?
      switch provider {
      case .catalog(let catalog):
        text = catalog.translation(
          context: source.context, id: source.singular, plural: isPlural, n: n
        )
        .flatMap { try? MessageTemplate(parsing: $0) }?.format(values)
      case .pseudo(let pseudo):
        text = (try? MessageTemplate(parsing: english)).map(pseudo.transform)?.format(values)
      }
      if let text { return text }
    }
    // The English templates are this module's own, and the tests render every one
    // of them; should one ever lack a value, the placeholder is dropped, not shown.
    guard let template = try? MessageTemplate(parsing: english) else { return english }
    return template.format(values) ?? template.literalText
  }

  /// A value as it may be inserted: control characters become spaces, outer spaces go.
  static func clean(_ value: String) -> String {
    // Most values (app names, numbers) need nothing: no control bytes (0xC2 leads
    // the C1 controls, and is checked the slow way), no spaces at the ends.
    let bytes = value.utf8
    if bytes.allSatisfy({ $0 >= 0x20 && $0 != 0x7F && $0 != 0xC2 }), bytes.first != 0x20,
      bytes.last != 0x20
    {
      return value
    }
    var scalars = String.UnicodeScalarView()
    for scalar in value.unicodeScalars {
      scalars.append(scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) ? " " : scalar)
    }
    return String(String(scalars).trimmingSpaces())
  }
}
