public import DBus
import Desktop
import Foundation
import Spawn
import Synchronization

/// A headless GNOME Shell of a test's own on Wayland, with ShieldBridge's
/// extension installed into a temporary home and enabled before it starts,
/// and foot windows on it.
///
/// The recipe of `DESKTOPS.md`: a private session bus, and a second private
/// bus as the system bus (the shell's quick settings ask it for UPower), a
/// runtime folder of mode 700, and `/run/systemd` hidden under a tmpfs in a
/// mount namespace of the shell's own (`unshare -m`), so that the shell uses
/// its no-logind path on a machine that has `/run/systemd/seats` but no
/// logind. The extension comes from `scripts/install-gnome-extension` (the
/// variant for the installed shell) into `$XDG_DATA_HOME/gnome-shell/extensions/`,
/// and `org.gnome.shell enabled-extensions` names it in a keyfile settings
/// backend (`GSETTINGS_BACKEND=keyfile`, under `$XDG_CONFIG_HOME`). Keys are
/// pressed through Mutter's own `org.gnome.Mutter.RemoteDesktop` (a virtual
/// keyboard, as a remote-desktop client has): the shell starts in the
/// overview, which Escape leaves, and only then do new windows take the focus.
///
/// With a ``Trixie`` tree, the shell is Debian 13's (GNOME Shell 48) run in
/// that chroot, with the extension's 45+ variant; the buses, the folders and
/// the foot clients stay on this machine, at paths the chroot shares.
public final class GnomeShellSession: Sendable {
  public static let uuid = "shieldbridge@shieldbridge.org"

  /// The session bus the shell owns `org.gnome.Shell` on.
  public let bus: BusDaemon
  private let systemBus: BusDaemon
  public let home: TemporaryDirectory
  public let waylandDisplay = "wayland-0"
  private let shell: Mutex<BackgroundProcess?>
  private let clients = Mutex<[BackgroundProcess]>([])
  /// Calls `Watch` and `ListWindows` to see what the extension sees.
  private let observer: Connection
  /// The connection with the remote-desktop session the keys are pressed through, and its session's path.
  private let keyboard = Mutex<(connection: Connection, session: ObjectPath)?>(nil)
  private let slot: DesktopSlot
  /// The Debian 13 tree the shell runs in, or `nil` for this machine's shell.
  public let chroot: Trixie?
  /// Whether the shell runs Xwayland beside its Wayland clients.
  public let xwayland: Bool
  /// Xwayland's display (`:1`) and the cookie file Mutter made for it, once the shell started it.
  private let x11 = Mutex<(display: String, authority: String)?>(nil)

