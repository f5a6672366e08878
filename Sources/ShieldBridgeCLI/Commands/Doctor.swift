import Notifications

extension Command {
  /// `shieldbridge doctor [--json]`: what ShieldBridge finds on this desktop.
  static let doctor = Command(
    name: "doctor",
    abstract:
      "Show the bus, the notification server, its capabilities and the presentation used with it.",
    options: DoctorOptions.self,
    discussion:
      "Exits 0 when a notification server answered, 69 when there is no bus or no server.",
    body: { invocation in
      let diagnosis = await NotificationDiagnosis.run(bus: bus(invocation))
      Output.out(invocation[\.json] ? diagnosis.json.serialized : diagnosis.text)
      return diagnosis.isHealthy ? .success : .unavailable
    }
  )
}

/// The options of `shieldbridge doctor`.
private struct DoctorOptions: BusOptions {
  let json: Flag
  let address: Option<String>

  init(declaring options: inout OptionDeclarations) {
    json = options.flag("--json", "Print the report as one JSON object.")
    address = options.address()
  }
}
