import JSON
import Posix
import Spawn
import Synchronization

/// The demo's desktop: a headless X display with i3 and the windows of the covered app.
///
/// Xvfb picks a free display itself (`-displayfd`), so the demo never takes
/// one a desktop or a test already uses; i3 runs with a configuration and an
/// IPC socket of its own in the demo's folder. Every wait is bounded and
/// checks the state it waits for (the display's number, i3's answer, the
/// window in i3's tree). ``stop()`` ends every process it started, the
/// windows first, then i3, then the X server, and `deinit` does it too, so
/// that no exit path of the demo leaves one behind.
final class DemoDesktop: Sendable {
  /// The X display, such as `:12`.
  let display: String
  /// i3's IPC socket, `ipc-socket` in its configuration.
  let i3Socket: String
  /// The environment for programs on this desktop: its display and socket, and the demo's folders.
  let environment: [String: String]
  /// Everything started; stopped when this desktop is.
  private let processes: DemoProcesses

  /// Starts Xvfb and i3 and returns once i3 answers on its socket.
  ///
  /// - Parameters:
  ///   - directory: The demo's own folder, for i3's configuration and socket.
  ///   - timeout: How long each program may take to start.
  /// - Throws: ``Demo/Failure`` naming the program that is missing or did not start.
  init(directory: String, timeout: Duration) async throws(Demo.Failure) {
    // Released on every failure below, which stops what was started.
    let processes = DemoProcesses()
    self.processes = processes
    let xvfb: Subprocess
    do {
      xvfb = try Subprocess(
        ["Xvfb", "-displayfd", "1", "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
        standardInput: .null, standardOutput: .pipe, standardError: .null, newProcessGroup: true)
    } catch {
      throw Demo.Failure(description: "could not start Xvfb (make demo installs the xvfb package): \(error)")
    }
    processes.append(xvfb)
    // Xvfb writes the display's number once it accepts clients.
    guard let number = xvfb.standardOutput?.readLine(timeout: timeout), !number.isEmpty,
      number.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
    else {
      throw Demo.Failure(description: "Xvfb did not say its display within \(timeout)")
    }
    display = ":" + number
    i3Socket = directory + "/i3.sock"
    var environment = Environment.all
    for name in ["WAYLAND_DISPLAY", "SWAYSOCK", "DBUS_SESSION_BUS_ADDRESS", "XAUTHORITY"] {
      environment[name] = nil
    }
    environment["DISPLAY"] = display
    environment["I3SOCK"] = i3Socket
    environment["HOME"] = directory
    environment["XDG_CONFIG_HOME"] = directory
    environment["XDG_RUNTIME_DIR"] = directory
    self.environment = environment

    // No bar and no wizard; focus moves only when the demo asks, never with the pointer.
    let configuration = "ipc-socket \(i3Socket)\nfocus_follows_mouse no\nmouse_warping none\n"
    do {
      try FileDescriptor.open(directory + "/i3.conf", [.writeOnly, .create, .exclusive], permissions: 0o600)
        .writeAll(configuration)
    } catch {
      throw Demo.Failure(description: "could not write i3's configuration in \(directory): \(error)")
    }
    do {
      try start(["i3", "-c", directory + "/i3.conf"])
    } catch {
      throw Demo.Failure(description: "could not start i3 (make demo installs the i3-wm package): \(error)")
    }
    let answered = await DemoDesktop.poll(timeout: timeout) { [self] in
      FileSystem.exists(i3Socket) && (try? i3(["-t", "get_version"])) != nil ? true : nil
    }
    guard answered != nil else {
      throw Demo.Failure(description: "i3 did not answer on \(i3Socket) within \(timeout)")
    }
  }

  /// Stops every process the desktop started, the last started first.
  func stop() {
    processes.stopAll()
  }

  /// Starts `arguments` on this desktop, in a process group of its own, its output discarded.
  ///
  /// - Throws: ``SpawnError`` when the program cannot be started.
  @discardableResult
  func start(_ arguments: [String]) throws(SpawnError) -> Subprocess {
    let process = try Subprocess(
      arguments, environment: environment, standardInput: .null, standardOutput: .null, standardError: .null,
      newProcessGroup: true)
    processes.append(process)
    return process
  }

  /// Opens `xterm -class windowClass` and returns once i3 manages its window.
  ///
  /// - Throws: ``Demo/Failure`` when xterm is missing or its window does not appear within `timeout`.
  func openWindow(windowClass: String, timeout: Duration) async throws(Demo.Failure) -> DemoWindow {
    do {
      try start(["xterm", "-class", windowClass, "-e", "sleep", "600"])
    } catch {
      throw Demo.Failure(description: "could not start xterm (make demo installs the xterm package): \(error)")
    }
    guard let window = await DemoDesktop.poll(timeout: timeout, { [self] in try? self.window(windowClass) }) else {
      throw Demo.Failure(description: "the xterm window of class \(windowClass) did not appear within \(timeout)")
    }
    return window
  }

  /// The window of class `windowClass` as i3's tree shows it, or `nil` when there is none.
  ///
  /// - Throws: ``Demo/Failure`` when i3 does not answer or answers what is not its tree.
  func window(_ windowClass: String) throws(Demo.Failure) -> DemoWindow? {
    let output = try i3(["-t", "get_tree"])
    let tree: JSONValue
    do { tree = try JSONValue(parsing: output) } catch {
      throw Demo.Failure(description: "i3's tree is not JSON: \(error)")
    }
    return DemoWindow.find(windowClass, in: tree, workspace: nil)
  }

  /// Asks i3 to focus the window of class `windowClass`, as an app switcher
  /// does; i3 shows it again first when it is on the scratchpad.
  func activate(_ windowClass: String) throws(Demo.Failure) {
    try i3(["[class=\"^\(windowClass)$\"] focus"])
  }

  /// Waits until `check` gives a value, at most `timeout`, looking every 20 ms;
  /// `nil` at once when the task is cancelled (the demo was interrupted).
  static func poll<Value: Sendable>(
    timeout: Duration, _ check: @Sendable () async -> Value?
  ) async -> Value? {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if Task.isCancelled { return nil }
      if let value = await check() { return value }
      try? await Task.sleep(for: .milliseconds(20))
    }
    return await check()
  }

