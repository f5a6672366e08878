import Foundation
import Localization
import TestSupport
import Testing

/// The environment of a `shieldbridge locales` run: no locale variables but those given.
private func environment(_ values: [String: String] = [:]) -> [String: String] {
  var environment = [
    "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "",
    CatalogDirectory.environmentVariable: "",
  ]
  environment.merge(values) { _, new in new }
  return environment
}

private func jsonLines(_ output: String) throws -> [[String: Any]] {
  try output.split(separator: "\n").map { line in
    try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
  }
}

@Suite("shieldbridge locales preview renders every message")
struct LocalesPreviewCommandTests {
  @Test(
    "With an empty app name no locale shows a brace, a key or a doubled space",
    arguments: ["", "Firefox"])
  func allLocales(app: String) async throws {
    let result = try await ShieldBridgeTool.run(
      ["locales", "preview", "--all", "--app", app, "--json", "--dir", Repository.locales],
      environment: environment())
    #expect(result.status == 0, "\(result.error)")
    let objects = try jsonLines(result.output)
    let locales = ["en"] + Repository.catalogFiles.map(\.tag.identifier) + ["en-XA", "ar-XB"]
    #expect(objects.count == locales.count * (MessageKey.allCases.count + CommandKey.allCases.count))
    #expect(Set(objects.compactMap { $0["locale"] as? String }) == Set(locales))
    for object in objects {
      #expect(Array(object.keys).sorted() == ["key", "locale", "text"])
      let text = try #require(object["text"] as? String)
      #expect(!text.contains("{") && !text.contains("}"), "\(object)")
      #expect(!text.isEmpty && text == text.trimmingCharacters(in: .whitespaces), "\(object)")
      #expect(!MessageKey.allCases.contains { text.contains($0.rawValue) }, "\(object)")
      // The command line's messages always name their app (a sample when --app is empty), and may hold two
      // spaces on purpose (a list's number, a status bar); the product's have variants without the app.
      if MessageKey(rawValue: object["key"] as? String ?? "") != nil {
        #expect(!text.contains("  "), "\(object)")
        if app.isEmpty { #expect(!text.contains("Firefox")) }
      }
    }
    let german = objects.first {
      $0["locale"] as? String == "de" && $0["key"] as? String == "shield.summary"
    }
    #expect(
      german?["text"] as? String
        == (app.isEmpty ? "Diese App ist pausiert" : "Firefox ist pausiert"))
  }

  @Test("LOCALE shows every command-line message, filled with sample values, after the product's")
  func commandMessages() async throws {
    let result = try await ShieldBridgeTool.run(
      ["locales", "preview", "ja", "--minutes", "3", "--dir", Repository.locales], environment: environment())
    #expect(result.status == 0, "\(result.error)")
    let lines = result.output.split(separator: "\n").map(String.init)
    #expect(lines.count == MessageKey.allCases.count + CommandKey.allCases.count)
    let keys = lines.map { $0.split(separator: " ", omittingEmptySubsequences: true)[1] }
    #expect(keys.suffix(CommandKey.allCases.count).map(String.init) == CommandKey.allCases.map(\.rawValue))
    for line in lines {
      // Every placeholder has a sample: none is shown as a name or left in braces.
      #expect(!line.contains("‹") && !line.contains("{"), "\(line)")
    }
    #expect(lines.contains { $0.hasPrefix("ja  setup.which") && $0.hasSuffix("どれにしますか。番号を入力してください（例: 1 3 6）:") })
    #expect(lines.contains { $0.hasPrefix("ja  error.report-too-many-days") && $0.contains("最大 3 日") })
    let both = try await ShieldBridgeTool.run(
      ["locales", "preview", "ja", "--locale", "de", "--dir", Repository.locales], environment: environment())
    #expect(both.status == 64)
  }

