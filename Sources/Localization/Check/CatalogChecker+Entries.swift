import Posix

extension CatalogChecker {
  /// The role of each product message, to find its length budget.
  private static let roles: [MessageLookupKey: MessageRole] = {
    var roles: [MessageLookupKey: MessageRole] = [:]
    for key in MessageKey.allCases {
      let definition = key.definition
      for source in definition.sources { roles[source.key] = definition.role }
    }
    return roles
  }()

  mutating func checkEntries() {
    var seen: [MessageLookupKey: Int] = [:]
    for entry in file.entries {
      if let first = seen[entry.key] {
        report(entry.idLine, .error, .duplicate, "\(entry.key) is already defined on line \(first)")
        continue
      }
      seen[entry.key] = entry.idLine
      if entry.isFuzzy {
        report(
          entry.line, .warning, .fuzzy,
          "\(entry.key) is fuzzy; English is shown until it is reviewed")
      }
      if let pluralForms, entry.idPlural != nil, entry.translations.count != pluralForms.count {
        report(
          entry.translationLines.first ?? entry.idLine, .error, .pluralCount,
          "\(entry.translations.count) plural forms, but the header's nplurals is \(pluralForms.count)"
        )
      }
      if !entry.isTranslated {
        report(
          entry.translationLines.first ?? entry.idLine, .warning, .untranslated,
          "\(entry.key) is not translated; English is shown")
      }
      checkPlaceholders(entry)
      for (index, translation) in entry.translations.enumerated() where !translation.isEmpty {
        let line =
          index < entry.translationLines.count ? entry.translationLines[index] : entry.idLine
        let source = index > 0 ? (entry.idPlural ?? entry.id) : entry.id
        let form = entry.idPlural == nil ? "msgstr" : "msgstr[\(index)]"
        checkMarkup(translation, source: source, line: line, form: form)
        checkControlCharacters(translation, source: source, line: line, form: form)
        checkWhitespace(translation, source: source, line: line, form: form)
        checkTone(translation, source: source, line: line, form: form)
        if let budget = Self.roles[entry.key]?.lengthBudget {
          checkLength(translation, budget: budget, line: line, form: form)
        }
      }
    }
  }

