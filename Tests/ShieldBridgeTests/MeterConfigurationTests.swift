import Config
import Desktop
import Foundation
import Model
import ShieldBridge
import Testing

@Suite("config.json's meter keys: desktop, idleMinutes, onLimit, warnMinutes and app objects")
struct MeterConfigurationTests {
  @Test("Left out, the meter keys take their defaults")
  func defaults() throws {
    let (configuration, warnings) = try parse(#"{"rules":[{"name":"s","apps":["Instagram"]}]}"#)
    #expect(warnings.isEmpty)
    #expect(configuration.desktop == .auto)
    #expect(configuration.idleMinutes == 5)
    let rule = try #require(configuration.rules.rules.first)
    #expect(rule.onLimit == .hide)
    #expect(rule.warnMinutes == 1)
    #expect(rule.apps == [AppPattern(name: "Instagram")])
  }

  @Test("Every value is read, without warnings", arguments: DesktopChoice.allCases)
  func everything(desktop: DesktopChoice) throws {
    let (configuration, warnings) = try parse(
      #"""
      {"desktop":"\#(desktop.rawValue)","idleMinutes":12,
       "rules":[{"name":"s","apps":["Instagram"],"onLimit":"close","warnMinutes":0},
                {"name":"t","apps":["TikTok"],"onLimit":"notify","warnMinutes":1440}]}
      """#)
    #expect(warnings.isEmpty, "\(warnings)")
    #expect(configuration.desktop == desktop)
    #expect(configuration.idleMinutes == 12)
    #expect(configuration.rules.rules.map(\.onLimit) == [.close, .notify])
    #expect(configuration.rules.rules.map(\.warnMinutes) == [0, 1440])
  }

  @Test("An app is a name or an object; each of class, appId and exe is a string or an array")
  func appObjects() throws {
    let (configuration, warnings) = try parse(
      #"""
      {"rules":[{"name":"chat","apps":[
        "Signal",
        {"name":"Telegram","class":"TelegramDesktop","appId":"org.telegram.desktop","exe":["telegram-desktop","Telegram"]},
        {"name":"Discord"}
      ]}]}
      """#)
    #expect(warnings.isEmpty)
    #expect(
      configuration.rules.rules.first?.apps == [
        AppPattern(name: "Signal"),
        AppPattern(
          name: "Telegram", classes: ["TelegramDesktop"], appIDs: ["org.telegram.desktop"],
          executables: ["telegram-desktop", "Telegram"]),
        AppPattern(name: "Discord"),
      ])
    #expect(configuration.rules.rules.first?.covers("telegram") == true)
  }

  @Test("Unknown keys of an app object are warnings with their place")
  func unknownAppKey() throws {
    let (_, warnings) = try parse(#"{"rules":[{"name":"s","apps":[{"name":"A","appID":"x"}]}]}"#)
    #expect(
      warnings.map(\.description) == [
        #"config.json: rules[0].apps[0].appID: unknown key, ignored; did you mean "appId"?"#
      ])
  }

  @Test(
    "Mistakes in the meter keys name the key path",
    arguments: [
      (#"{"desktop":"wayland"}"#, ConfigurationError.Code.format, "desktop", #"expected one of "auto", "off", "x11""#),
      (#"{"desktop":true}"#, .type, "desktop", "expected one of"),
      (#"{"idleMinutes":0}"#, .range, "idleMinutes", "expected a whole number from 1 to 1440, found 0"),
      (#"{"idleMinutes":1441}"#, .range, "idleMinutes", "expected a whole number from 1 to 1440, found 1441"),
      (#"{"idleMinutes":"5"}"#, .type, "idleMinutes", #"expected a whole number from 1 to 1440, found "5""#),
      (#"{"idleMinutes":2.5}"#, .type, "idleMinutes", "found 2.5 (a whole number is written as digits alone"),
      (
        #"{"rules":[{"name":"s","apps":["A"],"onLimit":"kill"}]}"#, .format, "rules[0].onLimit",
        #"expected one of "hide", "close", "notify", found "kill""#
      ),
      (
        #"{"rules":[{"name":"s","apps":["A"],"warnMinutes":1441}]}"#, .range, "rules[0].warnMinutes",
        "expected a whole number from 0 to 1440, found 1441"
      ),
      (
        #"{"rules":[{"name":"s","apps":["A"],"warnMinutes":-1}]}"#, .range, "rules[0].warnMinutes",
        "expected a whole number from 0 to 1440, found -1"
      ),
      (
        #"{"rules":[{"name":"s","apps":[{"class":"X"}]}]}"#, .missing, "rules[0].apps[0].name",
        "missing; an app object needs the name"
      ),
      (
        #"{"rules":[{"name":"s","apps":[{"name":"A","class":[]}]}]}"#, .missing, "rules[0].apps[0].class",
        "expected at least one name"
      ),
      (
        #"{"rules":[{"name":"s","apps":[{"name":"A","exe":["a",3]}]}]}"#, .type, "rules[0].apps[0].exe[1]",
        "expected a string, found 3"
      ),
      (
        #"{"rules":[{"name":"s","apps":[{"name":"A","appId":7}]}]}"#, .type, "rules[0].apps[0].appId",
        "expected a string or an array of strings, found 7"
      ),
      (
        #"{"rules":[{"name":"s","apps":[{"name":"A","class":""}]}]}"#, .format, "rules[0].apps[0].class",
        "expected a non-empty string"
      ),
      (
        #"{"rules":[{"name":"a","apps":["Telegram"]},{"name":"b","apps":[{"name":"telegram","class":"T"}]}]}"#,
        .duplicate, "rules[1].apps[0]", #""telegram" is already covered by the rule "a""#
      ),
      (
        #"{"rules":[{"name":"s","apps":[null]}]}"#, .type, "rules[0].apps[0]",
        "expected a string, found null; an app is a name or an object"
      ),
    ] as [(String, ConfigurationError.Code, String, String)])
  func errors(text: String, code: ConfigurationError.Code, keyPath: String, problem: String) {
    guard let error = configurationError(text) else { return }
    #expect(error.code == code)
    #expect(error.keyPath == keyPath)
    #expect(error.problem.contains(problem), "\(error.problem)")
  }

  @Test("The shipped example config.json loads without warnings")
  func shippedExample() throws {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("examples/config.json").path
    let loaded = try Configuration.load(from: path)
    #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
    #expect(!loaded.configuration.rules.isBuiltIn)
  }
}
