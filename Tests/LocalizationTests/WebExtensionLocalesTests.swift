import Foundation
import TestSupport
import Testing

@testable import Localization

@Suite("The browser extension's _locales are made from the catalogs")
struct WebExtensionLocalesTests {
  private static let extensionFolder = Repository.root + "/integrations/webextension"

  private static var generated: [WebExtensionLocales.File] {
    WebExtensionLocales.files(for: CatalogSet.load(from: CatalogDirectory(path: Repository.locales)))
  }

  @Test("The committed files are the ones the catalogs give (after a change: shieldbridge locales webextension)")
  func committedInStep() throws {
    for file in Self.generated {
      let committed = try? String(contentsOfFile: Self.extensionFolder + "/" + file.path, encoding: .utf8)
      #expect(
        committed == file.text,
        "\(file.path) is not current: run 'shieldbridge locales webextension integrations/webextension'")
    }
    let folders = try FileManager.default.contentsOfDirectory(atPath: Self.extensionFolder + "/_locales")
    let expected = Self.generated.map { $0.path.split(separator: "/")[1] }.map(String.init)
    #expect(Set(folders) == Set(expected), "a _locales folder without a catalog")
  }

  @Test("English and every catalog: valid JSON, names browsers take, a message each")
  func validFiles() throws {
    let files = Self.generated
    #expect(files.first?.path == "_locales/en/messages.json")
    #expect(files.count == Repository.catalogFiles.count + 1)
    for file in files {
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(file.text.utf8)) as? [String: [String: Any]], "\(file.path)")
      for (name, entry) in object {
        #expect(name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }, "\(name)")
        #expect((entry["message"] as? String)?.isEmpty == false, "\(file.path): \(name)")
      }
    }
  }

  @Test("A placeholder becomes $NAME$ numbered by the source; the variant without an app is _no_app")
  func placeholders() throws {
    let english = try #require(Self.generated.first)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(english.text.utf8)) as? [String: [String: Any]])
    #expect(object["shield_summary"]?["message"] as? String == "$APP$ is paused")
    let placeholders = object["shield_summary"]?["placeholders"] as? [String: [String: String]]
    #expect(placeholders?["app"]?["content"] == "$1")
    #expect(object["shield_summary_no_app"]?["message"] as? String == "This app is paused")
    #expect(object["puzzle_title"]?["message"] as? String == "A short task")
    #expect(object["puzzle_prompt"]?["message"] as? String == "Answer:")
    #expect(object["puzzle_reply_placeholder"]?["message"] as? String == "Type the answer")
    // Plural messages are the host's to render: browsers have no plural rules.
    #expect(object["puzzle_intro"] == nil)
    #expect(object["usage_warning"] == nil)
  }

  @Test("A translation keeps its own word order; a literal $ is doubled")
  func translationSyntax() {
    #expect(WebExtensionLocales.browserText("{app} ist pausiert", names: ["app"]) == "$APP$ ist pausiert")
    #expect(WebExtensionLocales.browserText("Pause: {app}", names: ["app"]) == "Pause: $APP$")
    #expect(WebExtensionLocales.browserText("5 $ für {app}", names: ["app"]) == "5 $$ für $APP$")
    #expect(WebExtensionLocales.placeholderNames("{a} {b} {a}") == ["a", "b"])
    // The localizer's grammar: no template, no placeholders, and such a translation is left out.
    #expect(WebExtensionLocales.placeholderNames("{a} {b} {a} {not a name} {}") == [])
    #expect(WebExtensionLocales.browserText("{app ist pausiert", names: ["app"]) == nil)
    #expect(WebExtensionLocales.browserText("{other} ist pausiert", names: ["app"]) == nil)
    #expect(WebExtensionLocales.browserText("{{app}} und {app}", names: ["app"]) == "{app} und $APP$")
    #expect(WebExtensionLocales.quoted("a\"b\\c\n\u{1}") == #""a\"b\\c\n\u0001""#)
  }

  @Test("shieldbridge locales webextension DIR writes every file, byte for byte the committed ones")
  func command() async throws {
    let folder = try TemporaryDirectory()
    let result = try await ShieldBridgeTool.run(
      ["locales", "webextension", "--dir", Repository.locales, folder.path],
      environment: ["LANGUAGE": "", "LC_ALL": "", "LANG": "C.UTF-8"])
    #expect(result.status == 0, "\(result.error)")
    let generated = Self.generated
    #expect(result.output.split(separator: "\n").map(String.init) == generated.map { folder.path + "/" + $0.path })
    for file in generated {
      let written = try String(contentsOfFile: folder.path + "/" + file.path, encoding: .utf8)
      let committed = try String(contentsOfFile: Self.extensionFolder + "/" + file.path, encoding: .utf8)
      #expect(written == committed, "\(file.path)")
    }
    let missing = try await ShieldBridgeTool.run(["locales", "webextension", folder.path + "/absent"])
    #expect(missing.status == 66)
    #expect(missing.error.contains("no folder at"))
  }
}
