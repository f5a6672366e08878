import Brake
import DBus
import Desktop

extension ShieldService {
  /// Starts the meter on ``Options/desktop``, unless there is none or nothing to meter.
  ///
  /// With the built-in rule alone nothing is metered: it covers every app for
  /// a shield asked by name, but names none the desktop could report. The
  /// backend is then stopped at once.
  func startMeter() async {
    guard let desktop = options.desktop else {
      options.log("meter: off (no desktop is watched)")
      return
    }
    guard !options.configuration.rules.isBuiltIn else {
      desktop.stop()
      options.log("meter: off (config.json has no rules, so no app is metered)")
      return
    }
    let fallback = options.fallbackDesktop
    let loop = MeterLoop(
      rules: options.configuration.rules, ledger: options.ledger, settings: options.meter, hooks: meterHooks(),
      log: options.log, fallback: { lost in await fallback?(lost) })
    meterLoop = loop
    await loop.start(desktop)
    // The name is owned before the meter starts: a host may have reported its site already.
    await giveSitesToMeter()
  }

  /// Today's use per rule and the source that counts it: what `Usage()` answers.
  ///
  /// Without a meter (no desktop watched) the source is `off` and each
  /// configured rule shows what the ledger holds, counting nothing; with only
  /// the built-in rule the rules are empty.
  public func usage() async -> UsageReport {
    if let meterLoop { return await meterLoop.report() }
    let day = options.ledger.today
    let rules = options.configuration.rules
    guard !rules.isBuiltIn else { return UsageReport(date: day, source: .off, rules: []) }
    let stored: Ledger
    do {
      stored = try options.ledger.load().value
    } catch {
      options.log("Usage(): the ledger cannot be read: \(error)")
      stored = Ledger()
    }
    let usages = rules.rules.map { rule in
      let grants = stored.grants(for: rule.name, on: day)
      return RuleUsage(
        rule: rule.name, used: .seconds(max(0, stored.usedSeconds(for: rule.name, on: day))),
        limit: options.meter.minuteLength * rule.limitMinutes(grants: grants), grantsToday: grants, counting: false)
    }
    return UsageReport(date: day, source: .off, rules: usages)
  }

  private func meterHooks() -> MeterHooks {
    MeterHooks(
      shield: { [weak self] app in
        guard let self else { return }
        do {
          _ = try await self.shieldFromMeter(app: app)
        } catch {
          self.options.log("meter: the shield for \(app) could not be shown: \(error)")
        }
      },
      warn: { [weak self] app, minutes in
        await self?.warn(app: app, minutes: minutes)
      },
      limitReached: { [weak self] rule, app in
        self?.emit(ServiceNames.limitReached, rule, app)
      },
      unlocked: { [weak self] rule, minutes in
        guard let self else { return }
        // The hook cannot wait; the next limit is minutes away at the least.
        Task { await self.lifted(rule: rule) }
        self.emit(ServiceNames.unlocked, rule, UInt32(clamping: minutes))
      })
  }

  /// The one plain warning before the limit.
  private func warn(app: String, minutes: Int) async {
    do {
      _ = try await post(texts.warning(app: app, minutes: minutes, identifier: links.identifier))
    } catch {
      options.log("meter: the warning for \(app) could not be shown: \(error)")
    }
  }

  private nonisolated func emit<each A: DBusArgument>(_ member: MemberName, _ arguments: repeat each A) {
    do {
      try connection.emit(
        path: ServiceNames.path, interface: ServiceNames.interface, member: member, repeat each arguments)
    } catch {
      options.log("cannot emit \(member.rawValue): \(error.message)")
    }
  }
}
