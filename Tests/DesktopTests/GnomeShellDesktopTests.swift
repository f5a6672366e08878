import DBus
import Desktop
import Foundation
import Synchronization
import TestSupport
import Testing

/// The GNOME Shell backend against a real headless GNOME Shell (Wayland) with
/// ShieldBridge's extension, and real foot windows. One shell for each of the suite's
/// tests each, one after the other: a shell takes seconds to start.
@Suite(.serialized) struct GnomeShellDesktopTests {
  static func isFocus(ofClass wmClass: String) -> @Sendable (DesktopEvent) -> Bool {
    { event in
      if case .focus(let window?) = event { window.app.windowClass == wmClass } else { false }
    }
  }

  static func isNotice(containing text: String) -> @Sendable (DesktopEvent) -> Bool {
    { event in
      if case .notice(let notice) = event { notice.contains(text) } else { false }
    }
  }

  static let noFocus: @Sendable (DesktopEvent) -> Bool = { $0 == .focus(nil) }

  @Test func focusHideCloseSpoofingDisablingAndARestartOfGnomeShell() async throws {
    let session = try await GnomeShellSession()
    _ = try await session.launchFoot(appID: "Other")
    // The backend is the test process's: the extension serves it once this process owns the service's name.
    try await session.ownServiceName()
    let desktop = try #require(try DesktopChoice.auto.open(environment: session.environment, covers: { _ in true }))
    #expect(desktop.kind == .gnome)
    #expect(desktop.attention == nil)
    let log = EventLog<DesktopEvent>()
    let task = log.collect(desktop.events(idleAfter: .seconds(300)))
    let first = try await log.first("the first focus") { if case .focus = $0 { true } else { false } }
    #expect(Self.isFocus(ofClass: "Other")(first), "\(first)")
    _ = try await log.first("the screen") { $0 == .screen(.on) }
    _ = try await log.first("idle") { if case .idle = $0 { true } else { false } }

    // A new window takes the focus; the shell tells its class (the Wayland app_id) and pid.
    var mark = log.count
    let instagram = try await session.launchFoot(appID: "Instagram")
    let focused = try await log.first("Instagram's focus", after: mark, where: Self.isFocus(ofClass: "Instagram"))
    guard case .focus(let window?) = focused else { return }
    let pid = try #require(window.app.pid)
    #expect(pid == instagram.process.pid || window.app.executable == "foot")
    #expect(window.app.appID == "Instagram")
    #expect(window.app.executable == "foot")

    // Hide minimizes it; a second hide finds nothing left to hide.
    #expect(try await desktop.hide { $0.windowClass == "Instagram" } == 1)
    #expect(try await session.windows(ofClass: "Instagram").allSatisfy(\.isMinimized))
    #expect(try await desktop.hide { $0.windowClass == "Instagram" } == 0)

    // A third connection claims a focus change, unicast and broadcast: ignored, and said once.
    mark = log.count
    let spoofer = try SignalSpoofer(address: session.bus.address)
    let claim: [String: Variant] = [
      "id": Variant(.uint64(4242)), "wmClass": Variant(.string("Spoofed")), "pid": Variant(.int32(1)),
    ]
    for _ in 0..<3 {
      try spoofer.connection.emit(
        path: ObjectPath("/org/shieldbridge/ShellExtension"),
        interface: InterfaceName("org.shieldbridge.ShellExtension1"),
        member: MemberName("FocusChanged"), destination: nil, claim)
    }
    _ = try await log.first(
      "the notice of the spoofed FocusChanged", after: mark,
      where: Self.isNotice(containing: "ignored FocusChanged from \(spoofer.uniqueName)"))
    // The third connection is not a watcher: the extension refuses to hide for it.
    let other = try await session.launchFoot(appID: "Victim")
    let victim = try #require(try await session.windows(ofClass: "Victim").first)
    await #expect(throws: DBusError.self) {
      _ = try await spoofer.connection.call(
        BusName("org.gnome.Shell"), ObjectPath("/org/shieldbridge/ShellExtension"),
        InterfaceName("org.shieldbridge.ShellExtension1"), MemberName("Hide"), [victim.id], timeout: HangBound.answer)
    }
    // A connection of this process is served (the process owns the service's name); a foreign
    // process is refused everything, Watch included: see MeterGnomeTests.
    _ = try await log.first("Victim's focus", after: mark, where: Self.isFocus(ofClass: "Victim"))
    #expect(!log.events.dropFirst(mark).contains(where: Self.isFocus(ofClass: "Spoofed")))
    #expect(log.events.dropFirst(mark).filter(Self.isNotice(containing: "ignored FocusChanged")).count == 1)
    #expect(try await session.windows(ofClass: "Victim").allSatisfy { !$0.isMinimized })