  mutating func checkAgainstTemplate() {
    guard let template else { return }
    let templateEntries = Dictionary(
      template.entries.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    let catalogKeys = Set(file.entries.map(\.key))
    for entry in file.entries {
      guard let templateEntry = templateEntries[entry.key] else {
        report(
          entry.idLine, .warning, .stale,
          "\(entry.key) is not in the template; msgmerge would make it obsolete")
        continue
      }
      if templateEntry.idPlural != entry.idPlural {
        report(
          entry.idLine, .warning, .stale, "\(entry.key) has another msgid_plural in the template")
      }
    }
    for entry in template.entries where !catalogKeys.contains(entry.key) {
      report(
        0, .warning, .missing, "\(entry.key) from the template is not in the catalog; run msgmerge")
    }
  }

  // MARK: Rules on one entry

  private mutating func checkPlaceholders(_ entry: POEntry) {
    let sources = [entry.id] + (entry.idPlural.map { [$0] } ?? [])
    var expected: Set<String> = []
    for source in sources {
      guard let template = try? MessageTemplate(parsing: source) else {
        report(entry.idLine, .error, .placeholder, "the source text has malformed braces")
        return
      }
      expected.formUnion(template.placeholders)
    }
    if !expected.isEmpty, !entry.flags.contains("python-brace-format") {
      report(
        entry.line, .warning, .placeholder,
        "the entry has placeholders but no 'python-brace-format' flag")
    }
    for (index, translation) in entry.translations.enumerated() where !translation.isEmpty {
      let line = index < entry.translationLines.count ? entry.translationLines[index] : entry.idLine
      let form = entry.idPlural == nil ? "msgstr" : "msgstr[\(index)]"
      let found: Set<String>
      do throws(MessageTemplate.SyntaxError) {
        found = Set(try MessageTemplate(parsing: translation).placeholders)
      } catch {
        report(line, .error, .placeholder, "\(form) has \(error)")
        continue
      }
      for name in found.subtracting(expected).sorted() {
        report(
          line, .error, .placeholder, "\(form) uses {\(name)}, which the source text does not have")
      }
      // As msgfmt does, a form that stands for one number only may spell it out.
      let standsForOneNumber =
        entry.idPlural != nil && index < formHits.count && formHits[index] == 1
      for name in expected.subtracting(found).sorted() where !standsForOneNumber {
        report(line, .error, .placeholder, "\(form) leaves out {\(name)}")
      }
    }
  }

  private mutating func checkMarkup(_ translation: String, source: String, line: Int, form: String) {
    let found = MarkupScanner(translation)
    let expected = MarkupScanner(source)
    if let problem = found.balanceProblem {
      report(line, .error, .markup, "\(form) has unbalanced markup: \(problem)")
    } else if found.tags.map(\.name).sorted() != expected.tags.map(\.name).sorted() {
      let names = Set(found.tags.map { "<\($0.name)>" }).sorted().joined(separator: ", ")
      report(
        line, .error, .markup,
        "\(form) has markup the source has not (\(names)); it would show literally")
    }
    for entity in Set(found.entities).subtracting(expected.entities).sorted() {
      report(
        line, .error, .markup,
        "\(form) has the entity \(entity); write the character itself, it is escaped when needed")
    }
  }

  private mutating func checkControlCharacters(
    _ translation: String, source: String, line: Int, form: String
  ) {
    let found = Self.controlCharacters(translation)
    let expected = Self.controlCharacters(source)
    guard found != expected else { return }
    for scalar in Set(found.keys).union(expected.keys).sorted(by: { $0.value < $1.value })
    where found[scalar, default: 0] != expected[scalar, default: 0] {
      report(
        line, .warning, .escape,
        "\(form) has \(found[scalar, default: 0]) × \(Self.escaped(scalar)) where the source has \(expected[scalar, default: 0])"
      )
    }
  }

  private mutating func checkWhitespace(
    _ translation: String, source: String, line: Int, form: String
  ) {
    // msgfmt -c refuses a leading or trailing newline on one side only.
    if translation.hasPrefix("\n") != source.hasPrefix("\n") {
      report(line, .error, .whitespace, "\(form) and msgid do not both begin with \\n")
    }
    if translation.hasSuffix("\n") != source.hasSuffix("\n") {
      report(line, .error, .whitespace, "\(form) and msgid do not both end with \\n")
    }
    if Self.isSpace(translation.unicodeScalars.first) != Self.isSpace(source.unicodeScalars.first) {
      report(line, .warning, .whitespace, "\(form) and msgid differ in leading spaces")
    }
    if Self.isSpace(translation.unicodeScalars.last) != Self.isSpace(source.unicodeScalars.last) {
      report(line, .warning, .whitespace, "\(form) and msgid differ in trailing spaces")
    }
    if translation.includes("  "), !source.includes("  ") {
      report(line, .warning, .whitespace, "\(form) has a doubled space")
    }
  }

  private mutating func checkTone(_ translation: String, source: String, line: Int, form: String) {
    let marks: Set<Unicode.Scalar> = ["!", "¡", "！"]
    let found = translation.unicodeScalars.count { marks.contains($0) }
    if found > source.unicodeScalars.count(where: { marks.contains($0) }) {
      report(
        line, .warning, .tone, "\(form) has an exclamation mark; ShieldBridge's messages stay calm")
    }
  }

  private mutating func checkLength(_ translation: String, budget: Int, line: Int, form: String) {
    guard let template = try? MessageTemplate(parsing: translation) else { return }
    let length =
      template.literalText.count + template.placeholders.count * MessageRole.nominalValueLength
    if length > budget {
      report(
        line, .warning, .length,
        "\(form) takes \(length) characters (placeholders counted as \(MessageRole.nominalValueLength)); the budget is \(budget)"
      )
    }
  }

  // MARK: Helpers

  private static func controlCharacters(_ text: String) -> [Unicode.Scalar: Int] {
    var trimmed = Substring(text)
    while trimmed.hasPrefix("\n") { trimmed = trimmed.dropFirst() }
    while trimmed.hasSuffix("\n") { trimmed = trimmed.dropLast() }
    var counts: [Unicode.Scalar: Int] = [:]
    for scalar in trimmed.unicodeScalars where scalar.value < 0x20 || scalar.value == 0x7F {
      counts[scalar, default: 0] += 1
    }
    return counts
  }

  private static func escaped(_ scalar: Unicode.Scalar) -> String {
    switch scalar {
    case "\n": "\\n"
    case "\t": "\\t"
    case "\r": "\\r"
    default: "\\" + String(scalar.value, radix: 8)
    }
  }

  private static func isSpace(_ scalar: Unicode.Scalar?) -> Bool {
    scalar == " " || scalar == "\t" || scalar == "\u{A0}" || scalar == "\u{3000}"
  }
}
