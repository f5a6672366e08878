import Foundation
import Spawn
import TestSupport
import Testing

/// `status`, `rules`, `doctor`, `setup`, `puzzle`, `report` and `desktop`, and the errors a user causes, run as
/// a user runs them under `en-XA`.
///
/// Every line they print must be pseudo-localised: the accented pseudo-locale
/// wraps each catalog message in brackets, so a line that is not `[…]` is
/// English that did not come from the catalogs. What may stand before the
/// brackets is indentation and the program's name (`shieldbridge: `,
/// `shieldbridge status: `). A usage error ends with the command's synopsis,
/// which is `--help` text and stays English (docs/developing/translating.md):
/// it is left out from the first empty line on.
@Suite("Under the pseudo-locale every line of the commands and their errors is pseudo-localised")
struct PseudoLocaleCommandTests {
  /// A home of its own, with config.json holding `config` (no file for `nil`), and no bus.
  private final class Home: Sendable {
    let folder: TemporaryDirectory
    var configFolder: String { folder.file("config/shieldbridge") }

    init(config: String?) throws {
      folder = try TemporaryDirectory(prefix: "pseudo-locale")
      try FileManager.default.createDirectory(atPath: configFolder, withIntermediateDirectories: true)
      if let config { try config.write(toFile: configFolder + "/config.json", atomically: true, encoding: .utf8) }
    }

    var environment: [String: String] {
      [
        "LANG": "en_US.UTF-8", "LANGUAGE": "en-XA", "LC_ALL": "", "LC_MESSAGES": "",
        "HOME": folder.path, "XDG_CONFIG_HOME": folder.file("config"), "XDG_STATE_HOME": folder.file("state"),
        "XDG_DATA_HOME": folder.file("data"), "XDG_RUNTIME_DIR": folder.path,
        // No bus: the service is not running, and doctor finds no notification server.
        "DBUS_SESSION_BUS_ADDRESS": "unix:path=" + folder.file("no-bus"),
        "SHIELDBRIDGE_LOCALEDIR": Repository.locales,
      ]
    }

    func run(_ arguments: [String], input: String = "") async throws -> Subprocess.Result {
      try await ShieldBridgeTool.run(arguments, input: input, environment: environment)
    }
  }

  /// Two rules: apps and sites, no warning; a limit by weekday, a pause, downtime all day.
  private static let config = """
    {"rules": [
      {"name": "social", "apps": [{"name": "Instagram", "class": "instagram", "sites": ["instagram.com"]}, "TikTok"],
       "dailyLimitMinutes": 5, "warnMinutes": 0},
      {"name": "chat", "apps": ["Telegram"], "dailyLimitMinutes": {"mon-fri": 30, "sat,sun": 60},
       "maxGrantsPerDay": 1, "pauseSeconds": 10, "onLimit": "notify",
       "downtime": [{"from": "00:00", "to": "23:59"}]}
    ]}
    """

