public import DBus
public import JSON

/// What `shieldbridge doctor` reports: the bus, the notification server, and
/// the presentation ShieldBridge will use with it. The command line words it
/// from the catalogs (`DoctorText`); ``json`` is the machine format.
public struct NotificationDiagnosis: Sendable {
  /// The bus address, or `nil` when there is no bus.
  public var busAddress: String?
  /// The unique name of the server that owns `org.freedesktop.Notifications`, if one runs.
  public var serverOwner: BusName?
  /// Whether the bus can start a server on demand (a `.service` file names it).
  public var activatable: Bool
  public var information: ServerInformation?
  public var capabilities: [Capability]?
  public var presentation: Presentation?
  /// What went wrong, when something did (no bus, no server, no answer).
  public var problem: NotificationError?

  /// Whether a server answered.
  public var isHealthy: Bool { problem == nil && information != nil && capabilities != nil }

  /// Looks at `bus`: connects, finds the server (starting it the way a post would), and asks it.
  public static func run(bus: Connection.Bus = .session, timeout: Duration = .seconds(2)) async
    -> NotificationDiagnosis
  {
    var diagnosis = NotificationDiagnosis(activatable: false)
    do {
      diagnosis.busAddress = try Connection.address(of: bus)
    } catch {
      diagnosis.problem = NotificationError(
        .noBus, "no message bus: \(error.message)", underlying: error)
      return diagnosis
    }
    let client: NotificationClient
    do {
      client = try await NotificationClient.connect(to: bus, timeout: timeout)
    } catch {
      diagnosis.problem = error
      return diagnosis
    }
    defer { client.disconnect() }
    if let names = try? await client.connection.call(
      BusInterface.listActivatableNames, destination: .bus, path: .bus, timeout: timeout)
    {
      diagnosis.activatable = names.contains(NotificationsNames.busName.rawValue)
    }
    do {
      diagnosis.capabilities = try await client.capabilities()
      diagnosis.information = try await client.serverInformation()
      diagnosis.presentation = try await client.presentation()
    } catch {
      diagnosis.problem = error
    }
    diagnosis.serverOwner = client.serverOwner
    return diagnosis
  }

  /// The report as one JSON object.
  public var json: JSONValue {
    var members: [(String, JSONValue)] = [
      ("bus", .string(busAddress)),
      ("server", information.map { _ in .bool(true) } ?? .bool(false)),
      ("owner", .string(serverOwner?.rawValue)),
      ("activatable", .bool(activatable)),
    ]
    if let information {
      members.append(
        (
          "information",
          .object([
            ("name", .string(information.name)), ("vendor", .string(information.vendor)),
            ("version", .string(information.version)),
            ("spec_version", .string(information.specVersion)),
          ])
        ))
    } else {
      members.append(("information", .null))
    }
    members.append(("capabilities", capabilities.map { .array($0.map { .string($0.rawValue) }) } ?? .null))
    if let presentation {
      members.append(
        (
          "presentation",
          .object([
            ("style", .string(presentation.style.rawValue)),
            ("body_markup", .bool(presentation.bodyMarkup)),
            ("inline_reply", .bool(presentation.inlineReply)),
            ("stack_tag_hints", .array(presentation.stackTagHints.map { .string($0.rawValue) })),
          ])
        ))
    } else {
      members.append(("presentation", .null))
    }
    members.append(
      (
        "problem",
        problem.map {
          .object([("code", .string($0.code.rawValue)), ("message", .string($0.message))])
        } ?? .null
      ))
    return .object(members)
  }
}
