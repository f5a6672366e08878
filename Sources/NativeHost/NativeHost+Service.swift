import DBus
import JSON
import Model
import ShieldBridge

/// The host's side of the service: the bus, the service's signals, `SiteFocus`.
extension NativeHost {
  /// Connects to the bus and follows the service's signals; without a bus the host still answers, with errors.
  func connect() async {
    let connection: Connection
    do {
      connection = try Connection(options.bus)
    } catch {
      options.logger.error("no message bus to reach the ShieldBridge service on: \(error.message)")
      return
    }
    self.connection = connection
    do {
      let tracker = try await NameOwnerTracker.track(ServiceNames.busName, on: connection)
      self.tracker = tracker
      let sink = eventSink
      tracker.addObserver { owner in
        // A new service knows nothing of this host's site: tell it again.
        if let owner { sink.yield(.serviceStarted(owner)) } else { sink.yield(.serviceStopped) }
      }
      let rules = [
        ServiceInterface.limitReached.rule(sender: ServiceNames.busName, path: ServiceNames.path),
        ServiceInterface.unlocked.rule(sender: ServiceNames.busName, path: ServiceNames.path),
      ]
      for rule in rules {
        subscriptions.append(
          try await connection.addSignalHandler(matching: rule, from: tracker) { message in
            if ServiceInterface.unlocked.matches(message),
              let (name, _) = try? ServiceInterface.unlocked.decode(message)
            {
              sink.yield(.unlocked(rule: name))
            }
            sink.yield(.serviceChanged)
          })
      }
    } catch {
      options.logger.warning(
        "cannot follow the ShieldBridge service's signals: \(error.message); states are sent only when asked")
    }
  }

  func stopFollowing() {
    for subscription in subscriptions { subscription.cancel() }
    subscriptions = []
    connection?.close()
  }

  /// Asks the service where the site of `front` stands, telling it what the browser shows.
  ///
  /// - Returns: The `"state"` message, or an `"error"` message saying why there is none.
  func askService(_ front: BrowserFront) async -> JSONValue {
    guard let connection else {
      return noService("no message bus: the ShieldBridge service cannot be reached")
    }
    lastCall = .now
    let reply: Message
    do {
      let call = try ServiceInterface.siteFocus.message(
        destination: ServiceNames.busName, path: ServiceNames.path, front.site?.name ?? "",
        UInt32(clamping: options.browserPID), front.windowFocused)
      reply = try await connection.call(call, timeout: options.callTimeout)
    } catch {
      options.logger.warning("SiteFocus failed: \(error.name): \(error.message)")
      // No owner, and none the bus could start: nothing counts until one runs.
      if error.is(.serviceUnknown) || error.is(.nameHasNoOwner)
        || error.isSpawnFailure
      {
        lastState = nil
        return noService("the ShieldBridge service is not running: \(error.message)")
      }
      return Self.error("the ShieldBridge service did not answer: \(error.message)")
    }
    told = front
    answeredBy = reply.sender
    guard let text = try? ServiceInterface.siteFocus.reply(from: reply), let state = try? JSONValue(parsing: text),
      case .object(let members) = state
    else {
      lastState = nil
      return Self.error("the ShieldBridge service answered SiteFocus with something other than a state")
    }
    let message = JSONValue.object([("type", .string("state"))] + members)
    lastState = message
    return message
  }

  /// The service lifted `rule` (a grant from the terminal, a notification or
  /// this host): the task a shield page of that rule shows is done, so it
  /// can grant nothing more, and the browser is told, to say so on its
  /// shield pages of the rule and send them back to their sites.
  ///
  /// `{"type":"unlocked","rule":"social"}`.
  func unlocked(rule: String) {
    if puzzle?.match.rule.name == rule { puzzle = nil }
    send(.object([("type", .string("unlocked")), ("rule", .string(rule))]))
  }

  /// `{"type":"noService","text":…,"message":…}`: no service runs, so nothing is counted
  /// and no limit holds; `text` says so in the browser's language, `message` why (for the log).
  func noService(_ detail: String) -> JSONValue {
    .object([
      ("type", .string("noService")), ("text", .string(localizer.render(.serviceMissing))),
      ("message", .string(detail)),
    ])
  }

  /// The service's name lost its owner (stopped, killed, crashed): the browser is told at once
  /// that nothing counts. What it was told stays known, so that a service that comes back
  /// (the unit restarts it) is told the site again at once.
  func serviceStopped() {
    guard told != nil else { return }
    lastState = nil
    answeredBy = nil
    send(noService("the ShieldBridge service stopped"))
  }

  func serviceChanged() async {
    // Nothing told yet: the next focus message asks anyway.
    guard let told else { return }
    if wanted == nil { wanted = told }
    await flushFocus(now: true)
  }
}
