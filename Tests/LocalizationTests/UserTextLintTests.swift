import Spawn
import Testing

/// `scripts/lint-user-text`, run as `make lint` runs it, on the shipped files and on two fixtures.
@Suite("The lint refuses English written to the user outside the catalogs")
struct UserTextLintTests {
  private static let script = Repository.root + "/scripts/lint-user-text"
  private static let fixtures = Repository.root + "/Tests/Fixtures/UserText"

  private func lint(_ files: [String]) throws -> Subprocess.Result {
    try Subprocess.run([Self.script] + files, timeout: .seconds(30))
  }

  @Test("A new English literal fails the lint, with the file and the line")
  func literalFails() throws {
    let fixture = Self.fixtures + "/Literal.swift"
    let result = try lint([fixture])
    #expect(result.status == 1, "\(result.output)\(result.error)")
    let lines = result.output.split(separator: "\n").map(String.init)
    #expect(lines.map { $0.split(separator: ":")[1] } == ["6", "9", "12", "13", "7", "17"], "\(result.output)")
    #expect(lines.allSatisfy { $0.hasPrefix(fixture + ":") })
  }

  @Test("Catalog messages, machine output with its reason and the program's name pass")
  func cleanPasses() throws {
    let result = try lint([Self.fixtures + "/Clean.swift"])
    #expect(result.status == 0, "\(result.output)\(result.error)")
    #expect(result.output.isEmpty)
  }

  @Test("The converted command files pass")
  func shippedFilesPass() throws {
    let result = try lint([])
    #expect(result.status == 0, "\(result.output)\(result.error)")
  }
}
