import DBus
import TestSupport

/// A desktop as its users have it, driven as a person drives it: the scripted
/// day (``ScriptedDay``) runs the same day on each.
///
/// A desk owns its session (display or compositor, window manager, the
/// notification server, the session bus) and the terminal its tasks open in;
/// the script owns the service, the site, the browser and the sandbox. Every
/// method waits for the desktop's own word on the state it brings about (a
/// window in front, a bubble on screen) within a generous bound, and throws
/// with what it saw when that does not come.
protocol DayDesk: Sendable {
  /// What runs, for messages and the report: "Xfce 4.18 (xfwm4 + xfce4-notifyd)".
  var name: String { get }
  /// The session bus: the notification server, the service and the browser's host use it.
  var bus: BusDaemon { get }
  /// Set for `shieldbridge serve` on top of the sandbox's environment: the display, the
  /// window manager's socket, `TERMINAL` and `XENVIRONMENT` for the task's terminal.
  var serveEnvironment: [String: String] { get }
  /// config.json's `"desktop"` (`nil`: the service chooses).
  var desktopSetting: String? { get }
  /// Set for a browser on top of the sandbox's environment, so that its window shows on this
  /// desktop (an X display or Xwayland's); `nil` where no browser window can run.
  var browserEnvironment: [String: String]? { get }

  /// Starts an app whose window has class (or Wayland app id) `appClass`, and returns its window
  /// once the desktop manages it.
  func launchApp(_ appClass: String) async throws -> DayWindow
  /// The window of the browser the script started, whose class is `appClass`, once it is managed.
  func browserWindow(_ appClass: String) async throws -> DayWindow
  /// Brings `window` to the front as a person does here (Alt+Tab, a click, the user's key
  /// binding); returns once the desktop says it is in front.
  func bringToFront(_ window: DayWindow) async throws
  /// Whether the desktop keeps `window` hidden (i3's scratchpad, minimized, unmapped).
  func isHidden(_ window: DayWindow) async throws -> Bool
  /// Brings a hidden `window` back as a person does here (the task list, the scratchpad key);
  /// returns once the desktop says it is in front.
  func bringBack(_ window: DayWindow) async throws

  /// The parts of a shield's bubble whose click the server acts on: `.button` and, where a
  /// click on the body invokes the default action, `.body`; the first one leads to the task.
  var shieldParts: [ShieldPart] { get }
  /// Clicks `part` of the bubble on screen whose summary is `summary`, as a person does.
  func click(_ part: ShieldPart, summary: String) async throws
  /// Types `answer` into the task where it opened (its terminal, an inline reply) and sends it.
  func answerTask(_ answer: String) async throws
  /// Everything the tasks opened so far showed, oldest first (to read the question and the outcome).
  func taskScreen() async throws -> String
  /// Whether the notification server shows a bubble now, as far as the desk can tell cheaply
  /// (`nil`: it cannot; the script then trusts the bus alone).
  func notificationOnScreen() async throws -> Bool?
  /// Closes the open task unanswered, as a person closes its window.
  func closeTask() async throws
  /// Stops what the desk started.
  func finish() async
}

extension DayDesk {
  /// By default a desk does not look at the server's screen.
  func notificationOnScreen() async throws -> Bool? { nil }

  /// By default a desk cannot close its task: a desk with more than one shield part must.
  func closeTask() async throws {
    throw DesktopError("\(name) cannot close a task unanswered")
  }
}

/// A window of a ``DayDesk``: an X window id, a sway container id, whatever the desk finds it by.
struct DayWindow: Sendable, Hashable, CustomStringConvertible {
  /// The desk's id for it.
  var id: String
  /// Its class or app id.
  var appClass: String

  var description: String { "\(appClass) (\(id))" }
}

/// A part of a shield's bubble a person can click.
enum ShieldPart: String, Sendable {
  /// The action's button ("Solve a task").
  case button
  /// The bubble's text: the default action where the server acts on it, a dismissal elsewhere.
  case body
}

/// A desk on an X server of the tests' own (``XSession``): xterms for the apps, and the browser's
/// window on the same display.
protocol XSessionDesk: DayDesk {
  var session: XSession { get }
}

extension XSessionDesk {
  var browserEnvironment: [String: String]? { ["DISPLAY": session.display] }

  func launchApp(_ appClass: String) async throws -> DayWindow {
    let client = try await session.launchXterm(windowClass: appClass)
    return DayWindow(id: String(client.window), appClass: appClass)
  }

  func browserWindow(_ appClass: String) async throws -> DayWindow {
    DayWindow(id: String(try await session.managedWindow(ofClass: appClass)), appClass: appClass)
  }
}
