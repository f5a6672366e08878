import DBus
import Foundation
import Localization
import Notifications
import Spawn
import TestSupport
import Testing

/// The catalogs in the source tree, which the previews are posted from.
private let localesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("locales").path

/// Runs `shieldbridge locales preview … --post` against the bus at `address`,
/// with a runtime directory of its own, so that the identifier store is private to the test.
private func postPreviews(
  _ arguments: [String], address: String, runtime: TemporaryDirectory
) async throws -> Subprocess.Result {
  try await ShieldBridgeTool.run(
    ["locales", "preview", "--post", "--address", address, "--dir", localesDirectory] + arguments,
    environment: ["XDG_RUNTIME_DIR": runtime.path, "DBUS_SESSION_BUS_ADDRESS": ""])
}

/// The `locale: notification ID` lines the command printed, in order.
private func postedIDs(_ output: String) throws -> [(locale: String, id: UInt32)] {
  try output.split(separator: "\n").map { line in
    let parts = line.split(separator: ": notification ")
    guard parts.count == 2, let id = UInt32(parts[1]) else {
      throw UnexpectedLine(line: String(line))
    }
    return (String(parts[0]), id)
  }
}

/// A line of output that does not read `LOCALE: notification ID`.
private struct UnexpectedLine: Error {
  var line: String
}

@Suite("locales preview --post shows each locale's shield notification on the server")
struct LocalesPreviewPostTests {
  static let catalogs = CatalogSet.load(from: CatalogDirectory(path: localesDirectory))

  @Test(
    "Every locale arrives as the service lays it out, escaped only where the server reads markup",
    arguments: [
      [Capability.actions, Capability.body, Capability.bodyMarkup, Capability(hint: .dunstStackTag)],
      [Capability.actions, Capability.body],
    ])
  func everyLocaleArrives(capabilities: [Capability]) async throws {
    let desk = try await EmbeddedNotifications(capabilities: capabilities)
    let runtime = try TemporaryDirectory()
    // '&' and '<' show whether the body is escaped for the server, and only the body.
    let app = "Tom & <Jerry>"
    let result = try await postPreviews(
      ["--all", "--app", app, "--minutes", "21"], address: desk.bus.address, runtime: runtime)
    #expect(result.status == 0, "\(result.error)")
    let posted = try postedIDs(result.output)
    let locales = Preview.allLocales(in: Self.catalogs)
    #expect(posted.map(\.locale) == locales.map(\.identifier))
    #expect(posted.map(\.locale).contains("en-XA") && posted.map(\.locale).contains("ar-XB"))
    #expect(Set(posted.map(\.id)).count == posted.count, "one notification per locale, none replaced")
    let markup = capabilities.contains(Capability.bodyMarkup)
    for (locale, (identifier, id)) in zip(locales, posted) {
      let expected = Preview.notification(
        locale, catalogs: Self.catalogs, options: PreviewOptions(app: app, minutes: 21, markup: markup))
      let received = try #require(desk.server.notification(id), "\(identifier)")
      #expect(received.summary == expected.summary.text, "\(identifier)")
      #expect(received.body == expected.body.text, "\(identifier)")
      #expect(received.actions.map(\.label) == expected.actions.map(\.text), "\(identifier)")
      #expect(received.actions.map(\.key).prefix(2) == ["way-out", Notification.Action.defaultKey])
      #expect(received.appName == "ShieldBridge")
      if markup {
        #expect(received.hint(HintName.dunstStackTag) == .string("preview-\(identifier)"))
      }
    }
    // The texts are the translations, not English everywhere.
    let german = try #require(posted.first { $0.locale == "de" })
    #expect(desk.server.notification(german.id)?.summary == "\(app) ist pausiert")
  }

  @Test("Posting a locale again replaces its own preview and leaves the others alone")
  func aSecondRunReplacesOnlyItsLocale() async throws {
    let desk = try await EmbeddedNotifications(capabilities: [Capability.actions, Capability.body])
    let runtime = try TemporaryDirectory()
    let first = try await postPreviews(["--all"], address: desk.bus.address, runtime: runtime)
    #expect(first.status == 0, "\(first.error)")
    let german = try #require(try postedIDs(first.output).first { $0.locale == "de" })
    let again = try await postPreviews(
      ["--locale", "de", "--minutes", "1"], address: desk.bus.address, runtime: runtime)
    #expect(again.status == 0, "\(again.error)")
    #expect(try postedIDs(again.output).map(\.id) == [german.id])
    let replaced = try #require(desk.server.notification(german.id))
    #expect(replaced.replacesID == german.id)
    #expect(replaced.body == "Löse eine kurze Aufgabe, um 1 weitere Minute für Firefox freizugeben.")
    #expect(desk.server.notifications.count == Preview.allLocales(in: Self.catalogs).count)
  }

  @Test("With --json each post is one object with the locale and the id")
  func json() async throws {
    let desk = try await EmbeddedNotifications(capabilities: [Capability.actions, Capability.body])
    let result = try await postPreviews(
      ["--locale", "ja", "--json"], address: desk.bus.address, runtime: try TemporaryDirectory())
    #expect(result.status == 0, "\(result.error)")
    let id = try #require(desk.server.notifications.first?.id)
    #expect(result.output == "{\"locale\":\"ja\",\"id\":\(id)}\n")
  }

  @Test("Without a notification server it says so and exits 69, printing no id")
  func noServer() async throws {
    let bus = try BusDaemon()
    let result = try await postPreviews(["--all"], address: bus.address, runtime: try TemporaryDirectory())
    #expect(result.status == 69)
    #expect(result.output.isEmpty)
    #expect(result.error.contains("no notification server"))
  }

  @Test(
    "--markup and minutes no link can grant are usage errors with --post",
    arguments: [["--markup"], ["--minutes", "0"], ["--minutes", "121"]])
  func usageErrors(arguments: [String]) async throws {
    let bus = try BusDaemon()
    let result = try await postPreviews(
      ["--locale", "de"] + arguments, address: bus.address, runtime: try TemporaryDirectory())
    #expect(result.status == 64)
    #expect(result.output.isEmpty)
    #expect(result.error.contains("--post"))
  }
}
