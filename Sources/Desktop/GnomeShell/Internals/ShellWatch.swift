import DBus

/// The GNOME Shell backend's event loop: what the connection hears, in the
/// order it was dispatched, turned into ``DesktopEvent``s.
///
/// One task runs ``run(_:)``; every input waits for the one before it, calls
/// to the shell included, so the state here needs no lock. What the actions
/// read (the extension's state, the owner it serves) is kept in the
/// backend's shared state.
actor ShellWatch {
  private let desktop: GnomeShellDesktop
  private let output: AsyncStream<DesktopEvent>.Continuation
  private let idleAfter: Duration

  /// The last focus reported: `nil` nothing yet, `.some(nil)` no window.
  private var lastFocus: ShellWindow??
  private var lastIdle: Bool?
  private var lastScreen: ScreenState?
  /// Mutter's id of the watch that fires after `idleAfter` without input, and of the one-shot that fires on input.
  private var idleWatch: UInt32?
  private var activeWatch: UInt32?
  /// Whether the shell has been seen on the bus, so that its leaving is a restart.
  private var shellSeen = false
  /// Counts the shell's departures, so that a late deadline of an earlier one does nothing.
  private var departures = 0
  /// The extension's state as last said; `nil` before the first.
  private var saidState: ExtensionState?
  /// How often the starting shell was asked again for its extension manager.
  private var startupTries = 0
  private var owners = GnomeShellDesktop.Owners()
  private var trackers: [NameOwnerTracker] = []
  private var subscriptions: [SignalSubscription] = []

  init(desktop: GnomeShellDesktop, output: AsyncStream<DesktopEvent>.Continuation, idleAfter: Duration) {
    self.desktop = desktop
    self.output = output
    self.idleAfter = idleAfter
  }

  /// Sets up the trackers and subscriptions, reports the current state, then every change until stopped or lost.
  func run(_ inputs: AsyncStream<GnomeShellDesktop.Input>) async {
    do throws(DBusError) {
      try await subscribe()
    } catch {
      output.yield(.lost("cannot watch GNOME Shell on the session bus: \(error.message)"))
      return
    }
    await shellOwner(owners.shell)
    await screenOwner(owners.screenSaver)
    await idleOwner(owners.idleMonitor)
    for await input in inputs {
      switch input {
      case .stop:
        end()
        return
      case .disconnected(let why):
        output.yield(.lost("the session bus connection closed: \(why)"))
        end()
        return
      case .restartTimedOut(let departure):
        guard departure == departures, owners.shell == nil else { continue }
        let seconds = desktop.restartTimeout.components.seconds
        output.yield(.lost("GNOME Shell left the session bus and did not come back within \(seconds) s"))
        end()
        return
      case .askAgain(let departure):
        guard departure == departures, let owner = owners.shell,
          desktop.shared.withLock({ $0.extensionState }) == .shellStarting
        else { continue }
        await watchExtension(at: owner)
      case .watchAgain(let departure):
        guard departure == departures, let owner = owners.shell,
          case .refused = desktop.shared.withLock({ $0.extensionState })
        else { continue }
        await watchExtension(at: owner)
      case .owner(let name, let owner):
        switch name {
        case .shell:
          owners.shell = owner
          await shellOwner(owner)
        case .idleMonitor:
          owners.idleMonitor = owner
          await idleOwner(owner)
        case .screenSaver:
          owners.screenSaver = owner
          await screenOwner(owner)
        }
      case .signal(let message, let owners):
        await signal(message, owners: owners)
      case .notice(let text):
        say(text)
      }
    }
    end()
  }

  private func end() {
    for subscription in subscriptions { subscription.cancel() }
    subscriptions = []
    trackers = []
  }

  // MARK: Setting up

  /// Tracks the three names and subscribes to their signals; a signal is
  /// passed on with the owners at the moment it was dispatched.
  private func subscribe() async throws(DBusError) {
    let connection = desktop.connection
    let desktop = self.desktop
    let shell = try await NameOwnerTracker.track(ShellNames.shell, on: connection)
    let idle = try await NameOwnerTracker.track(MutterIdleMonitorInterface.busName, on: connection)
    let screen = try await NameOwnerTracker.track(GnomeScreenSaverInterface.busName, on: connection)
    trackers = [shell, idle, screen]
    let pairs: [(GnomeShellDesktop.TrackedName, NameOwnerTracker)] = [
      (.shell, shell), (.idleMonitor, idle), (.screenSaver, screen),
    ]
    for (name, tracker) in pairs {
      tracker.addObserver { [weak desktop] owner in desktop?.deliver(.owner(name, owner)) }
    }
    owners = GnomeShellDesktop.Owners(shell: shell.owner, idleMonitor: idle.owner, screenSaver: screen.owner)
    // Each signal on the path its owner sends it from. Without a sender in the rules: a signal from
    // anyone at that path arrives, so that one from a wrong sender is seen and said. The path keeps
    // out what others rightly send under the same interface: GNOME Shell's helper
    // `org.gnome.Shell.Extensions`, which `gnome-extensions` starts, re-emits the shell's
    // `ExtensionStateChanged` from its own name at /org/gnome/Shell/Extensions.
    let rules: [(MatchRule, from: NameOwnerTracker)] = [
      (ShellExtensionInterface.focusChanged.rule(path: ShellNames.extensionPath), shell),
      (GnomeShellExtensionsInterface.extensionStateChanged.rule(path: GnomeShellExtensionsInterface.path), shell),
      (MutterIdleMonitorInterface.watchFired.rule(path: MutterIdleMonitorInterface.path), idle),
      (GnomeScreenSaverInterface.activeChanged.rule(path: GnomeScreenSaverInterface.path), screen),
    ]
    for (rule, required) in rules {
      let subscription = try await connection.addSignalHandler(matching: rule) { [weak desktop] message in
        guard let desktop else { return }
        // Judged here, as the connection dispatches: a flood from another connection is dropped at once
        // instead of queueing without bound behind a slow call to the shell (only its notice goes on).
        guard let sender = message.sender, sender == required.owner else {
          let text = desktop.shared.withLock {
            $0.refused.notice(
              ignoring: message.member?.rawValue ?? "a signal", from: message.sender, owner: required.name.rawValue)
          }
          if let text { desktop.deliver(.notice(text)) }
          return
        }
        let owners = GnomeShellDesktop.Owners(
          shell: shell.owner, idleMonitor: idle.owner, screenSaver: screen.owner)
        desktop.deliver(.signal(message, owners: owners))
      }
      subscriptions.append(subscription)
    }
    // Weakly: the connection outlives nothing but its backend, whose deinit closes it.
    connection.onDisconnect { [weak desktop] error in desktop?.deliver(.disconnected(error.message)) }
  }

  // MARK: The shell and its extension

  private func shellOwner(_ owner: BusName?) async {
    guard let owner else {
      if shellSeen {
        departures += 1
        let departure = departures
        set(.shellRestarting)
        let desktop = self.desktop
        let timeout = desktop.restartTimeout
        Task { [weak desktop] in
          try? await Task.sleep(for: timeout)
          desktop?.deliver(.restartTimedOut(departure))
        }
      } else {
        set(.noShell)
      }
      return
    }
    if shellSeen, case .shellRestarting = desktop.shared.withLock({ $0.extensionState }) {
      say("GNOME Shell is back on the session bus (\(owner)): asking its extension again")
    }
    shellSeen = true
    startupTries = 0
    await watchExtension(at: owner)
  }

  /// Calls the extension's `Watch`; when it does not answer, asks the shell why.
  private func watchExtension(at owner: BusName) async {
    let connection = desktop.connection
    do {
      let (version, focus) = try await connection.call(
        ShellExtensionInterface.watch, destination: owner, path: ShellNames.extensionPath, timeout: .seconds(5))
      guard version == ShellNames.contractVersion else {
        set(.otherVersion(version))
        return
      }
      guard owners.shell == owner else { return }
      desktop.shared.withLock { $0.watched = owner }
      set(.watching)
      report(ShellWindow(focus))
    } catch  where error.is(.unknownMethod) || error.is(.unknownObject) || error.is(.unknownInterface) {
      if let state = await extensionInfo(at: owner) { return set(state) }
      // The shell owns its name before it exports its objects. It tells nothing when it has: the
      // one place that asks again on a timer, four times a second, for at most 30 s of a start.
      guard startupTries < 120 else {
        return set(.notAnswering("GNOME Shell's extension manager is not there"))
      }
      startupTries += 1
      set(.shellStarting)
      let (desktop, departure) = (self.desktop, departures)
      Task { [weak desktop] in
        try? await Task.sleep(for: .milliseconds(250))
        desktop?.deliver(.askAgain(departure))
      }
    } catch  where error.is(.accessDenied) || error.is(.limitsExceeded) {
      // The extension serves only the service's process, and that only once it owns its name
      // (which it asks for after opening the desktop): asked again until it answers.
      set(.refused(error.message))
      let (desktop, departure) = (self.desktop, departures)
      Task { [weak desktop] in
        try? await Task.sleep(for: GnomeShellDesktop.refusedRetry)
        desktop?.deliver(.watchAgain(departure))
      }
    } catch {
      set(.notAnswering(error.message))
    }
  }

  /// What GNOME Shell's extension manager says of ours; `nil` while the starting shell has not exported it.
  private func extensionInfo(at owner: BusName) async -> ExtensionState? {
    do {
      let info = try await desktop.connection.call(
        GnomeShellExtensionsInterface.getExtensionInfo, destination: owner, path: GnomeShellExtensionsInterface.path,
        ShellNames.uuid, timeout: .seconds(5))
      return Self.state(from: info)
    } catch  where error.is(.unknownMethod) || error.is(.unknownObject) || error.is(.unknownInterface) {
      return nil
    } catch {
      return .notAnswering("GNOME Shell's extension manager did not answer: \(error.message)")
    }
  }

  private static func state(from info: [String: Variant]) -> ExtensionState {
    guard !info.isEmpty else { return .notInstalled }
    var state: Double?
    if case .double(let value)? = info["state"]?.value { state = value }
    var error: String?
    if case .string(let text)? = info["error"]?.value { error = text }
    return ExtensionState(info: state, error: error)
  }

  /// Records the extension's state; a change is said, and anything but watching means no focus is seen.
  private func set(_ state: ExtensionState) {
    desktop.shared.withLock { shared in
      shared.extensionState = state
      if state != .watching { shared.watched = nil }
    }
    if state != saidState {
      let previous = saidState
      saidState = state
      if let text = state.attention {
        say(text)
      } else if previous != nil {
        say("the GNOME Shell extension \(ShellNames.uuid) answers: the focus is watched")
      }
    }
    // After the notice, so that a reader that stops at the first focus has read why there is none.
    if state != .watching { report(nil) }
  }

  // MARK: Signals

  private func signal(_ message: Message, owners: GnomeShellDesktop.Owners) async {
    guard let interface = message.interface, let member = message.member else { return }
    let sender = message.sender
    switch (interface, member) {
    case (ShellExtensionInterface.name, ShellExtensionInterface.focusChanged.name):
      let watched = desktop.shared.withLock { $0.watched }
      guard let sender, sender == owners.shell, sender == watched else {
        return refuse(member, from: sender, owner: ShellNames.shell)
      }
      guard let focus = try? ShellExtensionInterface.focusChanged.decode(message) else {
        return refuse(member, from: sender, owner: nil)
      }
      report(ShellWindow(focus))
    case (GnomeShellExtensionsInterface.name, GnomeShellExtensionsInterface.extensionStateChanged.name):
      guard let sender, sender == owners.shell else { return refuse(member, from: sender, owner: ShellNames.shell) }
      guard let (uuid, info) = try? GnomeShellExtensionsInterface.extensionStateChanged.decode(message) else {
        return refuse(member, from: sender, owner: nil)
      }
      guard uuid == ShellNames.uuid else { return }
      switch Self.state(from: info) {
      case .notAnswering:
        // Enabled (or enabling): its object is there now.
        await watchExtension(at: sender)
      case let state:
        set(state)
      }
    case (MutterIdleMonitorInterface.name, MutterIdleMonitorInterface.watchFired.name):
      guard let sender, sender == owners.idleMonitor else {
        return refuse(member, from: sender, owner: MutterIdleMonitorInterface.busName)
      }
      guard let id = try? MutterIdleMonitorInterface.watchFired.decode(message) else {
        return refuse(member, from: sender, owner: nil)
      }
      await watchFired(id, at: sender)
    case (GnomeScreenSaverInterface.name, GnomeScreenSaverInterface.activeChanged.name):
      guard let sender, sender == owners.screenSaver else {
        return refuse(member, from: sender, owner: GnomeScreenSaverInterface.busName)
      }
      guard let active = try? GnomeScreenSaverInterface.activeChanged.decode(message) else {
        return refuse(member, from: sender, owner: nil)
      }
      report(screen: active ? .locked : .on)
    default:
      return
    }
  }

  /// Says once per sender that a signal was ignored: from a sender that does not own `owner`, or malformed.
  private func refuse(_ member: MemberName, from sender: BusName?, owner: BusName?) {
    let text = desktop.shared.withLock {
      $0.refused.notice(ignoring: member.rawValue, from: sender, owner: owner?.rawValue)
    }
    if let text { say(text) }
  }

  // MARK: Idle and screen

  private var idleMilliseconds: UInt64 {
    let (seconds, attoseconds) = idleAfter.components
    return UInt64(clamping: max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
  }

  /// A new owner of Mutter's idle monitor (or none): its watches are made again, since they belong to the old one.
  private func idleOwner(_ owner: BusName?) async {
    idleWatch = nil
    activeWatch = nil
    guard let owner else { return }
    let connection = desktop.connection
    do {
      idleWatch = try await connection.call(
        MutterIdleMonitorInterface.addIdleWatch, destination: owner, path: MutterIdleMonitorInterface.path,
        idleMilliseconds, timeout: .seconds(5))
      let idletime = try await connection.call(
        MutterIdleMonitorInterface.getIdletime, destination: owner, path: MutterIdleMonitorInterface.path,
        timeout: .seconds(5))
      if idletime >= idleMilliseconds {
        report(idle: true)
        try await addActiveWatch(at: owner)
      } else {
        report(idle: false)
      }
    } catch {
      say("input idle is not seen: Mutter's idle monitor did not answer (\(error.message))")
    }
  }

  private func addActiveWatch(at owner: BusName) async throws(DBusError) {
    activeWatch = try await desktop.connection.call(
      MutterIdleMonitorInterface.addUserActiveWatch, destination: owner, path: MutterIdleMonitorInterface.path,
      timeout: .seconds(5))
  }

  private func watchFired(_ id: UInt32, at owner: BusName) async {
    if id == idleWatch {
      report(idle: true)
      guard activeWatch == nil else { return }
      do { try await addActiveWatch(at: owner) } catch {
        say("input after idle is not seen: Mutter's idle monitor did not answer (\(error.message))")
      }
    } else if id == activeWatch {
      activeWatch = nil
      report(idle: false)
    }
  }

  /// A new owner of the screen shield's interface: its state now. Without one the screen counts as on.
  private func screenOwner(_ owner: BusName?) async {
    guard let owner else { return report(screen: .on) }
    do {
      let active = try await desktop.connection.call(
        GnomeScreenSaverInterface.getActive, destination: owner, path: GnomeScreenSaverInterface.path,
        timeout: .seconds(5))
      report(screen: active ? .locked : .on)
    } catch {
      report(screen: .on)
    }
  }

  // MARK: Reporting

  private func report(_ window: ShellWindow?) {
    if let lastFocus, lastFocus?.id == window?.id, lastFocus?.app == window?.app { return }
    lastFocus = .some(window)
    output.yield(.focus(window?.focused))
  }

  private func report(idle: Bool) {
    guard idle != lastIdle else { return }
    lastIdle = idle
    output.yield(.idle(idle))
  }

  private func report(screen: ScreenState) {
    guard screen != lastScreen else { return }
    lastScreen = screen
    output.yield(.screen(screen))
  }

  private func say(_ text: String) {
    output.yield(.notice(text))
  }
}
