import Foundation
import TestSupport
import Testing

@testable import Localization

@Suite("The catalogs are found installed, in a source tree, or where named")
struct CatalogDirectoryTests {
  @Test("An explicit folder wins, then the environment variable")
  func explicit() {
    let environment = [CatalogDirectory.environmentVariable: "/from/env"]
    #expect(CatalogDirectory.locate(explicit: "/named", environment: environment)?.path == "/named")
    #expect(CatalogDirectory.locate(environment: environment)?.path == "/from/env")
  }

  @Test("Installed beside the executable comes before a source tree")
  func installed() throws {
    let root = try TemporaryDirectory()
    let installed = root.file("usr/share/shieldbridge/locales")
    try FileManager.default.createDirectory(atPath: installed, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: root.file("usr/bin"), withIntermediateDirectories: true)
    let found = CatalogDirectory.locate(
      environment: [:], executablePath: root.file("usr/bin/shieldbridge"),
      currentDirectory: Repository.root)
    #expect(found?.path == installed)
  }

  @Test("A source tree is found above the executable, then above the current directory")
  func sourceTree() throws {
    let fromBuild = CatalogDirectory.locate(
      environment: [:], executablePath: Repository.root + "/.build/debug/shieldbridge",
      currentDirectory: "/")
    #expect(fromBuild?.path == Repository.locales)
    let elsewhere = try TemporaryDirectory()
    let fromWorkingDirectory = CatalogDirectory.locate(
      environment: [:], executablePath: elsewhere.file("shieldbridge"),
      currentDirectory: Repository.root + "/Sources/Localization")
    #expect(fromWorkingDirectory?.path == Repository.locales)
  }

  @Test("Catalog files are the .po files named by a locale tag")
  func files() throws {
    let directory = try TemporaryDirectory()
    for name in ["de.po", "pt_BR.po", "notes.txt", "x!.po", "shieldbridge.pot"] {
      #expect(FileManager.default.createFile(atPath: directory.file(name), contents: Data()))
    }
    try FileManager.default.createDirectory(
      atPath: directory.file("ja.po"), withIntermediateDirectories: true)
    let files = CatalogDirectory(path: directory.path).catalogFiles()
    #expect(files.map(\.tag.identifier) == ["de", "pt-BR"])
    #expect(
      CatalogDirectory(path: directory.path).templatePath == directory.file("shieldbridge.pot"))
  }

  @Test("A broken catalog is left out and reported, the others load")
  func brokenCatalog() throws {
    let directory = try TemporaryDirectory()
    try Data("msgid \"a\"\n".utf8).write(to: URL(fileURLWithPath: directory.file("de.po")))
    try FileManager.default.copyItem(
      atPath: Repository.locales + "/ja.po", toPath: directory.file("ja.po"))
    let set = CatalogSet.load(from: CatalogDirectory(path: directory.path))
    #expect(set.tags.map(\.identifier) == ["ja"])
    #expect(set.problems.map(\.file) == [directory.file("de.po")])
    let localizer = Localizer.current(
      environment: ["LANG": "de_DE.UTF-8"], directory: CatalogDirectory(path: directory.path))
    #expect(localizer.chain.map(\.identifier) == ["en"])
    #expect(localizer.render(.puzzleTitle) == "A short task")
  }

  @Test("The process localizer negotiates and loads only the catalogs it needs")
  func current() {
    let localizer = Localizer.current(
      environment: ["LANG": "ru_RU.UTF-8", "LANGUAGE": "pl:ru"],
      directory: CatalogDirectory(path: Repository.locales))
    #expect(localizer.chain.map(\.identifier) == ["pl", "ru", "en"])
    #expect(localizer.render(.puzzleTitle) == "Krótkie zadanie")
  }
}