    // Close asks the window to close and returns its pid; the foot exits. A window that
    // has gone by the time of the action is simply not found.
    let pids = try await desktop.close { $0.windowClass == "Victim" }
    #expect(pids.count == 1)
    let finished = await other.finish(timeout: .seconds(10))
    #expect(finished.termination != nil, "foot did not exit after delete()")
    #expect(try await desktop.close { $0.windowClass == "Victim" } == [])
    // Ids of windows that are gone, and arguments of the wrong type: nothing happens, the shell stays.
    #expect(try await session.act("Hide", on: [victim.id, 1, UInt64.max]) == [])
    #expect(try await session.act("Close", on: [victim.id]) == [])
    await #expect(throws: DBusError.self) { try await session.callWithWrongArguments("Hide") }
    #expect(try await !session.windows().isEmpty)

    // Disabled: the backend says what to run, and sees no focus; enabled again, it watches again.
    mark = log.count
    try await session.gnomeExtensions(["disable", GnomeShellSession.uuid])
    _ = try await log.first(
      "the notice of the disabled extension", after: mark,
      where: Self.isNotice(containing: "gnome-extensions enable \(GnomeShellSession.uuid)"))
    _ = try await log.first("no focus", after: mark, where: Self.noFocus)
    #expect(desktop.attention?.contains("not enabled") == true)
    var refused = false
    do { _ = try await desktop.hide { _ in true } } catch { refused = true }
    #expect(refused, "hide without the extension must fail")
    mark = log.count
    try await session.gnomeExtensions(["enable", GnomeShellSession.uuid])
    _ = try await log.first(
      "the notice of the extension back", after: mark, where: Self.isNotice(containing: "answers"))
    _ = try await log.first("a focus again", after: mark) { if case .focus(_?) = $0 { true } else { false } }
    #expect(desktop.attention == nil)

    // GNOME Shell restarts: said, waited for, and watched again with its extension. A
    // backend that waits only 1 s for it reports the desktop lost instead.
    // Nothing of ours in the shell's errors: a stack through the extension's files names its folder.
    #expect(!session.shellOutput.contains("\(GnomeShellSession.uuid)/"), "\(session.shellOutput.suffix(2000))")
    let impatient = try GnomeShellDesktop(address: session.bus.address, restartTimeout: .seconds(1))
    let impatientLog = EventLog<DesktopEvent>()
    let impatientTask = impatientLog.collect(impatient.events(idleAfter: .seconds(300)))
    _ = try await impatientLog.first("the impatient backend's focus") {
      if case .focus(_?) = $0 { true } else { false }
    }
    mark = log.count
    await session.stopShell()
    _ = try await log.first(
      "the notice of the shell's departure", after: mark, where: Self.isNotice(containing: "left the session bus"))
    #expect(desktop.attention?.contains("waiting") == true)
    let lost = try await impatientLog.first("the impatient backend's loss", timeout: .seconds(20)) {
      if case .lost = $0 { true } else { false }
    }
    #expect(lost == .lost("GNOME Shell left the session bus and did not come back within 1 s"))
    await impatientTask.value
    try await session.startShell()
    _ = try await log.first(
      "the notice of the shell's return", after: mark, timeout: .seconds(60),
      where: Self.isNotice(containing: "answers"))
    mark = log.count
    _ = try await session.launchFoot(appID: "Again")
    _ = try await log.first("Again's focus", after: mark, timeout: .seconds(30), where: Self.isFocus(ofClass: "Again"))
    #expect(!log.events.contains { if case .lost = $0 { true } else { false } })

