import TestSupport
import Testing

/// The test desktop itself: a manager takes the display, an xterm's window is managed and can be focused.
@Suite struct XSessionTests {
  @Test func openboxManagesAnXtermAndXdotoolFocusesIt() async throws {
    let session = try await XSession(windowManager: .openbox)
    let client = try await session.launchXterm(windowClass: "Instagram")
    try await session.xdotool(["windowactivate", "--sync", String(client.window)])
    let active = try await poll("the xterm to be active") {
      try await session.activeWindow() == client.window ? true : nil
    }
    #expect(active)
  }

  @Test func i3ManagesAnXtermAndI3msgFocusesIt() async throws {
    let session = try await XSession(windowManager: .i3)
    let first = try await session.launchXterm(windowClass: "Instagram")
    let second = try await session.launchXterm(windowClass: "Other")
    _ = try await poll("the second xterm to be active") {
      try await session.activeWindow() == second.window ? true : nil
    }
    try await session.i3msg(["[class=\"Instagram\"] focus"])
    let active = try await poll("the first xterm to be active") {
      try await session.activeWindow() == first.window ? true : nil
    }
    #expect(active)
  }
}
