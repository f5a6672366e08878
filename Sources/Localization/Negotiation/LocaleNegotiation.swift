/// Choosing the catalogs for the user's environment, the way GNU gettext does.
///
/// The messages locale is the first non-empty one of `LC_ALL`, `LC_MESSAGES`
/// and `LANG`. When it is `C` or `POSIX` (or unset), messages stay in the
/// source language and `LANGUAGE` is ignored. Otherwise `LANGUAGE`, a colon
/// list, takes precedence when it is set; else the locale itself is used. Each
/// name loses its `.codeset` and `@modifier` and falls back to its language
/// (`de_AT` → `de-AT`, `de`). The chain always ends with the source language,
/// English, and stops there: `LANGUAGE=en:de` means English.
public enum LocaleNegotiation {
  /// The variable that lists languages in order of preference.
  public static let languageVariable = "LANGUAGE"
  /// The variables that name the messages locale, strongest first.
  public static let localeVariables = ["LC_ALL", "LC_MESSAGES", "LANG"]

  /// The messages locale of `environment`: the first non-empty of `LC_ALL`, `LC_MESSAGES`, `LANG`.
  public static func messagesLocale(in environment: [String: String]) -> String? {
    localeVariables.lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
  }

  /// Whether `name` is the C locale (`C`, `POSIX`, `C.UTF-8`, …), in which gettext translates nothing.
  public static func isCLocale(_ name: String) -> Bool {
    let base = name.split(whereSeparator: { $0 == "." || $0 == "@" }).first.map(String.init) ?? name
    return base == "C" || base == "POSIX"
  }

  /// Every tag to try, best first, ending with ``LocaleTag/source``.
  ///
  /// - Parameters:
  ///   - environment: The variables to read (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`).
  ///   - override: An explicit choice (a tag or a colon list) that replaces the
  ///     environment, such as a `--locale` option or a configured language.
  public static func candidates(environment: [String: String], override: String? = nil)
    -> [LocaleTag]
  {
    let names: [Substring]
    if let override, !override.isEmpty {
      names = override.split(separator: ":")
    } else if let locale = messagesLocale(in: environment), !isCLocale(locale) {
      if let language = environment[languageVariable], !language.isEmpty {
        names = language.split(separator: ":")
      } else {
        names = [Substring(locale)]
      }
    } else {
      names = []
    }
    var tags: [LocaleTag] = []
    for name in names where !isCLocale(String(name)) {
      guard let tag = LocaleTag(name) else { continue }
      for fallback in tag.fallbacks where !tags.contains(fallback) {
        tags.append(fallback)
      }
      if tags.contains(.source) { break }
    }
    if let sourceIndex = tags.firstIndex(of: .source) {
      tags.removeSubrange((sourceIndex + 1)...)
    } else {
      tags.append(.source)
    }
    return tags
  }

  /// The catalogs to use, best first: the ``candidates(environment:override:)`` that are available, then English.
  ///
  /// - Parameter isAvailable: Whether a catalog (or a pseudo-locale) exists for a tag.
  public static func chain(
    environment: [String: String], override: String? = nil, isAvailable: (LocaleTag) -> Bool
  ) -> [LocaleTag] {
    candidates(environment: environment, override: override).filter {
      $0 == .source || isAvailable($0)
    }
  }
}
