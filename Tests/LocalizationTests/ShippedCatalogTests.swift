import Foundation
import Spawn
import Testing

@testable import Localization

@Suite("The shipped catalogs are complete and valid")
struct ShippedCatalogTests {
  @Test("The catalogs of the issue are there", arguments: ["de", "ja", "ru", "ar"])
  func present(language: String) {
    #expect(Repository.catalogFiles.contains { $0.tag.identifier == language })
  }

  @Test("Every catalog passes GNU msgfmt --check", arguments: Repository.catalogFiles.map(\.path))
  func msgfmt(path: String) throws {
    // gettext is installed by `make test`; a missing msgfmt fails here rather than skipping.
    let msgfmt = try #require(
      ["/usr/bin/msgfmt", "/usr/local/bin/msgfmt"].first {
        FileManager.default.isExecutableFile(atPath: $0)
      },
      "msgfmt is missing; run 'make test', which installs gettext")
    let result = try Subprocess.run(
      [msgfmt, "--check", "--output-file=/dev/null", path], timeout: .seconds(20))
    #expect(result.status == 0, "\(result.error)")
    #expect(result.error.isEmpty, "msgfmt warned: \(result.error)")
  }

  @Test("Our own check finds nothing, not even a warning")
  func ownCheck() {
    let report = CatalogCheck.check(directory: CatalogDirectory(path: Repository.locales))
    #expect(report.files.count == Repository.catalogFiles.count + 1)
    #expect(
      report.diagnostics.isEmpty, "\(report.diagnostics.map(\.description).joined(separator: "\n"))"
    )
  }

  @Test("The committed template is the one the message definitions give")
  func templateInStep() throws {
    let committed = try String(
      contentsOfFile: Repository.locales + "/shieldbridge.pot", encoding: .utf8)
    #expect(
      committed == CatalogTemplate.text(),
      "run: shieldbridge locales template > locales/shieldbridge.pot")
  }

  @Test(
    "Every message is translated in every catalog, with its plural forms",
    arguments: Repository.catalogFiles)
  func complete(file: CatalogDirectory.File) throws {
    let catalog = try Catalog(contentsOf: file.path, tag: file.tag)
    let forms = try #require(catalog.pluralForms)
    for key in MessageKey.allCases {
      for source in key.definition.sources {
        let translations = try #require(
          catalog.translations(context: source.context, id: source.singular))
        #expect(
          translations.count == (source.plural == nil ? 1 : forms.count), "\(file.tag) \(key)")
      }
    }
    for key in CommandKey.allCases {
      let source = key.source
      let translations = try #require(
        catalog.translations(context: source.context, id: source.singular), "\(file.tag) \(key)")
      #expect(translations.count == (source.plural == nil ? 1 : forms.count), "\(file.tag) \(key)")
      #expect(translations.allSatisfy { !$0.isEmpty }, "\(file.tag) \(key)")
    }
  }

  @Test("No catalog text has an exclamation mark or praise words")
  func calmTone() throws {
    let praise = [
      "great", "awesome", "well done", "super", "toll", "prima", "отлично", "молодец", "素晴らしい",
      "よくできました", "świetnie", "brawo", "رائع", "أحسنت",
    ]
    for file in Repository.catalogFiles {
      for entry in try POFile(contentsOf: file.path).entries {
        for text in entry.translations {
          #expect(!text.contains("!") && !text.contains("！"), "\(file.tag): \(text)")
          #expect(!praise.contains { text.lowercased().contains($0) }, "\(file.tag): \(text)")
        }
      }
    }
  }
}

extension CatalogDirectory.File: CustomTestStringConvertible {
  public var testDescription: String { tag.identifier }
}
