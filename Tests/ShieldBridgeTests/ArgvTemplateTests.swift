import Config
import Model
import ShieldBridge
import Testing

@Suite("Handler argv placeholders are filled inside one element only")
struct ArgvTemplateTests {
  let puzzleArgv = [
    "x-terminal-emulator", "-e", "shieldbridge", "puzzle", "--app", "{app}", "--grant", "{grant}",
  ]

  @Test("Each placeholder is replaced by its value")
  func substitutes() throws {
    let template = try ArgvTemplate(puzzleArgv)
    #expect(
      template.argv([.app: "Instagram", .grant: "5"])
        == [
          "x-terminal-emulator", "-e", "shieldbridge", "puzzle", "--app", "Instagram", "--grant",
          "5",
        ])
    #expect(template.placeholders == [.app, .grant])
  }

  @Test("A value with spaces, quotes or shell syntax stays one element")
  func neverSplits() throws {
    let template = try ArgvTemplate(["open", "--name={app}!", "{target}"])
    let hostile = "Foo --evil; rm -rf ~ \"$(x)\" 'y' \n z"
    let argv = template.argv([.app: hostile, .target: "a b"])
    #expect(argv == ["open", "--name=\(hostile)!", "a b"])
  }

  @Test("A value that looks like a placeholder is never substituted again")
  func neverResubstitutes() throws {
    let template = try ArgvTemplate(["run", "{app}", "{link}{id}"])
    let argv = template.argv([.app: "{link}", .link: "{id}", .id: "{app}"])
    #expect(argv == ["run", "{link}", "{id}{app}"])
  }

  @Test("Random values never change the number of elements")
  func propertyElementCount() throws {
    var random = SeededRandom(seed: 6)
    let alphabet = Array(" {}\"'$;\n\tappidlink-x")
    let template = try ArgvTemplate(["a", "{app}", "x{id}y{link}", "{{literal}}"])
    for _ in 0..<500 {
      func value() -> String {
        String(
          (0..<Int(random.next() % 12)).map { _ in
            alphabet[Int(random.next() % UInt64(alphabet.count))]
          })
      }
      let (app, id, link) = (value(), value(), value())
      let argv = template.argv([.app: app, .id: id, .link: link])
      #expect(argv == ["a", app, "x\(id)y\(link)", "{literal}"])
    }
  }

  @Test("A missing value becomes an empty string, in its own element")
  func missingValue() throws {
    #expect(try ArgvTemplate(["p", "--app", "{app}"]).argv([:]) == ["p", "--app", ""])
  }

  @Test(
    "A malformed argv is refused, naming the element",
    arguments: [
      ([], nil, "expected at least the program"),
      ([""], 0, "program name is empty"),
      (["p", "{nope}"], 1, "unknown placeholder {nope}"),
      (["p", "x", "{app"], 2, "without its '}'"),
      (["p", "a}"], 1, "a lone '}'"),
      (["p", "{APP}"], 1, "unknown placeholder {APP}"),
      (["p", "a\u{0}b"], 1, "NUL"),
    ] as [([String], Int?, String)])
  func refuses(argv: [String], element: Int?, problem: String) {
    do {
      _ = try ArgvTemplate(argv)
      Issue.record("accepted \(argv)")
    } catch {
      #expect(error.element == element)
      #expect(error.problem.contains(problem))
    }
  }

  @Test("A placeholder the handler does not offer is refused")
  func notOffered() {
    #expect(throws: ArgvTemplateError.self) {
      try ArgvTemplate(["p", "{target}"], allowing: Configuration.Handlers.puzzlePlaceholders)
    }
    #expect(throws: Never.self) {
      try ArgvTemplate(["p", "{target}"], allowing: Configuration.Handlers.viewPlaceholders)
    }
  }
}
