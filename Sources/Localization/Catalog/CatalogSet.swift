import Posix

/// The catalogs of a folder, loaded; the place localizers are made from.
///
/// Loading never fails as a whole: a file that cannot be read or parsed is left
/// out and reported in ``problems``, and its messages fall back to English.
public struct CatalogSet: Sendable {
  /// The folder the catalogs came from, if one was found.
  public let directory: CatalogDirectory?
  /// The loaded catalogs by language.
  public let catalogs: [LocaleTag: Catalog]
  /// The files that were left out, and why.
  public let problems: [POParseError]

  /// A set with no catalogs: every message in English (and the pseudo-locales).
  public static let empty = CatalogSet(directory: nil, catalogs: [:], problems: [])

  init(directory: CatalogDirectory?, catalogs: [LocaleTag: Catalog], problems: [POParseError]) {
    self.directory = directory
    self.catalogs = catalogs
    self.problems = problems
  }

  /// Loads the catalogs of `directory`, all of them or only those for `tags`.
  public static func load(from directory: CatalogDirectory?, only tags: Set<LocaleTag>? = nil)
    -> CatalogSet
  {
    guard let directory else { return .empty }
    var catalogs: [LocaleTag: Catalog] = [:]
    var problems: [POParseError] = []
    for file in directory.catalogFiles() where tags?.contains(file.tag) ?? true {
      do {
        catalogs[file.tag] = try Catalog(contentsOf: file.path, tag: file.tag)
      } catch {
        problems.append(error)
      }
    }
    return CatalogSet(directory: directory, catalogs: catalogs, problems: problems)
  }

  /// The languages with a catalog, sorted.
  public var tags: [LocaleTag] { catalogs.keys.sorted() }

  /// Whether messages can be shown in `tag`: a catalog, a pseudo-locale, or English.
  public func isAvailable(_ tag: LocaleTag) -> Bool {
    tag == .source || catalogs[tag] != nil || PseudoLocale(tag: tag) != nil
  }

  /// A localizer for an explicit chain of languages (English is added at the end when missing).
  public func localizer(chain: [LocaleTag]) -> Localizer {
    Localizer(chain: chain, catalogs: self)
  }

  /// A localizer for the chain negotiated from `environment` (this process's when `nil`),
  /// or from `override` when it is given.
  public func localizer(environment: [String: String]? = nil, override: String? = nil) -> Localizer {
    Localizer(
      chain: LocaleNegotiation.chain(
        environment: environment ?? Environment.all, override: override,
        isAvailable: isAvailable),
      catalogs: self)
  }
}