  /// Starts the shell and waits until the extension answers.
  ///
  /// - Parameters:
  ///   - enabled: Whether the extension is listed as enabled before the shell starts.
  ///   - broken: Whether its `core.js` gets a syntax error after installing, so that the shell fails to load it.
  ///   - extensionsHelper: Whether the session bus can start GNOME Shell's helper service
  ///     `org.gnome.Shell.Extensions` on demand, as a real session's bus can: its `.service` file
  ///     from the gnome-shell package in a service folder of the bus, and the session's
  ///     environment given to the bus for activation once the shell runs (as gnome-session does).
  ///   - chroot: A Debian 13 tree to run its GNOME Shell in instead of this machine's.
  ///   - xwayland: Whether the shell starts Xwayland (as a desktop session does), for X11 clients
  ///     such as a browser on X11; its display is in ``environment``.
  public init(
    enabled: Bool = true, broken: Bool = false, extensionsHelper: Bool = false, chroot: Trixie? = nil,
    xwayland: Bool = false
  ) async throws {
    for (tool, package) in [("foot", "foot"), ("unshare", "util-linux"), ("dbus-daemon", "dbus-daemon")]
      + (chroot == nil ? [("gnome-shell", "gnome-shell")] : [])
    {
      _ = try requiredTool(tool, package: package)
    }
    guard chroot == nil || !extensionsHelper else {
      throw DesktopError("the extensions helper is this machine's; it cannot serve the shell in the chroot")
    }
    self.chroot = chroot
    self.xwayland = xwayland
    // The major version the extension is installed for: the chroot's shell's, or (empty) the installed one's.
    var major = ""
    if let chroot {
      let version = try await chroot.run(["gnome-shell", "--version"])
      guard let number = version.split(separator: " ").last?.split(separator: ".").first, Int(number) != nil else {
        throw DesktopError("the chroot's gnome-shell --version said '\(version)'")
      }
      major = String(number)
    }
    await DesktopSlots.shared.take()
    slot = DesktopSlot()
    home = try TemporaryDirectory(prefix: "shieldbridge-gnome")
    let manager = FileManager.default
    for folder in ["run", "data/gnome-shell/extensions", "config/glib-2.0/settings", "home", "services"] {
      try manager.createDirectory(atPath: home.file(folder), withIntermediateDirectories: true)
    }
    if extensionsHelper {
      let service = Self.extensionsHelperService
      guard manager.fileExists(atPath: service) else {
        throw PollTimedOut(what: "\(service), GNOME Shell's extensions helper (install the gnome-shell package)")
      }
      try manager.copyItem(atPath: service, toPath: home.file("services/org.gnome.Shell.Extensions.service"))
    }
    if let chroot {
      // The shell's notification daemon is a helper it has the bus start (`org.gnome.Shell.Notifications`,
      // which owns `org.freedesktop.Notifications`): the chroot's, started in the chroot.
      try Self.writeNotificationsHelper(home: home, chroot: chroot)
    }
    bus = try BusDaemon(serviceDirectories: [home.file("services")])
    systemBus = try BusDaemon()
    try manager.setAttributes([.posixPermissions: 0o700], ofItemAtPath: home.file("run"))
    let installed = await
      (try BackgroundProcess([
        Self.repository + "/scripts/install-gnome-extension", home.file("data/gnome-shell/extensions"), major,
      ])).finish()
    guard installed.status == 0 else { throw PollTimedOut(what: "the extension installed: \(installed.error)") }
    if broken {
      let core = home.file("data/gnome-shell/extensions/\(Self.uuid)/core.js")
      try (try String(contentsOfFile: core, encoding: .utf8) + "\nthis is not ( javascript\n").write(
        toFile: core, atomically: true, encoding: .utf8)
    }
    let enabledList = enabled ? "['\(Self.uuid)']" : "@as []"
    try "[org/gnome/shell]\nenabled-extensions=\(enabledList)\n".write(
      toFile: home.file("config/glib-2.0/settings/keyfile"), atomically: true, encoding: .utf8)
    observer = try Connection(.address(bus.address))
    shell = Mutex(nil)
    try await start(waitForExtension: enabled && !broken)
    if extensionsHelper {
      try await observer.call(
        BusInterface.updateActivationEnvironment, destination: .bus, path: .bus,
        shellEnvironment.merging(["WAYLAND_DISPLAY": waylandDisplay]) { $1 }, timeout: .seconds(5))
    }
  }

  /// Writes a D-Bus service file for the chroot's `org.gnome.Shell.Notifications` into the bus's
  /// service folder, with a launcher that runs it in the chroot in the shell's environment (the
  /// bus is made afterwards, so its address is read from `DBUS_STARTER_ADDRESS`).
  private static func writeNotificationsHelper(home: TemporaryDirectory, chroot: Trixie) throws {
    let variables = [
      "PATH=/usr/bin:/bin", "HOME=\(home.file("home"))", "XDG_RUNTIME_DIR=\(home.file("run"))",
      "XDG_DATA_HOME=\(home.file("data"))", "XDG_CONFIG_HOME=\(home.file("config"))", "GSETTINGS_BACKEND=keyfile",
      "LANG=C.UTF-8",
    ]
    let command = chroot.command(
      ["env", "-i"] + variables + ShieldBridgeTool.testRunMark.map { "\($0.key)=\($0.value)" } + [
        "sh", "-c", #"DBUS_SESSION_BUS_ADDRESS="$0" exec gjs -m /usr/share/gnome-shell/org.gnome.Shell.Notifications"#,
      ])
    let quoted = command.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
    // The starter's address goes in as the inner shell's $0.
    let launcher = home.file("notifications-helper")
    try writeExecutable(
      launcher,
      "#!/bin/sh\nexec \(quoted.dropLast().joined(separator: " ")) \(quoted.last ?? "") \"$DBUS_STARTER_ADDRESS\"\n")
    try "[D-BUS Service]\nName=org.gnome.Shell.Notifications\nExec=\(launcher)\n".write(
      toFile: home.file("services/org.gnome.Shell.Notifications.service"), atomically: true, encoding: .utf8)
  }

