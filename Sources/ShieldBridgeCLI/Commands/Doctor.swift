import JSON
import Notifications
import Posix
import ShieldBridge

extension Command {
  /// `shieldbridge doctor [--json]`: what ShieldBridge finds on this desktop.
  static let doctor = Command(
    name: "doctor",
    abstract:
      "Show the bus, the notification server, its capabilities and the presentation used with it.",
    options: DoctorOptions.self,
    discussion: """
      Then the parts around the service, as 'shieldbridge setup' finds them:
      whether the service owns its name on the bus, where the browsers' host
      manifest is installed, and how many browsers run the host for the
      extension (with --json: "installation": {"service": true,
      "hostManifests": […], "runningHosts": 1}).

      Exits 0 when a notification server answered, 69 when there is no bus or no server.
      """,
    body: { invocation in
      let diagnosis = await NotificationDiagnosis.run(bus: bus(invocation))
      let installation = await InstallationCheck.run(
        bus: bus(invocation), environment: Environment.all, executable: currentExecutable())
      if invocation[\.json] {
        var members = diagnosis.json.objectValue ?? []
        members.append(("installation", installation.json))
        // machine output: the same JSON in every language.
        Output.out(JSONValue.object(members).serialized)
      } else {
        for message in DoctorText.messages(diagnosis) + installation.reportMessages { Output.say(message) }
      }
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
