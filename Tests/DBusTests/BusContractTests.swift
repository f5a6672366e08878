import DBus
import Foundation
import TestSupport
import Testing

/// The bus daemon's own interface, as ``BusInterface`` declares it, held to a real `dbus-daemon`.
@Suite("The bus daemon's contract: what dbus-daemon introspects, answers and reports")
struct BusContractTests {
  @Test func theDaemonIntrospectsEveryDeclaredMethodAndSignalWithItsSignature() async throws {
    let bus = try BusDaemon()
    let connection = try Connection(.address(bus.address))
    defer { connection.close() }
    for contract in [
      BusInterface.contract, IntrospectableInterface.contract, PeerInterface.contract, PropertiesInterface.contract,
    ] {
      let differences = try await IntrospectedContract.differences(
        contract, destination: .bus, path: .bus, on: connection)
      #expect(differences == [], "\(contract.name)")
    }
  }

  @Test func aDeclarationOutOfStepWithTheDaemonIsFound() async throws {
    let bus = try BusDaemon()
    let connection = try Connection(.address(bus.address))
    defer { connection.close() }
    let stale = InterfaceContract(
      BusInterface.name,
      methods: [
        MethodContract<(String) -> UInt32>(BusInterface.name, "GetNameOwner", inputs: ["name"], outputs: ["x"])!
          .declaration,
        MethodContract<() -> Void>(BusInterface.name, "GetEverything")!.declaration,
      ],
      signals: [SignalContract<String>(BusInterface.name, "NameOwnerChanged", arguments: ["name"])!.declaration])
    let differences = try await IntrospectedContract.differences(stale, destination: .bus, path: .bus, on: connection)
    #expect(
      differences == [
        "org.freedesktop.DBus: method GetNameOwner is declared (s) → (u), introspected (s) → (s)",
        "org.freedesktop.DBus: method GetEverything is missing",
        "org.freedesktop.DBus: signal NameOwnerChanged is declared (s) → (), introspected (sss) → ()",
      ])
    let other = InterfaceContract(try InterfaceName("org.example.Absent"), methods: [])
    #expect(
      try await IntrospectedContract.differences(other, destination: .bus, path: .bus, on: connection)
        == ["no interface org.example.Absent"])
  }

  @Test func eachDeclaredMethodIsAnsweredWithTheDeclaredTypes() async throws {
    let bus = try BusDaemon()
    let connection = try Connection(.address(bus.address))
    let other = try Connection(.address(bus.address))
    defer {
      connection.close()
      other.close()
    }
    let name = "org.example.Contract"
    #expect(try await connection.call(BusInterface.requestName, destination: .bus, path: .bus, name, 4) == 1)
    #expect(
      try await other.call(BusInterface.getNameOwner, destination: .bus, path: .bus, name)
        == connection.uniqueName.rawValue)
    let names = try await other.call(BusInterface.listNames, destination: .bus, path: .bus)
    #expect(names.contains(name) && names.contains(connection.uniqueName.rawValue))
    #expect(
      try await other.call(BusInterface.listActivatableNames, destination: .bus, path: .bus).contains(
        "org.freedesktop.DBus"))
    let pid = try await other.call(
      BusInterface.getConnectionUnixProcessID, destination: .bus, path: .bus, connection.uniqueName.rawValue)
    #expect(pid == UInt32(ProcessInfo.processInfo.processIdentifier))
    let id = try await other.call(BusInterface.getId, destination: .bus, path: .bus)
    #expect(id.count == 32 && id.allSatisfy(\.isHexDigit))
    try await other.call(BusInterface.addMatch, destination: .bus, path: .bus, "type='signal',member='Nothing'")
    try await other.call(BusInterface.removeMatch, destination: .bus, path: .bus, "type='signal',member='Nothing'")
    try await other.call(
      BusInterface.updateActivationEnvironment, destination: .bus, path: .bus, ["SHIELDBRIDGE_CONTRACT": "1"])
    #expect(try await connection.call(BusInterface.releaseName, destination: .bus, path: .bus, name) == 1)
    let gone = await #expect(throws: DBusError.self) {
      _ = try await other.call(BusInterface.getNameOwner, destination: .bus, path: .bus, name)
    }
    #expect(gone?.is(.nameHasNoOwner) == true)
  }

  @Test func aServiceTheBusCannotStartIsASpawnFailureAndNothingElseIs() async throws {
    let services = try TemporaryDirectory()
    try "[D-BUS Service]\nName=org.example.Exits\nExec=/bin/false\n".write(
      toFile: services.file("exits.service"), atomically: true, encoding: .utf8)
    try "[D-BUS Service]\nName=org.example.Missing\nExec=/nonexistent/shieldbridge-service\n".write(
      toFile: services.file("missing.service"), atomically: true, encoding: .utf8)
    let bus = try BusDaemon(serviceDirectories: [services.path])
    let connection = try Connection(.address(bus.address))
    defer { connection.close() }
    func error(calling destination: String) async -> DBusError? {
      await #expect(throws: DBusError.self) {
        _ = try await connection.call(
          IntrospectableInterface.introspect, destination: try BusName(destination), path: .root,
          timeout: HangBound.answer)
      }
    }
    let exits = await error(calling: "org.example.Exits")
    #expect(exits?.is(.spawnChildExited) == true, "\(String(describing: exits))")
    #expect(exits?.isSpawnFailure == true)
    let missing = await error(calling: "org.example.Missing")
    #expect(missing?.isSpawnFailure == true, "\(String(describing: missing))")
    let unknown = await error(calling: "org.example.Nobody")
    #expect(unknown?.is(.serviceUnknown) == true)
    #expect(unknown?.isSpawnFailure == false)
  }

  @Test func theSpawnFamilyIsTheBusesSpawnNamesAndNoOthers() {
    let family: [DBusError.Name] = [
      .spawnExecFailed, .spawnForkFailed, .spawnChildExited, .spawnChildSignaled, .spawnFailed, .spawnSetupFailed,
      .spawnConfigInvalid, .spawnServiceInvalid, .spawnServiceNotFound, .spawnPermissionsInvalid, .spawnFileInvalid,
      .spawnNoMemory,
    ]
    #expect(family.allSatisfy { $0.isSpawnFailure })
    #expect(Set(family.map(\.rawValue)).count == 12)
    #expect(DBusError(name: "org.freedesktop.DBus.Error.Spawn.SomethingNew", message: "").isSpawnFailure)
    for other in [
      DBusError.Name.serviceUnknown, .nameHasNoOwner, .failed, .noReply, .accessDenied,
      DBusError.Name(rawValue: "org.freedesktop.DBus.Error.Spawn"),
      DBusError.Name(rawValue: "org.example.Error.Spawn.ExecFailed"),
    ] {
      #expect(!other.isSpawnFailure, "\(other.rawValue)")
      #expect(!DBusError(other, "").isSpawnFailure)
    }
  }
}
