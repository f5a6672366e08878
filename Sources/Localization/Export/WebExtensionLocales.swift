import JSON
import Posix

/// The browser extension's static texts, as `_locales/LANG/messages.json` files made from the catalogs.
///
/// Browsers read an extension's texts from `_locales/` in their own JSON
/// format (`chrome.i18n`), and they have no plural rules. So the shield page's
/// fixed texts ("A short task", "Answer:") come from here, and every text with
/// a count is rendered by the native host from the same catalogs. Only the
/// messages without a plural are written, under names made from their keys
/// (`puzzle.reply-placeholder` → `puzzle_reply_placeholder`, the variant
/// without an app name with `_no_app`), so nothing is translated twice.
///
/// A `{name}` placeholder becomes the browsers' `$NAME$` with `"content":
/// "$1"`, numbered in the order of the English source, so that
/// `getMessage("shield_summary", ["Instagram"])` fills it; a literal `$` is
/// written `$$`. Placeholders are read with ``MessageTemplate``, as the
/// localizer reads them. A catalog's missing or fuzzy translation, or one
/// that is no template, is left out, and the browser falls back to the
/// English file (`default_locale` is `en`).
public enum WebExtensionLocales {
  /// One file to write: its path under the extension's folder, and its text.
  public struct File: Hashable, Sendable {
    /// Such as `_locales/pt_BR/messages.json`.
    public var path: String
    /// The JSON text, ending with a newline.
    public var text: String
  }

  /// The English file and one file for each catalog of `catalogs`, in tag order.
  public static func files(for catalogs: CatalogSet) -> [File] {
    var files = [file(for: .source, lookup: { $0.singular })]
    for tag in catalogs.tags where tag != .source {
      guard let catalog = catalogs.catalogs[tag] else { continue }
      files.append(
        file(for: tag) { source in
          catalog.translation(context: source.context, id: source.singular, plural: false, n: 1)
        })
    }
    return files
  }

  /// The messages the extension can use: every source without a plural, with its name.
  static var messages: [(name: String, source: MessageSource, comment: String)] {
    var messages: [(name: String, source: MessageSource, comment: String)] = []
    for key in MessageKey.allCases {
      let definition = key.definition
      let base = String(key.rawValue.map { $0 == "." || $0 == "-" ? "_" : $0 })
      for source in definition.sources where source.plural == nil {
        let name = source.context == MessageSource.noAppContext ? base + "_no_app" : base
        messages.append((name, source, definition.comment))
      }
    }
    return messages
  }

  /// The browser's name for a locale folder: `pt_BR`, `de`.
  static func folderName(_ tag: LocaleTag) -> String {
    String(tag.identifier.map { $0 == "-" ? "_" : $0 })
  }

  private static func file(for tag: LocaleTag, lookup: (MessageSource) -> String?) -> File {
    var text = "{\n"
    var first = true
    for message in messages {
      let names = placeholderNames(message.source.singular)
      guard let translation = lookup(message.source), !translation.isEmpty,
        let rendered = browserText(translation, names: names)
      else { continue }
      if !first { text += ",\n" }
      first = false
      text += "  \(quoted(message.name)): {\n"
      text += "    \"message\": \(quoted(rendered)),\n"
      text += "    \"description\": \(quoted(message.comment))"
      if !names.isEmpty {
        text += ",\n    \"placeholders\": {\n"
        text += names.enumerated().map { index, name in
          "      \(quoted(name)): { \"content\": \"$\(index + 1)\" }"
        }.joined(separator: ",\n")
        text += "\n    }"
      }
      text += "\n  }"
    }
    text += "\n}\n"
    return File(path: "_locales/\(folderName(tag))/messages.json", text: text)
  }

  /// The `{name}` placeholders of `text`, each once, in order; none when
  /// `text` is no template (``MessageTemplate``, the grammar the localizer reads).
  static func placeholderNames(_ text: String) -> [String] {
    guard let template = try? MessageTemplate(parsing: text) else { return [] }
    var names: [String] = []
    for name in template.placeholders where !names.contains(name) { names.append(name) }
    return names
  }

  /// `text` in the browsers' syntax: `{name}` → `$NAME$`, `$` → `$$`, `{{` → `{`.
  ///
  /// - Returns: `nil` when `text` is no template or names a placeholder not in
  ///   `names`: the localizer would not show such a translation either, and
  ///   the browser then falls back to English.
  static func browserText(_ text: String, names: [String]) -> String? {
    guard let template = try? MessageTemplate(parsing: text) else { return nil }
    var result = ""
    for segment in template.segments {
      switch segment {
      case .text(let literal):
        result += literal.replacingAll("$", with: "$$")
      case .placeholder(let name):
        guard names.contains(name) else { return nil }
        result += "$\(name.uppercased())$"
      }
    }
    return result
  }

  /// `text` as a JSON string literal, escaped as every JSON ShieldBridge writes.
  static func quoted(_ text: String) -> String {
    var writer = JSONWriter(capacity: text.utf8.count + 2)
    writer.string(text)
    return writer.text
  }
}