  /// `i3-msg -s SOCKET ARGUMENTS`, its output.
  @discardableResult
  private func i3(_ arguments: [String]) throws(Demo.Failure) -> String {
    let result: Subprocess.Result
    do {
      result = try Subprocess.run(
        ["i3-msg", "-s", i3Socket] + arguments, environment: environment, timeout: .seconds(5))
    } catch {
      throw Demo.Failure(description: "could not run i3-msg: \(error)")
    }
    guard result.status == 0 else {
      throw Demo.Failure(description: "i3-msg \(arguments.joined(separator: " ")) failed: \(result.error)")
    }
    return result.output
  }
}

/// A window as i3's tree shows it: where it is and whether it has the focus.
struct DemoWindow: Hashable, Sendable {
  /// The X window id.
  var window: UInt64
  /// The workspace it is on; `__i3_scratch` while it is hidden on the scratchpad.
  var workspace: String?
  var isFocused: Bool

  /// Whether i3 hides it: on the scratchpad, which no output shows.
  var isHidden: Bool { workspace == "__i3_scratch" }

  /// The first window of class `windowClass` at or below `node`, which is on `workspace`.
  static func find(_ windowClass: String, in node: JSONValue, workspace: String?) -> DemoWindow? {
    let workspace = node["type"]?.stringValue == "workspace" ? node["name"]?.stringValue : workspace
    if node["window_properties"]?["class"]?.stringValue == windowClass, let window = node["window"]?.integerValue,
      let id = UInt64(exactly: window)
    {
      return DemoWindow(window: id, workspace: workspace, isFocused: node["focused"]?.boolValue == true)
    }
    for key in ["nodes", "floating_nodes"] {
      for child in node[key]?.arrayValue ?? [] {
        if let found = find(windowClass, in: child, workspace: workspace) { return found }
      }
    }
    return nil
  }
}

/// The processes a ``DemoDesktop`` started, stopped together: by ``stopAll()`` or when released.
private final class DemoProcesses: Sendable {
  private let started = Mutex<[Subprocess]>([])

  deinit {
    stopAll()
  }

  func append(_ process: Subprocess) {
    started.withLock { $0.append(process) }
  }

  /// SIGTERM to each, the last started first, and SIGKILL after 2 s. An
  /// xterm's `sleep` ends with it: it gets SIGHUP when the xterm's side of
  /// the terminal closes.
  func stopAll() {
    let processes = started.withLock { processes in
      defer { processes.removeAll() }
      return processes
    }
    for process in processes.reversed() where process.exitStatus == nil {
      process.terminate(grace: .seconds(2))
    }
  }
}
