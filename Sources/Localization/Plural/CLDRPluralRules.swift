/// CLDR's cardinal plural rules for whole numbers, written as gettext `Plural-Forms`, for the languages `locales check` knows.
///
/// The forms are numbered in CLDR's category order (zero, one, two, few, many,
/// other), counting only the categories that whole numbers reach, which is the
/// numbering gettext catalogs use. Categories reached only by fractions (the
/// `other` of Russian) or only by numbers of a million and more (the `many` of
/// French) are left out, as translators leave them out of catalogs. The tests
/// compare every rule here with tables generated from Babel (`scripts/plural-tables`).
public enum CLDRPluralRules {
  /// The rule of a language (`ru`, or `ru-RU` which is looked up as `ru`), if it is known.
  public static func forms(for language: String) -> PluralForms? {
    let base =
      language.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.asciiLowercased }
      ?? ""
    return table[base]
  }

  /// The languages with a known rule, sorted.
  public static var languages: [String] { table.keys.sorted() }

  /// Each rule as written, before compiling; kept separately so that a test can
  /// prove every one of them compiles (a rule that did not would be missing from ``table``).
  static let sources: [(languages: String, count: Int, expression: String)] = [
    ("id ja ko ms th zh", 1, "0"),
    ("bg ca da de el en es et eu fi gl hu it nb nl nn sq sv tr", 2, "n != 1"),
    ("fa fr hi pt vi", 2, "n > 1"),
    ("is mk", 2, "n % 10 == 1 && n % 100 != 11 ? 0 : 1"),
    ("cs sk", 3, "n == 1 ? 0 : n >= 2 && n <= 4 ? 1 : 2"),
    ("he", 3, "n == 1 ? 0 : n == 2 ? 1 : 2"),
    (
      "hr ru sr uk", 3,
      "n % 10 == 1 && n % 100 != 11 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14) ? 1 : 2"
    ),
    ("pl", 3, "n == 1 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14) ? 1 : 2"),
    (
      "lt", 3,
      "n % 10 == 1 && (n % 100 < 11 || n % 100 > 19) ? 0 : n % 10 >= 2 && (n % 100 < 11 || n % 100 > 19) ? 1 : 2"
    ),
    (
      "lv", 3,
      "n % 10 == 0 || (n % 100 >= 11 && n % 100 <= 19) ? 0 : n % 10 == 1 && n % 100 != 11 ? 1 : 2"
    ),
    ("ro", 3, "n == 1 ? 0 : n == 0 || (n % 100 >= 1 && n % 100 <= 19) ? 1 : 2"),
    ("sl", 4, "n % 100 == 1 ? 0 : n % 100 == 2 ? 1 : n % 100 == 3 || n % 100 == 4 ? 2 : 3"),
    ("ga", 5, "n == 1 ? 0 : n == 2 ? 1 : n >= 3 && n <= 6 ? 2 : n >= 7 && n <= 10 ? 3 : 4"),
    (
      "ar", 6,
      "n == 0 ? 0 : n == 1 ? 1 : n == 2 ? 2 : n % 100 >= 3 && n % 100 <= 10 ? 3 : n % 100 >= 11 ? 4 : 5"
    ),
    ("cy", 6, "n == 0 ? 0 : n == 1 ? 1 : n == 2 ? 2 : n == 3 ? 3 : n == 6 ? 4 : 5"),
  ]

  private static let table: [String: PluralForms] = {
    var table: [String: PluralForms] = [:]
    for source in sources {
      guard let expression = try? PluralExpression(parsing: source.expression),
        let forms = try? PluralForms(count: source.count, expression: expression)
      else { continue }
      for language in source.languages.split(separator: " ") { table[String(language)] = forms }
    }
    return table
  }()
}