  /// Where the gnome-shell package installs the D-Bus service file of its extensions helper.
  public static let extensionsHelperService = "/usr/share/dbus-1/services/org.gnome.Shell.Extensions.service"

  /// The bus name of GNOME Shell's extensions helper, which `gnome-extensions list` and `info` call.
  public static let extensionsHelper = "org.gnome.Shell.Extensions"

  /// The environment the shell runs in, and the session's services started on demand get.
  private var shellEnvironment: [String: String] {
    [
      "PATH": "/usr/bin:/bin", "HOME": home.file("home"), "XDG_RUNTIME_DIR": home.file("run"),
      "XDG_DATA_HOME": home.file("data"), "XDG_CONFIG_HOME": home.file("config"), "GSETTINGS_BACKEND": "keyfile",
      "DBUS_SESSION_BUS_ADDRESS": bus.address, "DBUS_SYSTEM_BUS_ADDRESS": systemBus.address, "LANG": "C.UTF-8",
    ].merging(ShieldBridgeTool.testRunMark) { $1 }
  }

  deinit {
    for client in clients.withLock({ $0 }) { client.process.killTree() }
    keyboard.withLock { $0?.connection.close() }
    observer.close()
    if let shell = shell.withLock({ $0 }) {
      shell.process.signalGroup(SIGTERM)
      if shell.process.wait(timeout: .seconds(5)) == nil { shell.process.signalGroup(SIGKILL) }
      Self.removeLocks(of: shell.process.pid)
    }
    systemBus.stop()
    bus.stop()
    Subprocess.killOrphans(startedWith: "XDG_RUNTIME_DIR=" + home.file("run"))
  }

  /// The repository's root, from this file's place in it.
  public static var repositoryPath: String { repository }

