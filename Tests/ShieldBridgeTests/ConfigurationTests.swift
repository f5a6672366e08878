import Config
import Foundation
import Model
import ShieldBridge
import TestSupport
import Testing

/// The example from the documentation.
let exampleConfiguration = #"""
  {
    "scheme": "shieldbridge",
    "rules": [
      {"name": "social", "apps": ["Instagram", "TikTok", "YouTube"],
       "dailyLimitMinutes": 5, "grantMinutes": 5, "maxGrantsPerDay": 5}
    ],
    "views": {"Instagram": {"direct": "https://www.instagram.com/direct/inbox/"}},
    "handlers": {
      "puzzle": ["x-terminal-emulator", "-e", "shieldbridge", "puzzle", "--app", "{app}", "--grant", "{grant}"],
      "view": ["xdg-open", "{target}"]
    }
  }
  """#

func parse(_ text: String) throws(ConfigurationError) -> (Configuration, [ConfigurationWarning]) {
  try Configuration.parse(Array(text.utf8), file: "config.json")
}

/// The error `text` gives, or `nil` (and a recorded issue) when it loads.
func configurationError(_ text: String) -> ConfigurationError? {
  do {
    _ = try parse(text)
    Issue.record("the configuration was accepted: \(text)")
    return nil
  } catch {
    return error
  }
}

@Suite("The configuration file is read with errors that name file, key and problem")
struct ConfigurationTests {
  @Test("The documented example loads")
  func example() throws {
    let (configuration, warnings) = try parse(exampleConfiguration)
    #expect(warnings.isEmpty)
    #expect(configuration.scheme == "shieldbridge")
    #expect(
      configuration.rules.rules == [Rule(name: "social", apps: ["Instagram", "TikTok", "YouTube"])])
    #expect(!configuration.rules.isBuiltIn)
    #expect(
      configuration.views.target(app: "instagram", view: "direct")
        == "https://www.instagram.com/direct/inbox/")
    #expect(configuration.views.target(app: "Instagram", view: "home") == nil)
    #expect(configuration.views.views(for: "TikTok").isEmpty)
    #expect(configuration.handlers.puzzle?.argv([.app: "TikTok", .grant: "5"])[5] == "TikTok")
    #expect(configuration.handlers.view?.elements == ["xdg-open", "{target}"])
  }

  @Test("Every key is optional; an empty object gives the defaults")
  func defaults() throws {
    let (configuration, warnings) = try parse("{}")
    #expect(configuration == .defaults)
    #expect(configuration.rules.isBuiltIn)
    #expect(configuration.handlers.puzzle == nil)
    #expect(warnings.isEmpty)
  }

  @Test("Numbers left out of a rule take the defaults")
  func ruleDefaults() throws {
    let (configuration, _) = try parse(
      #"{"rules":[{"name":"games","apps":["Steam"],"grantMinutes":10}]}"#)
    #expect(configuration.rules.rules == [Rule(name: "games", apps: ["Steam"], grantMinutes: 10)])
  }

  @Test("Unknown keys are warnings that name their place, with a suggestion when one is close")
  func unknownKeys() throws {
    let (configuration, warnings) = try parse(
      #"{"theme":"dark","rules":[{"name":"s","apps":["A"],"dailyLimit":9}],"handlers":{"shield":["x"]}}"#
    )
    #expect(configuration.rules.rules[0].dailyLimitMinutes == 5)
    #expect(
      warnings.map(\.description) == [
        "config.json: theme: unknown key, ignored",
        "config.json: rules[0].dailyLimit: unknown key, ignored; did you mean \"dailyLimitMinutes\"?",
        "config.json: handlers.shield: unknown key, ignored",
      ])
    #expect(warnings.map(\.keyPath) == ["theme", "rules[0].dailyLimit", "handlers.shield"])
    #expect(
      try parse(#"{"schem":"x"}"#).1.first?.problem
        == "unknown key, ignored; did you mean \"scheme\"?")
  }

  @Test(
    "Each kind of mistake is an error naming the file, the key path and the problem",
    arguments: [
      (
        #"{"rules":[{"name":"social","apps":["A"],"grantMinutes":"five"}]}"#,
        ConfigurationError.Code.type,
        "rules[0].grantMinutes", #"expected a whole number from 1 to 120, found "five""#
      ),
      (
        #"{"rules":[{"name":"social","apps":["A"],"grantMinutes":121}]}"#, .range,
        "rules[0].grantMinutes",
        "expected a whole number from 1 to 120, found 121"
      ),
      (
        #"{"rules":[{"name":"s","apps":["A"],"maxGrantsPerDay":2.5}]}"#, .type,
        "rules[0].maxGrantsPerDay",
        "expected a whole number from 0 to 100, found 2.5"
      ),
      (
        #"{"rules":[{"name":"s","apps":["A"],"dailyLimitMinutes":-1}]}"#, .range,
        "rules[0].dailyLimitMinutes", "expected a whole number from 0 to 1440, found -1"
      ),
      (
        #"{"rules":[{"name":"s","apps":["A"],"pauseSeconds":61}]}"#, .range,
        "rules[0].pauseSeconds", "expected a whole number from 0 to 60, found 61"
      ),
      (
        #"{"rules":[{"name":"s","apps":["A"],"pauseSeconds":"ten"}]}"#, .type,
        "rules[0].pauseSeconds", #"expected a whole number from 0 to 60, found "ten""#
      ),
      (
        #"{"rules":[{"apps":["A"]}]}"#, .missing, "rules[0].name",
        "missing; every rule needs a name"
      ),
      (
        #"{"rules":[{"name":"s"}]}"#, .missing, "rules[0].apps",
        "missing; list the apps the rule covers"
      ),
      (
        #"{"rules":[{"name":"s","apps":[]}]}"#, .missing, "rules[0].apps",
        "expected at least one app"
      ),
      (#"{"rules":[]}"#, .missing, "rules", "expected at least one rule"),
      (#"{"rules":{}}"#, .type, "rules", "expected an array of rules, found an object"),
      (#"{"rules":[5]}"#, .type, "rules[0]", "expected an object, found 5"),
      (
        #"{"rules":[{"name":"s","apps":["A",7]}]}"#, .type, "rules[0].apps[1]",
        "expected a string, found 7"
      ),
      (
        #"{"rules":[{"name":"","apps":["A"]}]}"#, .format, "rules[0].name",
        "expected a non-empty string"
      ),
      (
        #"{"rules":[{"name":"a","apps":["YouTube"]},{"name":"b","apps":["youtube"]}]}"#, .duplicate,
        "rules[1].apps[0]", #""youtube" is already covered by the rule "a""#
      ),
      (
        #"{"rules":[{"name":"a","apps":["X","x"]}]}"#, .duplicate, "rules[0].apps[1]",
        "is listed twice"
      ),
      (
        #"{"rules":[{"name":"a","apps":["X"]},{"name":"A","apps":["Y"]}]}"#, .duplicate,
        "rules[1].name",
        "already used by the rule \"a\""
      ),
      (#"{"scheme":"x","scheme":"y"}"#, .duplicate, "scheme", "the key appears twice"),
      (#"{"scheme":"ShieldBridge"}"#, .format, "scheme", "expected a lowercase URI scheme"),
      (#"{"scheme":"1up"}"#, .format, "scheme", "expected a lowercase URI scheme"),
      (#"{"scheme":"shield bridge"}"#, .format, "scheme", "expected a lowercase URI scheme"),
      (#"{"scheme":7}"#, .type, "scheme", "found 7"),
      (
        #"{"views":{"Instagram":{"Direct":"https://x"}}}"#, .format, "views.Instagram.Direct",
        "view name"
      ),
      (
        #"{"views":{"Instagram":{"a_b":"https://x"}}}"#, .format, "views.Instagram.a_b", "view name"
      ),
      (
        #"{"views":{"Google Maps":{"home":""}}}"#, .format, #"views["Google Maps"].home"#,
        "non-empty"
      ),
      (#"{"views":{"X":{"home":"--help"}}}"#, .format, "views.X.home", "must not start with \"-\""),
      (#"{"views":{"X":{"home":"a\nb"}}}"#, .format, "views.X.home", "control characters"),
      (#"{"views":{"X":{},"x":{}}}"#, .duplicate, "views.x", "already listed as \"X\""),
      (#"{"views":{"X":["home"]}}"#, .type, "views.X", "expected an object, found an array"),
      (
        #"{"handlers":{"puzzle":[]}}"#, .missing, "handlers.puzzle", "expected at least the program"
      ),
      (
        #"{"handlers":{"puzzle":"xterm -e x"}}"#, .type, "handlers.puzzle",
        "expected an array of strings"
      ),
      (
        #"{"handlers":{"view":["xdg-open",1]}}"#, .type, "handlers.view[1]",
        "expected a string, found 1"
      ),
      (
        #"{"handlers":{"view":["xdg-open","{url}"]}}"#, .handler, "handlers.view[1]",
        "unknown placeholder {url}"
      ),
      (
        #"{"handlers":{"puzzle":["p","{target}"]}}"#, .handler, "handlers.puzzle[1]",
        "not offered here: {target}"
      ),
      (#"{"handlers":{"view":["awk","{print}"]}}"#, .handler, "handlers.view[1]", "{{ and }}"),
      ("[]", .type, "", "expected an object, found an array"),
    ] as [(String, ConfigurationError.Code, String, String)])
  func errors(text: String, code: ConfigurationError.Code, keyPath: String, problem: String) {
    guard let error = configurationError(text) else { return }
    #expect(error.code == code)
    #expect(error.file == "config.json")
    #expect(error.keyPath == keyPath)
    #expect(error.problem.contains(problem), "\(error.problem)")
    #expect(
      error.description.hasPrefix(keyPath.isEmpty ? "config.json: " : "config.json: \(keyPath): "))
  }

  @Test(
    "A whole-number field takes only a number written as one: digits, an optional minus",
    arguments: [
      ("grantMinutes", "4.9999999999999999999"), ("dailyLimitMinutes", "1e-400"),
      ("maxGrantsPerDay", "5.0"), ("grantMinutes", "5e0"), ("grantMinutes", "5E+0"),
      ("dailyLimitMinutes", "-0.0"), ("maxGrantsPerDay", "0.5e1"),
    ])
  func wholeNumbersAreWrittenAsOne(key: String, number: String) {
    let range =
      ["grantMinutes": "1 to 120", "dailyLimitMinutes": "0 to 1440", "maxGrantsPerDay": "0 to 100"]
    let error = configurationError(#"{"rules":[{"name":"s","apps":["A"],"\#(key)":\#(number)}]}"#)
    #expect(error?.code == .type)
    #expect(
      error?.description
        == "config.json: rules[0].\(key): expected a whole number from \(range[key] ?? "?"), "
        + "found \(number) (a whole number is written as digits alone, without a fraction or an exponent)")
  }

  @Test("Digits beyond what a whole number can hold are out of range, quoted as written")
  func hugeWholeNumber() {
    let error = configurationError(
      #"{"rules":[{"name":"s","apps":["A"],"grantMinutes":-99999999999999999999}]}"#)
    #expect(error?.code == .range)
    #expect(
      error?.description
        == "config.json: rules[0].grantMinutes: expected a whole number from 1 to 120, found -99999999999999999999")
  }

  @Test("A whole number written as digits is read, -0 as 0")
  func wholeNumbers() throws {
    let (configuration, _) = try parse(
      #"{"rules":[{"name":"s","apps":["A"],"grantMinutes":120,"dailyLimitMinutes":-0,"maxGrantsPerDay":0}]}"#)
    let rule = try #require(configuration.rules.rules.first)
    #expect(rule.grantMinutes == 120)
    #expect(rule.dailyLimitMinutes == 0)
    #expect(rule.maxGrantsPerDay == 0)
  }

  @Test("The documented message for a wrong grant is exact")
  func documentedMessage() {
    let error = configurationError(
      #"{"rules":[{"name":"social","apps":["A"],"grantMinutes":"five"}]}"#)
    #expect(
      error?.description
        == #"config.json: rules[0].grantMinutes: expected a whole number from 1 to 120, found "five""#
    )
  }

  @Test("With two wrong limits, the first in declaration order is reported, whatever is wrong with it")
  func firstWrongLimit() {
    let outOfRange = configurationError(
      #"{"rules":[{"name":"s","apps":["A"],"grantMinutes":"five","dailyLimitMinutes":2000}]}"#)
    #expect(outOfRange?.code == .range)
    #expect(outOfRange?.keyPath == "rules[0].dailyLimitMinutes")
    let notANumber = configurationError(
      #"{"rules":[{"name":"s","apps":["A"],"dailyLimitMinutes":"x","maxGrantsPerDay":500}]}"#)
    #expect(notANumber?.code == .type)
    #expect(notANumber?.keyPath == "rules[0].dailyLimitMinutes")
    let huge = configurationError(
      #"{"rules":[{"name":"s","apps":["A"],"maxGrantsPerDay":1e300}]}"#)
    #expect(huge?.code == .type)
    #expect(huge?.problem.hasPrefix("expected a whole number from 0 to 100, found ") == true)
  }

  @Test("Text that is not JSON is an error with line and column")
  func syntax() {
    let error = configurationError("{\n  \"scheme\": \"x\",\n}")
    #expect(error?.code == .syntax)
    #expect(error?.description.hasPrefix("config.json: not valid JSON: line 3, column 1:") == true)
  }
}

@Suite("The configuration is found in the XDG config directory")
struct ConfigurationFileTests {
  @Test("A missing file gives the defaults")
  func missing() throws {
    let home = try TemporaryDirectory()
    let loaded = try Configuration.load(environment: ["XDG_CONFIG_HOME": home.path])
    #expect(loaded.isDefault)
    #expect(loaded.configuration == .defaults)
    #expect(loaded.path == home.path + "/shieldbridge/config.json")
  }

  @Test("The file under XDG_CONFIG_HOME is read, and errors name its path")
  func readsFile() throws {
    let home = try TemporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: home.file("shieldbridge"), withIntermediateDirectories: true)
    let path = home.file("shieldbridge/config.json")
    try exampleConfiguration.write(toFile: path, atomically: true, encoding: .utf8)
    let loaded = try Configuration.load(environment: ["XDG_CONFIG_HOME": home.path])
    #expect(!loaded.isDefault)
    #expect(loaded.configuration.rules.rules.map(\.name) == ["social"])

    try #"{"scheme": 5}"#.write(toFile: path, atomically: true, encoding: .utf8)
    #expect(
      throws: ConfigurationError(
        code: .type, file: path, keyPath: "scheme",
        problem: "expected a lowercase URI scheme like \"shieldbridge\", found 5")
    ) {
      try Configuration.load(environment: ["XDG_CONFIG_HOME": home.path])
    }
  }

  @Test("The default location is under HOME")
  func homeDefault() {
    #expect(
      Configuration.standardPath(environment: ["HOME": "/home/ada"])
        == "/home/ada/.config/shieldbridge/config.json")
    #expect(throws: ConfigurationError.self) { try Configuration.load(environment: [:]) }
  }

  @Test("A path that cannot be read is an error, not the defaults")
  func unreadable() throws {
    let home = try TemporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: home.file("shieldbridge/config.json"), withIntermediateDirectories: true)
    do {
      _ = try Configuration.load(environment: ["XDG_CONFIG_HOME": home.path])
      Issue.record("a directory was read as the configuration")
    } catch {
      #expect(error.code == .unreadable)
      #expect(error.description.hasPrefix(home.file("shieldbridge/config.json") + ": cannot read"))
    }
  }
}

@Suite("A rule's pauseSeconds (issue 25 point 4)")
struct PauseConfigurationTests {
  @Test("Read from the rule, 0 when left out")
  func read() throws {
    let (configuration, warnings) = try parse(
      #"{"rules":[{"name":"s","apps":["A"],"pauseSeconds":12},{"name":"t","apps":["B"]}]}"#)
    #expect(warnings.isEmpty)
    #expect(configuration.rules.rules.map(\.pauseSeconds) == [12, 0])
  }
}