  @Test("Numbers pick each language's plural form")
  func plurals() async throws {
    let result = try await ShieldBridgeTool.run(
      ["locales", "preview", "--locale", "ru", "--minutes", "22", "--dir", Repository.locales],
      environment: environment())
    #expect(result.status == 0)
    #expect(
      result.output.contains(
        "shield.body               Решите короткую задачу, чтобы получить ещё 22 минуты для Firefox."
      ))
  }

  @Test("Without --locale the environment chooses, and markup is escaped on request")
  func negotiated() async throws {
    let result = try await ShieldBridgeTool.run(
      ["locales", "preview", "--app", "A&B", "--markup", "--dir", Repository.locales],
      environment: environment(["LANG": "ja_JP.UTF-8"]))
    #expect(result.status == 0)
    #expect(result.output.hasPrefix("ja  shield.summary            A&amp;Bは一時停止中です\n"))
  }

  @Test(
    "Wrong options are usage errors",
    arguments: [["--all", "--locale", "de"], ["--locale", "!!"], ["--minutes", "-1"]])
  func usage(arguments: [String]) async throws {
    let result = try await ShieldBridgeTool.run(
      ["locales", "preview"] + arguments, environment: environment())
    #expect(result.status == 64)
  }
}

@Suite("shieldbridge locales check reports with file and line")
struct LocalesCheckCommandTests {
  @Test("The shipped catalogs pass")
  func shipped() async throws {
    let result = try await ShieldBridgeTool.run(
      ["locales", "check", Repository.locales], environment: environment())
    #expect(result.status == 0)
    #expect(
      result.output == "\(Repository.catalogFiles.count + 1) files checked: 0 errors, 0 warnings\n")
  }

  @Test("--dir names the folder as DIR does, as 'locales --help' promises")
  func directoryOption() async throws {
    let argument = try await ShieldBridgeTool.run(
      ["locales", "check", Repository.locales], environment: environment())
    for arguments in [["--dir", Repository.locales], ["--dir=\(Repository.locales)", "--json"]] {
      let option = try await ShieldBridgeTool.run(["locales", "check"] + arguments, environment: environment())
      #expect(option.status == 0, "\(option.error)")
      #expect(option.error.isEmpty)
      #expect(option.output == (arguments.contains("--json") ? "" : argument.output))
    }
    let both = try await ShieldBridgeTool.run(
      ["locales", "check", Repository.locales, "--dir", Repository.locales], environment: environment())
    #expect(both.status == 64)
  }

  @Test("Without DIR the in-tree catalogs are checked")
  func defaultDirectory() async throws {
    let result = try await ShieldBridgeTool.run(["locales", "check"], environment: environment())
    #expect(result.status == 0, "\(result.error)")
  }

  @Test("Errors exit 65, warnings alone exit 0", arguments: CheckRule.allCases)
  func exitStatus(rule: CheckRule) async throws {
    let directory = Repository.fixtures + "/broken/\(rule.rawValue)"
    let result = try await ShieldBridgeTool.run(
      ["locales", "check", directory, "--json"], environment: environment())
    let objects = try jsonLines(result.output)
    #expect(!objects.isEmpty)
    let hasError = objects.contains { $0["severity"] as? String == "error" }
    #expect(result.status == (hasError ? 65 : 0))
    for object in objects {
      #expect(Array(object.keys).sorted() == ["file", "line", "message", "rule", "severity"])
      #expect(object["rule"] as? String == rule.rawValue)
      #expect((object["file"] as? String)?.hasPrefix(directory) == true)
    }
  }

  @Test("Human output names file, line, severity and rule")
  func humanOutput() async throws {
    let directory = Repository.fixtures + "/broken/placeholder"
    let result = try await ShieldBridgeTool.run(
      ["locales", "check", directory], environment: environment())
    #expect(result.status == 65)
    #expect(
      result.output == """
        \(directory)/de.po:13: error: msgstr uses {App}, which the source text does not have [placeholder]
        \(directory)/de.po:13: error: msgstr leaves out {app} [placeholder]
        1 file checked: 2 errors, 0 warnings

        """)
  }

  @Test("A missing or empty folder is EX_NOINPUT")
  func missingFolder() async throws {
    let empty = try TemporaryDirectory()
    for path in ["/nonexistent/locales", empty.path] {
      let result = try await ShieldBridgeTool.run(["locales", "check", path], environment: environment())
      #expect(result.status == 66)
      #expect(!result.error.isEmpty)
    }
  }
}

