import Foundation
import Localization
import Notifications
import Testing

@testable import ShieldBridge

@Suite("The warning before the limit: plain, in the user's language, with its plural forms")
struct WarningTextTests {
  private static let catalogs = CatalogSet.load(
    from: CatalogDirectory(
      path: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("locales").path))

  private func summary(_ language: String, app: String?, minutes: Int) throws -> String {
    let tag = try #require(LocaleTag(language))
    let texts = ShieldTexts(localizer: Self.catalogs.localizer(chain: [tag]))
    return texts.warning(app: app, minutes: minutes, identifier: "shield-open").summary
  }

  @Test(
    "Each language picks the form its plural rules give",
    arguments: [
      ("en", 1, "Instagram: 1 minute left today"), ("en", 2, "Instagram: 2 minutes left today"),
      ("de", 1, "Instagram: heute noch 1 Minute"), ("de", 5, "Instagram: heute noch 5 Minuten"),
      ("pl", 1, "Instagram: na dziś została 1 minuta"), ("pl", 3, "Instagram: na dziś zostały 3 minuty"),
      ("pl", 5, "Instagram: na dziś zostało 5 minut"), ("ru", 21, "Instagram: сегодня осталась 21 минута"),
      ("ru", 3, "Instagram: сегодня остались 3 минуты"), ("ru", 11, "Instagram: сегодня осталось 11 минут"),
      ("ja", 2, "Instagram: 今日の残りは2分です"), ("ar", 2, "Instagram: بقيت دقيقتان اليوم"),
      ("ar", 7, "Instagram: بقيت 7 دقائق اليوم"),
    ])
  func plural(language: String, minutes: Int, expected: String) throws {
    let text = try summary(language, app: "Instagram", minutes: minutes)
    // Right-to-left text may carry direction marks around the app's name.
    #expect(text.filter { !("\u{200E}\u{200F}\u{2066}\u{2067}\u{2068}\u{2069}".contains($0)) } == expected)
  }

  @Test("Without an app name the variant without it; plain: nothing to click, no exclamation mark")
  func plain() throws {
    #expect(try summary("en", app: nil, minutes: 1) == "1 minute left today")
    #expect(try summary("de", app: "", minutes: 2) == "Heute noch 2 Minuten")
    let notification = ShieldTexts(localizer: .source).warning(app: "Instagram", minutes: 1, identifier: "shield-open")
    #expect(notification.actions.isEmpty)
    #expect(notification.identifier == "shield-open")
    #expect(notification.hints.urgency == .normal)
    #expect(!notification.summary.contains("!"))
  }
}
