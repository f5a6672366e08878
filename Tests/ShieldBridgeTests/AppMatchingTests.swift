import Desktop
import Model
import ShieldBridge
import Testing

@Suite("A rule's app is matched against what the desktop reports")
struct AppMatchingTests {
  @Test(
    "A plain name matches any name of the app, ignoring case",
    arguments: [
      AppIdentity(instance: "xterm", windowClass: "Instagram"),
      AppIdentity(instance: "instagram"),
      AppIdentity(appID: "INSTAGRAM"),
      AppIdentity(executable: "instagram"),
      AppIdentity(command: "Instagram"),
      AppIdentity(commandLineName: "instagram"),
      AppIdentity(scopeID: "instagram"),
    ])
  func plainName(identity: AppIdentity) {
    #expect(AppPattern(name: "Instagram").matches(identity))
  }

  @Test("A plain name matches only a whole name")
  func wholeNames() {
    let pattern = AppPattern(name: "Insta")
    #expect(!pattern.matches(AppIdentity(instance: "xterm", windowClass: "Instagram")))
    #expect(!pattern.matches(AppIdentity(appID: "com.insta.app")))
    #expect(!pattern.matches(AppIdentity()))
    #expect(!AppPattern(name: "xterm").matches(AppIdentity(instance: "", windowClass: "")))
  }

  @Test("An explicit pattern matches each kind of name only where it belongs")
  func explicit() {
    let telegram = AppPattern(
      name: "Telegram", classes: ["TelegramDesktop"], appIDs: ["org.telegram.desktop"],
      executables: ["telegram-desktop"])
    #expect(telegram.matches(AppIdentity(windowClass: "TelegramDesktop")))
    #expect(telegram.matches(AppIdentity(instance: "telegramdesktop")))
    #expect(telegram.matches(AppIdentity(appID: "org.telegram.desktop")))
    #expect(telegram.matches(AppIdentity(scopeID: "org.telegram.desktop")))
    #expect(telegram.matches(AppIdentity(executable: "telegram-desktop")))
    #expect(telegram.matches(AppIdentity(commandLineName: "telegram-desktop")))
    // The kernel cuts `comm` to 15 bytes.
    #expect(telegram.matches(AppIdentity(command: "telegram-deskto")))
    #expect(!telegram.matches(AppIdentity(command: "telegram")))
    // Only where they belong: a class is no app id, and the display name is not matched.
    #expect(!telegram.matches(AppIdentity(appID: "TelegramDesktop")))
    #expect(!telegram.matches(AppIdentity(executable: "org.telegram.desktop")))
    #expect(!telegram.matches(AppIdentity(windowClass: "Telegram")))
  }

  @Test("A cut comm matches a long plain name it starts, and only a cut one")
  func cutCommand() {
    #expect(AppPattern(name: "telegram-desktop").matches(AppIdentity(command: "telegram-deskto")))
    #expect(!AppPattern(name: "telegram-desktop").matches(AppIdentity(command: "telegram-desk")))
    #expect(!AppPattern(name: "tele").matches(AppIdentity(command: "telegram-deskto")))
  }

  @Test("The first rule that lists an app is its rule, with the pattern that matched")
  func firstRule() throws {
    let rules = RuleSet([
      Rule(name: "social", apps: ["Instagram", "TikTok"]),
      Rule(name: "video", apps: [AppPattern(name: "YouTube", classes: ["FreeTube"])]),
      Rule(name: "late", apps: ["tiktok"]),
    ])
    let tiktok = try #require(rules.match(AppIdentity(appID: "TikTok")))
    #expect(tiktok.rule.name == "social")
    #expect(tiktok.app.name == "TikTok")
    #expect(rules.match(AppIdentity(windowClass: "FreeTube"))?.app.name == "YouTube")
    #expect(rules.match(AppIdentity(windowClass: "YouTube")) == nil)
    #expect(rules.match(AppIdentity(windowClass: "Firefox")) == nil)
  }

  @Test("With the built-in rule alone nothing is metered")
  func builtIn() {
    #expect(RuleSet.builtIn.match(AppIdentity(windowClass: "Instagram")) == nil)
    #expect(RuleSet.builtIn.match(AppIdentity(windowClass: "default")) == nil)
  }
}