  /// The lines of `text` that are not pseudo-localised.
  ///
  /// - Parameter dated: Whether a line may start with a date and the day's figures before its message,
  ///   as `report`'s days do (`  2026-12-01  5m  ███ │  [3 ɱîñ]`).
  private func english(_ text: String, usage: Bool = false, dated: Bool = false) -> [String] {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if usage, let blank = lines.firstIndex(of: "") { lines = Array(lines[..<blank]) }
    let prefix = /^ *(shieldbridge( [a-z-]+)*: )?/
    let day = /^ *\d{4}-\d{2}-\d{2} +([^\[]*[│|] *)?/
    return lines.filter { line in
      // A prompt is followed by a space, where the answer is typed.
      let line = String(line.reversed().drop(while: { $0 == " " }).reversed())
      guard !line.isEmpty else { return false }
      var rest = line.replacing(prefix, with: "", maxReplacements: 1)
      if dated { rest = rest.replacing(day, with: "", maxReplacements: 1) }
      return !(rest.hasPrefix("[") && rest.hasSuffix("]"))
    }
  }

  private func expectPseudo(
    _ result: Subprocess.Result, status: Int32, usage: Bool = false, dated: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(result.status == status, "\(result.output)\(result.error)", sourceLocation: sourceLocation)
    #expect(!(result.output + result.error).isEmpty, sourceLocation: sourceLocation)
    #expect(
      english(result.output, dated: dated).isEmpty, "stdout: \(english(result.output, dated: dated))",
      sourceLocation: sourceLocation)
    #expect(
      english(result.error, usage: usage).isEmpty, "stderr: \(english(result.error, usage: usage))",
      sourceLocation: sourceLocation)
  }

  @Test("status: with rules, without config.json, and with a config.json without rules")
  func status() async throws {
    let home = try Home(config: Self.config)
    let result = try await home.run(["status"])
    expectPseudo(result, status: 0)
    #expect(result.output.contains("[social: [Instagram, TikTok "), "\(result.output)")
    #expect(result.output.contains("  [ðöŵñţîɱé "), "\(result.output)")
    expectPseudo(try await Home(config: nil).run(["status"]), status: 0)
    expectPseudo(try await Home(config: "{}").run(["status"]), status: 0)
  }

  @Test("rules: list, each change, and the rule or app that is not there")
  func rules() async throws {
    let home = try Home(config: Self.config)
    expectPseudo(try await home.run(["rules", "list"]), status: 0)
    expectPseudo(try await home.run(["rules", "add", "games", "--app", "Steam", "--limit", "1h"]), status: 0)
    expectPseudo(try await home.run(["rules", "set", "games", "--warn", "2m"]), status: 0)
    expectPseudo(try await home.run(["rules", "add-app", "games", "--app", "Lutris"]), status: 0)
    expectPseudo(try await home.run(["rules", "add-app", "games", "--app", "Lutris"]), status: 0)
    expectPseudo(try await home.run(["rules", "add-site", "games", "--site", "itch.io"]), status: 0)
    expectPseudo(try await home.run(["rules", "remove-site", "games", "--site", "itch.io"]), status: 0)
    expectPseudo(try await home.run(["rules", "remove-app", "games", "--app", "Lutris"]), status: 0)
    expectPseudo(try await home.run(["rules", "remove", "games"]), status: 0)
    expectPseudo(try await home.run(["rules", "remove", "games"]), status: 65)
    expectPseudo(try await home.run(["rules", "remove-app", "chat", "--app", "Signal"]), status: 65)
    expectPseudo(try await home.run(["rules", "remove-site", "chat", "--site", "x.com"]), status: 65)
    expectPseudo(try await Home(config: "{}").run(["rules", "list"]), status: 0)
  }

  @Test("doctor without a bus")
  func doctor() async throws {
    expectPseudo(try await Home(config: Self.config).run(["doctor"]), status: 69)
  }

  @Test("A refused config.json names its path and key, in every command that reads it")
  func refusedConfiguration() async throws {
    let home = try Home(config: #"{"rules": [{"name": "social", "apps": ["a"], "grantMinutes": "five"}]}"#)
    for arguments in [["status"], ["rules", "list"], ["rules", "add", "x", "--app", "b"]] {
      let result = try await home.run(arguments)
      expectPseudo(result, status: 78)
      #expect(result.error.contains("config.json: rules[0].grantMinutes: "), "\(result.error)")
    }
    for config in ["{", #"{"rules": []}"#, #"{"rules": [{"name": "social", "apps": []}]}"#] {
      let result = try await Home(config: config).run(["status"])
      expectPseudo(result, status: 78)
      // The reader's problem is said in the pseudo-locale too, not only the frame around it.
      #expect(result.error.split(separator: "[").count >= 3, "\(result.error)")
    }
    let choice = try await Home(config: #"{"rules": [{"name": "a", "apps": ["b"], "onLimit": "explode"}]}"#)
      .run(["status"])
    expectPseudo(choice, status: 78)
  }

  @Test("A key config.json does not know is a warning in the user's language, and status goes on")
  func unknownKey() async throws {
    let home = try Home(config: #"{"rules": [{"name": "social", "apps": ["a"], "dailyLimit": 5}]}"#)
    let result = try await home.run(["status"])
    expectPseudo(result, status: 0)
    #expect(result.error.contains(#"rules[0].dailyLimit: ûñķñöŵñ ķéý"#), "\(result.error)")
  }

  @Test("A wrong command, option or value is said in the user's language")
  func usageErrors() async throws {
    let home = try Home(config: Self.config)
    for arguments in [
      ["bogus"], ["rules"], ["status", "--bogus"], ["status", "extra"], ["rules", "add"], ["rules", "add", "x"],
      ["rules", "add", "x", "--app"], ["rules", "add", "x", "--app", "A", "--max", "many"],
      ["rules", "add", "x", "--app", "A", "--on-limit", "explode"], ["rules", "add-app", "social"],
      ["status", "--json=yes"], ["rules", "add", "x", "--app", "A", "--limit", "90s"],
      ["rules", "add", "x", "--app", "A", "--limit", "30s"], ["rules", "add", "x", "--app", "A", "--grant", "5x"],
      ["rules", "add", "x", "--app", "A", "--warn", "m5"], ["rules", "add", "x", "--app", "A", "--limit", ""],
    ] {
      let result = try await home.run(arguments)
      expectPseudo(result, status: 64, usage: true)
    }
  }

  @Test("A held config.lock is said in the user's language, with the lock's path")
  func heldLock() async throws {
    let home = try Home(config: Self.config)
    let lock = open(home.configFolder + "/config.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    #expect(lock >= 0)
    defer { close(lock) }
    #expect(flock(lock, LOCK_EX) == 0)
    let result = try await home.run(["rules", "add-app", "social", "--app", "Snapchat"])
    expectPseudo(result, status: 75)
    #expect(result.error.contains(home.configFolder + "/config.lock"), "\(result.error)")
  }

  @Test("Without a state directory, status says which variables to set")
  func noStateDirectory() async throws {
    let home = try Home(config: Self.config)
    var environment = home.environment
    environment["HOME"] = ""
    environment["XDG_STATE_HOME"] = ""
    let result = try await ShieldBridgeTool.run(["status"], environment: environment)
    expectPseudo(result, status: 74)
  }

  @Test("A command that needs the service says in the user's language that there is no bus to find it on")
  func noBusForTheService() async throws {
    let result = try await Home(config: Self.config).run(["shield", "--app", "Firefox"])
    expectPseudo(result, status: 69)
  }

  @Test("With no service, status says so first, and on stderr beside --json")
  func noService() async throws {
    let home = try Home(config: Self.config)
    let text = try await home.run(["status"])
    #expect(text.output.hasPrefix("[ñö ŠĥîéļðƁŕîðĝé šéŕṽîçé îš ŕûññîñĝ"), "\(text.output)")
    let json = try await home.run(["status", "--json"])
    #expect(json.status == 0)
    // Machine output: the JSON is the same in every language; the line for a person goes to stderr.
    #expect(json.output.hasPrefix(#"{"date":"#), "\(json.output)")
    #expect(english(json.error).isEmpty && !json.error.isEmpty, "\(json.error)")
  }

  @Test("setup: the questions, the wrong answers, the rule written and what to do, from piped answers")
  func setup() async throws {
    // Empty, out of the list, a duration without a whole minute and one too long, a count not a number.
    let answers = ["", "0", "1 3", "90s", "2000", "20m", "", "many", "3"]
    let home = try Home(config: Self.config)
    let result = try await home.run(["setup"], input: answers.joined(separator: "\n") + "\n")
    expectPseudo(result, status: 0)
    #expect(result.output.contains("\n[Ŵŕöţé ţĥé ŕûļé \"social\" ţö "), "\(result.output)")
    #expect(result.output.hasPrefix("[\(home.configFolder)/config.json ĥáš ţĥé ŕûļéš "), "\(result.output)")
    #expect(result.output.contains("\n   [1  Instagram (instagram.com) "), "\(result.output)")
    // The input ending before the last answer, and the options that go with --yes.
    expectPseudo(try await Home(config: nil).run(["setup"], input: "1\n"), status: 66)
    expectPseudo(try await Home(config: nil).run(["setup", "--yes"]), status: 64, usage: true)
    expectPseudo(try await Home(config: nil).run(["setup", "--app", "Firefox"]), status: 64, usage: true)
    expectPseudo(
      try await Home(config: nil).run(["setup", "--yes", "--app", "YouTube", "--limit", "20m", "--max", "2"]),
      status: 0)
  }

  @Test("puzzle: the task with no answer, in downtime, and the note on --grant")
  func puzzle() async throws {
    let home = try Home(config: Self.config)
    // No service: the task is asked, and the input ends before its answer.
    expectPseudo(try await home.run(["puzzle", "--app", "Instagram"]), status: 1)
    let downtime = try await home.run(["puzzle", "--app", "Telegram", "--grant", "9"])
    expectPseudo(downtime, status: 75)
    #expect(downtime.error.hasPrefix("shieldbridge: ["), "\(downtime.error)")
  }

  @Test("report: the days and the summaries, and its usage errors")
  func report() async throws {
    let home = try Home(config: Self.config)
    expectPseudo(try await home.run(["report"]), status: 0, dated: true)
    expectPseudo(try await home.run(["report", "--rule", "chat", "--days", "3"]), status: 0, dated: true)
    expectPseudo(try await home.run(["report", "--forget"]), status: 0)
    for arguments in [
      ["report", "--rule", "nope"], ["report", "--from", "2026-13-01"],
      ["report", "--days", "3", "--from", "2026-12-01"],
      ["report", "--from", "2026-12-05", "--to", "2026-12-01"], ["report", "--before", "2026-12-01"],
      ["report", "--forget", "--days", "3"], ["report", "--html", "x.html", "--json"],
      ["report", "--from", "2000-01-01", "--to", "2026-12-01"],
    ] {
      expectPseudo(try await home.run(arguments), status: 64, usage: true)
    }
  }

  @Test("desktop --once: the backend config.json chooses and what runs; off")
  func desktop() async throws {
    let processes = try await Home(config: #"{"desktop": "processes", "rules": [{"name": "a", "apps": ["sh"]}]}"#)
      .run(["desktop", "--once"])
    expectPseudo(processes, status: 0)
    #expect(processes.output.hasPrefix("[ðéšķţöþ: "), "\(processes.output)")
    expectPseudo(try await Home(config: #"{"desktop": "off"}"#).run(["desktop", "--once"]), status: 0)
  }
}
