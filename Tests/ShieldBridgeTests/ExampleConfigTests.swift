import Foundation
import Testing

@testable import Config
@testable import ShieldBridge

/// The shipped `examples/config.json` on a real desktop (issue 21, point 5):
/// it must leave the terminal to the service's search and open no browser,
/// which would be one without the extension, a way around the limit.
@Suite("The example config.json names no terminal and opens no browser")
struct ExampleConfigTests {
  static let path =
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("examples/config.json").path
  /// Programs that open a web page in whatever browser is the default.
  static let browsers: Set<String> = [
    "x-www-browser", "www-browser", "sensible-browser", "xdg-open", "gio", "exo-open", "kde-open", "gnome-open",
    "firefox", "firefox-esr", "chromium", "chromium-browser", "google-chrome", "epiphany", "falkon",
  ]

  @Test("It parses, runs no handler that is a terminal or a browser, and has no view of a web address")
  func noTerminalNoBrowser() throws {
    let loaded = try Configuration.load(from: Self.path)
    #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
    let configuration = loaded.configuration
    #expect(!configuration.rules.isBuiltIn)
    let terminals = Set(TerminalEmulator.candidates.map(\.program))
    for handler in [configuration.handlers.puzzle, configuration.handlers.view].compactMap({ $0 }) {
      let program = handler.elements.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? ""
      #expect(!terminals.contains(program), "a handler runs the terminal \(program): the search would find the user's")
      #expect(!Self.browsers.contains(program), "a handler runs \(program): a browser without the extension")
    }
    for app in configuration.views.apps {
      for view in app.views {
        let target = view.target.lowercased()
        #expect(
          !target.hasPrefix("http:") && !target.hasPrefix("https:"),
          "the view \(view.name) of \(app.app) opens \(view.target) in a browser without the extension")
      }
    }
    // Without a puzzle handler the service asks inline or finds the user's terminal itself.
    #expect(configuration.handlers.puzzle == nil)
    // And no such name anywhere in the file, for keys a later edit might add.
    let text = try String(contentsOfFile: Self.path, encoding: .utf8)
    for name in terminals.union(Self.browsers) {
      #expect(!text.contains("\"\(name)\""), "\(name)")
    }
  }
}
