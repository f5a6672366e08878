import DBus
import JSON
import Localization
import ShieldBridge

/// How `status --follow` writes each change (docs/using/panels.md).
enum FollowFormat: String, CaseIterable, Sendable {
  /// The text alone, one line per change.
  case text
  /// waybar's custom module with `"return-type": "json"`: `text`, `tooltip`, `class`, `alt`.
  case waybar
  /// i3bar's protocol: a header, then one array of blocks per change.
  case i3bar
}

/// `status --follow`: what the service's `Glance()` says now, then one line
/// each time its `GlanceChanged` says it changed, for as long as the bus
/// lives; an empty text while no service runs or nothing covered is in
/// front. Nothing is polled: the lines come from the service's signal and from
/// the bus's word that the service came or went.
func followGlance(bus: Connection.Bus, format: FollowFormat) async throws(CommandFailure) -> ExitCode {
  let connection: Connection
  let tracker: NameOwnerTracker
  let changes: SignalStream
  do {
    connection = try Connection(bus)
    tracker = try await NameOwnerTracker.track(ServiceNames.busName, on: connection)
    // Only from the service's own connection: another process cannot put text in the panel.
    changes = try await connection.signals(
      matching: MatchRule(interface: ServiceInterface.name, member: ServiceInterface.glanceChanged.name),
      from: tracker)
  } catch {
    throw CommandFailure(CommandMessage(.noBusForService, ["error": error.message]), exitCode: .unavailable)
  }
  defer { connection.close() }
  let (events, feed) = AsyncStream.makeStream(of: JSONValue?.self)
  let signals = Task {
    for await message in changes {
      // A signal that does not read is no glance: the service is asked again.
      let text = try? ServiceInterface.glanceChanged.decode(message)
      feed.yield(text.flatMap { try? JSONValue(parsing: $0) })
    }
    feed.finish()
  }
  let owners = Task {
    // `nil`: ask the service again (it came, or went and the panel shows nothing).
    for await _ in tracker.ownerChanges() { feed.yield(nil) }
  }
  defer {
    signals.cancel()
    owners.cancel()
  }
  if format == .i3bar {
    // machine output: i3bar's protocol header, then the start of its endless array.
    Output.out(#"{"version":1}\#n["#)
  }
  var last: String?
  var first = true
  func show(_ glance: JSONValue) {
    let line = glanceLine(glance, format: format, first: first)
    guard line != last else { return }
    last = line
    first = false
    // machine output: the panel's line (waybar's and i3bar's JSON carry text from the catalogs).
    Output.out(line)
    Output.flush()
  }
  show(await currentGlance(connection, owner: tracker.owner))
  for await event in events {
    if let event { show(event) } else { show(await currentGlance(connection, owner: tracker.owner)) }
  }
  return .success
}

/// `Glance()` of the service that owns the name now; `{}` when none does or it does not answer.
private func currentGlance(_ connection: Connection, owner: BusName?) async -> JSONValue {
  guard let owner else { return .object([]) }
  let text = try? await connection.call(
    ServiceInterface.glance, destination: owner, path: ServiceNames.path, timeout: .seconds(5), autoStart: false)
  return text.flatMap { try? JSONValue(parsing: $0) } ?? .object([])
}

/// The panel's text for `glance`, from the catalogs: "Instagram: 3 min left today".
func glanceText(_ glance: JSONValue) -> String {
  guard let app = glance["app"]?.stringValue else { return "" }
  switch glance["state"]?.stringValue {
  case "left":
    let minutes = Int(glance["minutesLeft"]?.integerValue ?? 0)
    return Output.text(CommandMessage(.glanceLeft, ["app": app], count: minutes, as: "minutes"))
  case "usedUp":
    return Output.text(CommandMessage(.glanceUsedUp, ["app": app]))
  case "downtime":
    return Output.text(CommandMessage(.glanceDowntime, ["app": app, "until": glance["until"]?.stringValue ?? ""]))
  default:
    return ""
  }
}

/// One line of `format` for `glance`; `first` for i3bar, whose later arrays start with a comma.
func glanceLine(_ glance: JSONValue, format: FollowFormat, first: Bool) -> String {
  let text = glanceText(glance)
  let state = glance["state"]?.stringValue ?? "none"
  switch format {
  case .text:
    return text
  case .waybar:
    let rule = glance["rule"]?.stringValue
    let members: [(String, JSONValue)] = [
      ("text", .string(text)), ("tooltip", .string(rule.map { "\($0): \(text)" } ?? "")),
      ("class", .string(state)), ("alt", .string(state)),
    ]
    return JSONValue.object(members).serialized
  case .i3bar:
    let block = JSONValue.object([("name", .string("shieldbridge")), ("full_text", .string(text))])
    return (first ? "" : ",") + JSONValue.array(text.isEmpty ? [] : [block]).serialized
  }
}
