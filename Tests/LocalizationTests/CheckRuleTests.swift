import Foundation
import Testing

@testable import Localization

@Suite("Each rule of locales check fires on its broken fixture")
struct CheckRuleTests {
  @Test("The fixture of a rule makes exactly that rule fire", arguments: CheckRule.allCases)
  func fires(rule: CheckRule) throws {
    let directory = CatalogDirectory(path: Repository.fixtures + "/broken/\(rule.rawValue)")
    #expect(directory.exists, "every rule needs a fixture folder")
    let report = CatalogCheck.check(directory: directory)
    #expect(!report.diagnostics.isEmpty)
    #expect(
      Set(report.diagnostics.map(\.rule)) == [rule], "\(report.diagnostics.map(\.description))")
    for diagnostic in report.diagnostics {
      #expect(diagnostic.file.hasPrefix(directory.path))
      #expect(diagnostic.line > 0 || rule == .missing)
    }
  }

  @Test("A plural expression that divides by zero is a range error")
  func divisionByZero() throws {
    let file = try parsePO(header(pluralForms: "nplurals=2; plural=n / (n - 5) > 0;"))
    let diagnostics = CatalogCheck.check(file, template: nil, fileTag: LocaleTag("de"))
    #expect(
      diagnostics.contains {
        $0.rule == .pluralRange && $0.severity == .error && $0.message.contains("n = 5")
      })
  }

  @Test("A rule with CLDR's count but another grouping is a warning, whatever the numbering")
  func cldrGrouping() throws {
    let permuted = try parsePO(
      header(
        language: "pl",
        pluralForms:
          "nplurals=3; plural=n==1 ? 2 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 0 : 1;"))
    #expect(CatalogCheck.check(permuted, template: nil, fileTag: LocaleTag("pl")).isEmpty)
    let wrong = try parsePO(
      header(language: "pl", pluralForms: "nplurals=3; plural=n==1 ? 0 : n<5 ? 1 : 2;"))
    let diagnostics = CatalogCheck.check(wrong, template: nil, fileTag: LocaleTag("pl"))
    #expect(diagnostics.map(\.rule) == [.pluralCLDR])
    #expect(diagnostics.first?.severity == .warning)
    #expect(diagnostics.first?.message.contains("groups 2 differently") == true)
  }

  @Test("A plural form that stands for one number may spell the number out, as msgfmt allows")
  func singleNumberForm() throws {
    let arabic =
      header(
        language: "ar",
        pluralForms:
          "nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5;"
      )
        + """
        #, python-brace-format
        msgid "{minutes} minute"
        msgid_plural "{minutes} minutes"
        msgstr[0] "{minutes} دقيقة"
        msgstr[1] "دقيقة واحدة"
        msgstr[2] "دقيقتان"
        msgstr[3] "{minutes} دقائق"
        msgstr[4] "{minutes} دقيقة"
        msgstr[5] "دقيقة"
        """
    let diagnostics = CatalogCheck.check(
      try parsePO(arabic), template: nil, fileTag: LocaleTag("ar"))
    #expect(diagnostics.map(\.rule) == [.placeholder])
    #expect(diagnostics.first?.line == 14)
    #expect(diagnostics.first?.message == "msgstr[5] leaves out {minutes}")
  }

  @Test("Header problems: no header, a wrong Language, no Plural-Forms with plural entries")
  func headers() throws {
    let noHeader = try parsePO("msgid \"a\"\nmsgstr \"b\"")
    #expect(CatalogCheck.check(noHeader, template: nil, fileTag: nil).map(\.rule) == [.header])
    let wrongLanguage = try parsePO(
      header(language: "ja", pluralForms: "nplurals=2; plural=(n != 1);"))
    let diagnostics = CatalogCheck.check(wrongLanguage, template: nil, fileTag: LocaleTag("de"))
    #expect(diagnostics.contains { $0.rule == .header && $0.message.contains("named for 'de'") })
    let noPlural = try parsePO(
      "msgid \"\"\nmsgstr \"Content-Type: text/plain; charset=UTF-8\\nLanguage: de\\n\"\n\nmsgid \"a\"\nmsgid_plural \"as\"\nmsgstr[0] \"b\"\nmsgstr[1] \"bs\""
    )
    #expect(
      CatalogCheck.check(noPlural, template: nil, fileTag: LocaleTag("de")).map(\.severity) == [
        .error
      ])
  }
}