    desktop.stop()
    await task.value
  }

  @Test func withoutTheExtensionTheBackendSaysWhatToRun() async throws {
    let session = try await GnomeShellSession(enabled: false)
    try await session.ownServiceName()
    let desktop = try #require(try DesktopChoice.gnome.open(environment: session.environment, covers: { _ in true }))
    let log = EventLog<DesktopEvent>()
    let task = log.collect(desktop.events(idleAfter: .seconds(300)))
    let notice = try await log.first("the notice", where: Self.isNotice(containing: "gnome-extensions enable"))
    #expect(Self.isNotice(containing: "not enabled")(notice), "\(notice)")
    _ = try await log.first("no focus", where: Self.noFocus)
    #expect(desktop.attention?.contains("gnome-extensions enable \(GnomeShellSession.uuid)") == true)

    // `shieldbridge desktop --once` says it too.
    var environment = session.environment
    environment["XDG_CONFIG_HOME"] = session.home.file("shieldbridge-config")
    environment["XDG_STATE_HOME"] = session.home.file("shieldbridge-state")
    let result = try await ShieldBridgeTool.run(["desktop", "--once"], environment: environment)
    #expect(result.output.contains("desktop: GNOME Shell"), "\(result.output)")
    #expect(result.output.contains("gnome-extensions enable \(GnomeShellSession.uuid)"))

    // Input idle from Mutter's idle monitor: idle after a second without input, active at a key press.
    let idleDesktop = try #require(
      try DesktopChoice.gnome.open(environment: session.environment, covers: { _ in true }))
    let idleLog = EventLog<DesktopEvent>()
    let idleTask = idleLog.collect(idleDesktop.events(idleAfter: .seconds(1)))
    _ = try await idleLog.first("idle", timeout: .seconds(20)) { $0 == .idle(true) }
    let idleMark = idleLog.count
    try await session.press(keysym: 0xffe1)  // Shift_L
    _ = try await idleLog.first("active again", after: idleMark, timeout: .seconds(20)) { $0 == .idle(false) }
    idleDesktop.stop()
    await idleTask.value

    // Enabled later: watched from then on.
    let mark = log.count
    try await session.gnomeExtensions(["enable", GnomeShellSession.uuid])
    _ = try await log.first("the extension's answer", after: mark, where: Self.isNotice(containing: "answers"))
    #expect(desktop.attention == nil)
    desktop.stop()
    await task.value
  }

  /// A real session's bus starts GNOME Shell's helper `org.gnome.Shell.Extensions` for
  /// `gnome-extensions list` and `info`; it re-emits each `ExtensionStateChanged` of the shell
  /// from its own name at /org/gnome/Shell/Extensions. That copy is neither followed nor said
  /// as a stranger's signal; the shell's own still is followed, and a stranger's at the shell's path is said.
  @Test func theExtensionsHelpersCopyOfTheShellsSignalIsNotAStrangers() async throws {
    let session = try await GnomeShellSession(extensionsHelper: true)
    _ = try await session.launchFoot(appID: "Other")
    try await session.ownServiceName()
    let desktop = try #require(try DesktopChoice.gnome.open(environment: session.environment, covers: { _ in true }))
    let log = EventLog<DesktopEvent>()
    let task = log.collect(desktop.events(idleAfter: .seconds(300)))
    _ = try await log.first("the first focus", where: Self.isFocus(ofClass: "Other"))

    // Every ExtensionStateChanged on the bus, with its sender and path.
    let listener = try Connection(.address(session.bus.address))
    defer { listener.close() }
    let heard = Mutex<[(sender: String, path: String, state: Double?)]>([])
    let subscription = try await listener.addSignalHandler(
      matching: GnomeShellExtensionsInterface.extensionStateChanged.rule()
    ) { message in
      var state: Double?
      if let (_, info) = try? GnomeShellExtensionsInterface.extensionStateChanged.decode(message),
        case .double(let value)? = info["state"]?.value
      {
        state = value
      }
      heard.withLock { $0.append((message.sender?.rawValue ?? "", message.path?.rawValue ?? "", state)) }
    }
    defer { subscription.cancel() }
    func helperSaid(_ state: Double, after mark: Int, helper: BusName) async throws {
      _ = try await poll("the helper's ExtensionStateChanged with state \(state)", timeout: .seconds(30)) {
        heard.withLock { $0.dropFirst(mark) }.contains {
          $0.sender == helper.rawValue && $0.path == "/org/gnome/Shell/Extensions" && $0.state == state
        } ? true : nil
      }
    }

    // `gnome-extensions list` starts the helper, which answers for the shell.
    let listed = try await session.gnomeExtensions(["list"])
    #expect(listed.contains(GnomeShellSession.uuid), "\(listed)")
    let helper = try #require(
      try await listener.nameOwner(BusName(GnomeShellSession.extensionsHelper), timeout: .seconds(5)),
      "the helper does not own its name")
    let shell = try #require(try await listener.nameOwner(BusName("org.gnome.Shell"), timeout: .seconds(5)))
    #expect(helper != shell)

    // Disabled and enabled again: the shell's signals are followed; the helper's copies (state 2,
    // disabled, then 1, enabled) arrive too.
    var mark = log.count
    var heardMark = heard.withLock { $0.count }
    try await session.gnomeExtensions(["disable", GnomeShellSession.uuid])
    _ = try await log.first(
      "the notice of the disabled extension", after: mark,
      where: Self.isNotice(containing: "gnome-extensions enable \(GnomeShellSession.uuid)"))
    try await helperSaid(2, after: heardMark, helper: helper)
    mark = log.count
    heardMark = heard.withLock { $0.count }
    try await session.gnomeExtensions(["enable", GnomeShellSession.uuid])
    _ = try await log.first(
      "the notice of the extension back", after: mark, where: Self.isNotice(containing: "answers"))
    try await helperSaid(1, after: heardMark, helper: helper)
    let info = try await session.gnomeExtensions(["info", GnomeShellSession.uuid])
    #expect(info.contains("ENABLED") || info.contains("ACTIVE"), "\(info)")
    #expect(heard.withLock { $0 }.contains { $0.sender == shell.rawValue && $0.path == "/org/gnome/Shell" })

    // A stranger's ExtensionStateChanged at the shell's path, saying disabled: said, not followed.
    // It is sent after the helper's last copy reached the bus, so the backend has had that copy first.
    let spoofer = try SignalSpoofer(address: session.bus.address)
    mark = log.count
    try spoofer.connection.emit(
      GnomeShellExtensionsInterface.extensionStateChanged, path: GnomeShellExtensionsInterface.path,
      destination: nil, GnomeShellSession.uuid, ["state": Variant(.double(2))])
    _ = try await log.first(
      "the notice of the stranger's ExtensionStateChanged", after: mark,
      where: Self.isNotice(containing: "ignored ExtensionStateChanged from \(spoofer.uniqueName)"))
    #expect(desktop.attention == nil)
    let ignored = log.events.filter(Self.isNotice(containing: "ignored ExtensionStateChanged"))
    #expect(ignored.count == 1, "\(ignored)")
    #expect(!log.events.contains(where: Self.isNotice(containing: "from \(helper)")), "\(log.events)")

    desktop.stop()
    await task.value
  }

  @Test func anExtensionThatFailsToLoadIsSaidWithTheShellsError() async throws {
    let session = try await GnomeShellSession(broken: true)
    let desktop = try #require(try DesktopChoice.gnome.open(environment: session.environment, covers: { _ in true }))
    let log = EventLog<DesktopEvent>()
    let task = log.collect(desktop.events(idleAfter: .seconds(300)))
    // "… failed in GNOME Shell (unexpected token: identifier), so no focus is seen: see …, reinstall it with 'make install' …"
    let notice = try await log.first(
      "the notice", timeout: .seconds(40), where: Self.isNotice(containing: "failed in GNOME Shell ("))
    #expect(Self.isNotice(containing: "make install")(notice), "\(notice)")
    _ = try await log.first("no focus", where: Self.noFocus)
    #expect(desktop.attention?.contains("failed in GNOME Shell") == true)
    desktop.stop()
    await task.value
  }
}
