import Foundation
import Localization
import TestSupport

/// Paths in the source tree, found from this file's location.
enum Repository {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent().path
  static let locales = root + "/locales"
  static let fixtures = root + "/Tests/Fixtures/Localization"

  /// The shipped catalogs, by language.
  static var catalogFiles: [CatalogDirectory.File] {
    CatalogDirectory(path: locales).catalogFiles()
  }
}

/// Parses PO text given as a Swift string.
func parsePO(_ text: String, path: String = "test.po") throws(POParseError) -> POFile {
  try POFile(parsing: Array(text.utf8), path: path)
}

/// The error of parsing `text`, or `nil` when it parses.
func parseError(_ text: String) -> POParseError? {
  do throws(POParseError) {
    _ = try parsePO(text)
    return nil
  } catch {
    return error
  }
}

/// A catalog header with the given language and plural rule.
func header(language: String = "de", pluralForms: String = "nplurals=2; plural=(n != 1);") -> String {
  """
  msgid ""
  msgstr ""
  "Language: \(language)\\n"
  "Content-Type: text/plain; charset=UTF-8\\n"
  "Plural-Forms: \(pluralForms)\\n"

  """
}