@Suite("shieldbridge locales plural, negotiate and template")
struct LocalesToolCommandTests {
  @Test(
    "plural prints one index per number",
    arguments: [
      ("ru", ["0", "1", "2", "5", "21", "111"], "2\n0\n1\n2\n0\n2\n"),
      ("ar", ["0", "1", "2", "3", "11", "100"], "0\n1\n2\n3\n4\n5\n"),
      ("ja", ["1", "2"], "0\n0\n"), ("en", ["1", "2"], "0\n1\n"),
      ("de_AT.UTF-8", ["1", "7"], "0\n1\n"), ("en-XA", ["1"], "0\n"),
    ])
  func plural(locale: String, numbers: [String], expected: String) async throws {
    let result = try await ShieldBridgeTool.run(
      ["locales", "plural", locale] + numbers + ["--dir", Repository.locales],
      environment: environment())
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output == expected)
  }

  @Test("plural refuses unknown locales and numbers that are not whole")
  func pluralErrors() async throws {
    let unknown = try await ShieldBridgeTool.run(
      ["locales", "plural", "fr", "1", "--dir", Repository.locales], environment: environment())
    #expect(unknown.status == 66)
    let notNumber = try await ShieldBridgeTool.run(
      ["locales", "plural", "ru", "-1", "--dir", Repository.locales], environment: environment())
    #expect(notNumber.status == 64)
    let missing = try await ShieldBridgeTool.run(["locales", "plural", "ru"], environment: environment())
    #expect(missing.status == 64)
  }

  @Test(
    "negotiate prints the chain from the environment",
    arguments: [
      (["LANG": "de_AT.UTF-8"], [], "de\nen\n"),
      (["LANG": "ru_RU.UTF-8", "LANGUAGE": "ja:fr:de"], [], "ja\nde\nen\n"),
      (["LANG": "C", "LANGUAGE": "ja"], [], "en\n"), (["LC_ALL": "en_XA"], [], "en-XA\nen\n"),
      (["LANG": "de_DE.UTF-8"], ["--locale", "pl:ar"], "pl\nar\nen\n"),
    ] as [([String: String], [String], String)])
  func negotiate(variables: [String: String], arguments: [String], expected: String) async throws {
    let result = try await ShieldBridgeTool.run(
      ["locales", "negotiate", "--dir", Repository.locales] + arguments,
      environment: environment(variables))
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output == expected)
  }

  @Test("negotiate finds the catalogs through SHIELDBRIDGE_LOCALEDIR")
  func localeDirectoryVariable() async throws {
    let directory = try TemporaryDirectory()
    try FileManager.default.copyItem(
      atPath: Repository.locales + "/ja.po", toPath: directory.file("ja.po"))
    let result = try await ShieldBridgeTool.run(
      ["locales", "negotiate"],
      environment: environment([
        "LANGUAGE": "de:ja", "LANG": "de_DE.UTF-8",
        CatalogDirectory.environmentVariable: directory.path,
      ]))
    #expect(result.output == "ja\nen\n")
  }

  @Test("template prints the committed template")
  func template() async throws {
    let result = try await ShieldBridgeTool.run(["locales", "template"], environment: environment())
    #expect(result.status == 0)
    #expect(
      result.output
        == (try String(contentsOfFile: Repository.locales + "/shieldbridge.pot", encoding: .utf8)))
  }
}
