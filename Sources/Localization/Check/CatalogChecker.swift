/// The checks of one catalog file; ``CatalogCheck`` is its entry point.
struct CatalogChecker {
  let file: POFile
  let template: POFile?
  let fileTag: LocaleTag?
  var diagnostics: [Diagnostic] = []
  /// The header's rule, when it is valid.
  var pluralForms: PluralForms?
  /// For each plural form, how many of the sample numbers 0…1000 select it.
  var formHits: [Int] = []

  init(file: POFile, template: POFile?, fileTag: LocaleTag?) {
    self.file = file
    self.template = template
    self.fileTag = fileTag
  }

  mutating func run() {
    checkHeader()
    checkEntries()
    checkAgainstTemplate()
  }

  mutating func report(_ line: Int, _ severity: Severity, _ rule: CheckRule, _ message: String) {
    diagnostics.append(Diagnostic(file: file.path, line: line, severity, rule, message))
  }

  // MARK: Header

  private mutating func checkHeader() {
    guard let header = file.header, let headerEntry = file.headerEntry else {
      report(1, .error, .header, "the catalog has no header entry (msgid \"\")")
      return
    }
    if headerEntry.isFuzzy {
      report(
        headerEntry.line, .warning, .header,
        "the header is marked fuzzy; msgfmt ignores fuzzy headers")
    }
    if header.charset != "utf-8" {
      let line = header.field("Content-Type")?.line ?? header.line
      report(
        line, .error, .header, "the charset must be UTF-8, not '\(header.charset ?? "missing")'")
    }
    let language = header["Language"].flatMap { LocaleTag($0) }
    if language == nil {
      report(header.line, .warning, .header, "the header has no valid Language field")
    } else if let language, let fileTag, language != fileTag {
      report(
        header.field("Language")?.line ?? header.line, .warning, .header,
        "Language is '\(language)' but the file is named for '\(fileTag)'")
    }
    checkPluralForms(header, language: language ?? fileTag)
  }

  private mutating func checkPluralForms(_ header: POHeader, language: LocaleTag?) {
    guard let field = header.field("Plural-Forms") else {
      let hasPlurals = file.entries.contains { $0.idPlural != nil }
      report(
        header.line, hasPlurals ? .error : .warning, .header,
        "the header has no Plural-Forms"
          + (hasPlurals ? ", but the catalog has plural messages" : ""))
      return
    }
    let forms: PluralForms
    do throws(PluralFormsError) {
      forms = try PluralForms(header: field.value)
    } catch {
      report(field.line, .error, .header, "Plural-Forms is invalid: \(error)")
      return
    }
    var hits = [Int](repeating: 0, count: forms.count)
    for n in CatalogCheck.sampleNumbers {
      do throws(PluralFormsError) {
        let index = try forms.index(for: n)
        if n <= 1000 { hits[index] += 1 }
      } catch {
        report(field.line, .error, .pluralRange, error.message)
        return
      }
    }
    pluralForms = forms
    formHits = hits
    for (index, count) in hits.enumerated() where count == 0 {
      report(field.line, .warning, .pluralRange, "no number from 0 to 1000 selects form \(index)")
    }
    guard let language, let cldr = CLDRPluralRules.forms(for: language.language) else { return }
    if cldr.count != forms.count {
      report(
        field.line, .error, .pluralCLDR,
        "'\(language.language)' has \(cldr.count) plural forms in CLDR, the header says \(forms.count); CLDR's rule: \(cldr)"
      )
      return
    }
    if let n = Self.firstDisagreement(forms, cldr) {
      report(
        field.line, .warning, .pluralCLDR,
        "the expression groups \(n) differently from CLDR's rule for '\(language.language)': \(cldr)"
      )
    }
  }

  /// The first number in 0…1000 where two rules disagree on which numbers share a form.
  ///
  /// Rules may number their forms differently; what must match is the grouping,
  /// so the forms are compared through the first number that reaches each.
  private static func firstDisagreement(_ a: PluralForms, _ b: PluralForms) -> UInt64? {
    var mapping: [Int: Int] = [:]
    var reverse: [Int: Int] = [:]
    for n: UInt64 in 0...1000 {
      guard let x = try? a.index(for: n), let y = try? b.index(for: n) else { return n }
      if mapping[x] == nil, reverse[y] == nil {
        mapping[x] = y
        reverse[y] = x
      }
      if mapping[x] != y { return n }
    }
    return nil
  }
}