  static var repository: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().path
  }

  /// The environment a backend or a client of this session gets: its bus and runtime folder, and
  /// Xwayland's display where the shell runs one (else no X display).
  public var environment: [String: String] {
    let x11 = x11.withLock { $0 }
    return [
      "DBUS_SESSION_BUS_ADDRESS": bus.address, "XDG_RUNTIME_DIR": home.file("run"),
      "WAYLAND_DISPLAY": waylandDisplay, "DISPLAY": x11?.display ?? "", "SWAYSOCK": "", "I3SOCK": "",
    ].merging(x11.map { ["XAUTHORITY": $0.authority] } ?? [:]) { $1 }
  }

  /// Xwayland's display number: the lowest of the X lock files that carry the shell's pid
  /// (Mutter writes its own pid into the lock of each display it reserves, the public one first).
  private static func xwaylandDisplay(of pid: Int32) -> Int? {
    (0..<100).first { number in
      let lock = (try? String(contentsOfFile: "/tmp/.X\(number)-lock", encoding: .utf8)) ?? ""
      return Int32(lock.trimmingCharacters(in: .whitespacesAndNewlines)) == pid
    }
  }

  /// Writes a lock with this process's pid for every X socket in `/tmp/.X11-unix` that has none;
  /// returns the files it made.
  private static func lockUnlockedSockets() -> [String] {
    DesktopSlots.lockDisplays((0..<100).filter { FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)") })
  }

  /// Removes the X lock files and sockets a shell that ended (`pid`) left behind.
  private static func removeLocks(of pid: Int32) {
    while let number = xwaylandDisplay(of: pid) {
      unlink("/tmp/.X\(number)-lock")
      unlink("/tmp/.X11-unix/X\(number)")
    }
  }

  /// Waits until the shell says it has started (`GNOME Shell started at`, once its startup
  /// animation has ended), before the first key: in about half of the sessions whose first key
  /// came earlier, the shell ran no key binding at all for the rest of the session (Mutter found
  /// no handler for Alt+Tab or Super+V, and the keys went to the focused window).
  public func waitUntilStarted() async throws {
    _ = try await poll("GNOME Shell to finish starting", timeout: .seconds(60), every: .milliseconds(50)) {
      self.shellOutput.contains("GNOME Shell started at") ? true : nil
    }
  }

  /// What `gnome-shell` printed so far, for a failure's message.
  public var shellOutput: String { shell.withLock { $0?.standardError ?? "" } }

  private func start(waitForExtension: Bool) async throws {
    let script =
      "if [ -d /run/systemd ]; then mount -t tmpfs none /run/systemd || exit 70; fi; "
      + "exec gnome-shell --headless --wayland \(xwayland ? "" : "--no-x11 ")--virtual-monitor \(Self.width)x\(Self.height)"
      // Unsafe mode opens the shell's own `Eval`, through which the test looks at the windows:
      // the extension serves only the service's process, which the test is not.
      + " --unsafe-mode"
    // Until Xwayland runs, no Xvfb of this process picks a number, and every socket without a
    // lock gets one: Mutter skips locked numbers (it tries 50 from 0), so it never takes the
    // socket of an Xvfb that writes no lock.
    var steering: [String] = []
    if xwayland {
      await DesktopSlots.displayNumbers.take()
      steering = Self.lockUnlockedSockets()
    }
    defer {
      if xwayland {
        for path in steering { unlink(path) }
        DesktopSlots.displayNumbers.give()
      }
    }
    let environment = ["env", "-i"] + shellEnvironment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    // The chroot's command is a mount namespace of its own already.
    let process = try BackgroundProcess(
      chroot.map { $0.command(environment + ["sh", "-c", script]) }
        ?? environment + ["unshare", "-m", "sh", "-c", script])
    shell.withLock { $0 = process }
    do {
      _ = try await poll("GNOME Shell on its bus", timeout: .seconds(90), every: .milliseconds(100)) {
        guard process.process.exitStatus == nil else { throw PollTimedOut(what: "gnome-shell, which exited") }
        return try? await self.observer.nameOwner(BusName("org.gnome.Shell"), timeout: HangBound.answer)
      }
      if xwayland {
        let runtime = home.file("run")
        let found = try await poll("Xwayland's display and cookie", timeout: .seconds(30), every: .milliseconds(100)) {
          () -> (String, String)? in
          guard let number = Self.xwaylandDisplay(of: process.process.pid),
            FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)"),
            let cookie = (try? FileManager.default.contentsOfDirectory(atPath: runtime))?.first(where: {
              $0.hasPrefix(".mutter-Xwaylandauth.")
            })
          else { return nil }
          return (":\(number)", runtime + "/" + cookie)
        }
        x11.withLock { $0 = (display: found.0, authority: found.1) }
      }
      if waitForExtension {
        let last = Mutex("")
        do {
          _ = try await poll("the extension's answer", timeout: .seconds(60), every: .milliseconds(100)) {
            do {
              try await self.extensionAnswers()
              return true
            } catch {
              last.withLock { $0 = "\(error)" }
              return nil
            }
          }
        } catch {
          throw PollTimedOut(what: "\(error) (the last call: \(last.withLock { $0 }))")
        }
      }
    } catch {
      throw PollTimedOut(what: "\(error); gnome-shell said: \(String(process.standardError.suffix(3000)))")
    }
  }

  /// Stops the shell (SIGTERM) and waits for it to end; its clients lose their display.
  public func stopShell() async {
    guard let process = shell.withLock({ $0 }) else { return }
    process.process.signalGroup(SIGTERM)
    _ = await process.finish(timeout: .seconds(10))
    keyboard.withLock { $0 = nil }
    shell.withLock { $0 = nil }
  }

  /// Starts the shell again after ``stopShell()`` and waits for the extension.
  public func startShell() async throws {
    try await start(waitForExtension: true)
  }

  // MARK: What the shell sees

  /// A window as the shell has it.
  public struct Window: Hashable, Sendable {
    public var id: UInt64
    public var wmClass: String?
    public var isMinimized: Bool
  }

  private static let path = ObjectPath(rawValue: "/org/shieldbridge/ShellExtension")!
  private static let interface = InterfaceName(rawValue: "org.shieldbridge.ShellExtension1")!

  /// A window's fields as JavaScript in the shell writes them (never its title).
  private static let describe = "w => ({id: w.get_id(), wmClass: w.get_wm_class(), minimized: w.minimized})"

  /// Evaluates `expression` in the shell (`org.gnome.Shell.Eval`, open in unsafe mode); its value as JSON.
  private func evaluate(_ expression: String) async throws -> Any? {
    let reply = try await observer.call(
      BusName("org.gnome.Shell"), ObjectPath("/org/gnome/Shell"), InterfaceName("org.gnome.Shell"),
      MemberName("Eval"), expression, timeout: HangBound.answer)
    let (success, result) = try reply.decode(Bool.self, String.self)
    guard success else { throw DesktopError("GNOME Shell's Eval failed: \(result)") }
    guard !result.isEmpty else { return nil }
    return try JSONSerialization.jsonObject(with: Data(result.utf8), options: [.fragmentsAllowed])
  }

  private static func window(_ value: Any?) -> Window? {
    guard let fields = value as? [String: Any], let id = (fields["id"] as? NSNumber)?.uint64Value else { return nil }
    return Window(id: id, wmClass: fields["wmClass"] as? String, isMinimized: fields["minimized"] as? Bool == true)
  }

  /// The window with the focus, as the shell tells it (`nil`: none).
  @discardableResult
  public func watch() async throws -> Window? {
    Self.window(
      try await evaluate("(w => w ? (\(Self.describe))(w) : null)(global.display.get_focus_window())"))
  }

  /// Every window the shell manages (override-redirect ones aside), as the extension would list them.
  public func windows() async throws -> [Window] {
    let list = try await evaluate(
      "global.get_window_actors().map(a => a.get_meta_window())"
        + ".filter(w => w && !w.is_override_redirect()).map(\(Self.describe))")
    return (list as? [Any] ?? []).compactMap(Self.window)
  }

  /// Whether the extension's object answers: its `Watch` is served, or refused as it refuses
  /// every process but the service's.
  public func extensionAnswers() async throws {
    do {
      _ = try await observer.call(
        BusName("org.gnome.Shell"), Self.path, Self.interface, MemberName("Watch"), timeout: HangBound.answer)
    } catch let error where error.name == DBusError.Name.accessDenied.rawValue {
      return
    }
  }

  /// Asks for the service's name (`org.shieldbridge.ShieldBridge`) on the test's own connection,
  /// so that the extension serves this process, as it serves the service: for tests whose
  /// backend runs in the test process.
  public func ownServiceName() async throws {
    let result = try await observer.call(
      BusInterface.requestName, destination: .bus, path: .bus, "org.shieldbridge.ShieldBridge", UInt32(4),
      timeout: HangBound.answer)
    guard result == 1 || result == 4 else { throw DesktopError("RequestName answered \(result)") }
  }

  /// The extension's `Hide` or `Close` for `ids`, as a watcher calls it; the ids it acted on.
  /// The extension serves only the service's process: see ``ownServiceName()``.
  public func act(_ member: String, on ids: [UInt64]) async throws -> [UInt64] {
    _ = try await observer.call(
      BusName("org.gnome.Shell"), Self.path, Self.interface, MemberName("Watch"), timeout: HangBound.answer)
    let reply = try await observer.call(
      BusName("org.gnome.Shell"), Self.path, Self.interface, MemberName(member), ids, timeout: HangBound.answer)
    return try reply.decode([UInt64].self)
  }

  /// A call of `member` with a string where the extension's signature wants ids.
  public func callWithWrongArguments(_ member: String) async throws {
    _ = try await observer.call(
      BusName("org.gnome.Shell"), Self.path, Self.interface, MemberName("Watch"), timeout: HangBound.answer)
    _ = try await observer.call(
      BusName("org.gnome.Shell"), Self.path, Self.interface, MemberName(member), "not ids", timeout: HangBound.answer)
  }

  /// The shell's `ShellVersion` property, such as `48.7`.
  public func shellVersion() async throws -> String {
    let value = try await observer.call(
      PropertiesInterface.get, destination: BusName("org.gnome.Shell"), path: ObjectPath("/org/gnome/Shell"),
      "org.gnome.Shell", "ShellVersion", timeout: HangBound.answer)
    guard case .string(let version) = value.value else {
      throw DesktopError("ShellVersion is not a string")
    }
    return version
  }

  /// The extension's state as the shell tells it (`GetExtensionInfo`'s `state`: 1 is ACTIVE), `nil` when it does not know it.
  public func extensionState() async throws -> Double? {
    let info = try await observer.call(
      GnomeShellExtensionsInterface.getExtensionInfo, destination: GnomeShellExtensionsInterface.busName,
      path: GnomeShellExtensionsInterface.path, Self.uuid, timeout: HangBound.answer)
    guard case .double(let state)? = info["state"]?.value else { return nil }
    return state
  }

  /// The windows whose class is `wmClass`.
  public func windows(ofClass wmClass: String) async throws -> [Window] {
    try await windows().filter { $0.wmClass == wmClass }
  }

  // MARK: Clients and input

  /// Starts `foot -a APPID -e sleep 600` and waits until its window has the focus.
  ///
  /// Escape is pressed while it does not: the shell starts in the overview,
  /// where a new window does not take the focus.
  ///
  /// - Parameter waitForFocus: `false` to wait only for the window to be listed
  ///   (a covered app over its limit is minimized at once).
  public func launchFoot(appID: String, waitForFocus: Bool = true) async throws -> BackgroundProcess {
    let before = Set(try await windows(ofClass: appID).map(\.id))
    var environment = environment
    environment["DISPLAY"] = ""
    let foot = try BackgroundProcess(["foot", "-a", appID, "-e", "sleep", "600"], environment: environment)
    clients.withLock { $0.append(foot) }
    let window = try await poll("foot's window \(appID)", timeout: .seconds(30), every: .milliseconds(50)) {
      try await self.windows(ofClass: appID).first { !before.contains($0.id) }
    }
    guard waitForFocus else { return foot }
    var pressed = ContinuousClock.now
    _ = try await poll("\(appID)'s window to take the focus", timeout: .seconds(30), every: .milliseconds(50)) {
      if try await self.watch()?.id == window.id { return true }
      if ContinuousClock.now - pressed > .seconds(2) {
        try await self.press(keysym: 0xff1b)
        pressed = ContinuousClock.now
      }
      return nil
    }
    return foot
  }

  /// Presses and releases the key `keysym` (X11 keysym numbers: 0xff1b Escape) on Mutter's virtual keyboard.
  public func press(keysym: UInt32) async throws {
    try await press(chord: [keysym])
  }

  /// Presses the keys of `chord` in order and releases them in reverse (`[0xffe9, 0xff09]`: Alt+Tab).
  public func press(chord: [UInt32]) async throws {
    let strokes = chord.map { ($0, true) } + chord.reversed().map { ($0, false) }
    try await send(strokes.map { .key($0.0, down: $0.1) })
  }

  /// Holds Alt and presses Tab `times` times, as a person walks the app switcher; then lets go.
  /// The keys come 60 ms apart, as a person's do: the switcher takes the keyboard once Alt+Tab is
  /// down, and Tabs sent before it has it are lost.
  public func altTab(times: Int) async throws {
    let tabs = (0..<max(1, times)).flatMap { _ in [InputEvent.key(0xff09, down: true), .key(0xff09, down: false)] }
    for event in [.key(0xffe9, down: true)] + tabs + [.key(0xffe9, down: false)] {
      try await send([event])
      try await Task.sleep(for: .milliseconds(60))
    }
  }

  /// The virtual monitor's size.
  public static let width = 1024
  public static let height = 768

  /// Moves the pointer to `x`, `y` (from the monitor's top left) and clicks the left button there.
  ///
  /// Mutter's virtual pointer moves only relatively without a screencast stream: the pointer is
  /// pushed into the bottom-right corner first (the top-left one is the hot corner, which opens
  /// the overview), from where the distance is known. Mutter applies no acceleration to it.
  public func click(x: Int, y: Int) async throws {
    let corner = Double(4 * (Self.width + Self.height))
    try await send([
      .motion(corner, corner), .motion(Double(x - Self.width + 1), Double(y - Self.height + 1)),
      .button(272, down: true), .button(272, down: false),
    ])
  }

  /// One event of Mutter's virtual keyboard or pointer.
  public enum InputEvent: Sendable {
    /// A key by its X11 keysym, pressed or released.
    case key(UInt32, down: Bool)
    /// A relative pointer motion.
    case motion(Double, Double)
    /// A pointer button by its evdev code (272 is the left one), pressed or released.
    case button(Int32, down: Bool)
  }

  /// Sends `events` in order through this session's remote-desktop session (made on first use).
  public func send(_ events: [InputEvent]) async throws {
    let destination = MutterRemoteDesktopInterface.busName
    typealias Session = MutterRemoteDesktopSessionInterface
    var current = keyboard.withLock { $0 }
    if current == nil {
      let connection = try Connection(.address(bus.address))
      let session = try await connection.call(
        MutterRemoteDesktopInterface.createSession, destination: destination, path: MutterRemoteDesktopInterface.path,
        timeout: HangBound.answer)
      try await connection.call(Session.start, destination: destination, path: session, timeout: HangBound.answer)
      current = (connection, session)
      keyboard.withLock { $0 = current }
    }
    guard let (connection, session) = current else { return }
    for event in events {
      switch event {
      case .key(let keysym, let down):
        try await connection.call(
          Session.notifyKeyboardKeysym, destination: destination, path: session, keysym, down,
          timeout: HangBound.answer)
      case .motion(let dx, let dy):
        try await connection.call(
          Session.notifyPointerMotionRelative, destination: destination, path: session, dx, dy,
          timeout: HangBound.answer)
      case .button(let code, let down):
        try await connection.call(
          Session.notifyPointerButton, destination: destination, path: session, code, down,
          timeout: HangBound.answer)
      }
    }
  }

  /// Runs `gnome-extensions ARGUMENTS` against this shell; what it printed.
  ///
  /// It writes `enabled-extensions` itself, so it gets the shell's settings
  /// backend (the keyfile, which the shell watches) as a session's tools share dconf.
  @discardableResult
  public func gnomeExtensions(_ arguments: [String]) async throws -> String {
    _ = try requiredTool("gnome-extensions", package: "gnome-shell")
    let result = await
      (try BackgroundProcess(
        ["gnome-extensions"] + arguments,
        environment: environment.merging([
          "GSETTINGS_BACKEND": "keyfile", "XDG_CONFIG_HOME": home.file("config"), "HOME": home.file("home"),
        ]) { _, new in new })).finish()
    guard result.status == 0 else {
      throw PollTimedOut(what: "gnome-extensions \(arguments) to succeed: \(result.output) \(result.error)")
    }
    return result.output
  }
}
