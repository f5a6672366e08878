import DBus
import Foundation
import FoundationXML
import Testing

@Suite("Exported objects introspect correctly and answer Peer")
struct ExportTests {
  @Test func introspectionDescribesMethodsSignalsAndChildren() async throws {
    let bus = try BusDaemon()
    let server = try Connection(.address(bus.address))
    let client = try Connection(.address(bus.address))
    let interface = try Interface(
      "org.example.Shapes",
      methods: [
        try Method("Area", inputs: "dd", outputs: "d", inputNames: ["width", "height"], outputNames: ["area"]) {
          call in
          let (width, height) = try call.decode(Double.self, Double.self)
          return [.double(width * height)]
        }
      ],
      signals: [try SignalDeclaration("Resized", signature: "dd", argumentNames: ["width", "height"])])
    try server.export([interface], at: try ObjectPath("/org/example/shapes/square"))

    func introspect(_ path: String) async throws -> String {
      try await client.call(
        IntrospectableInterface.introspect, destination: server.uniqueName, path: try ObjectPath(path))
    }

    let xml = try await introspect("/org/example/shapes/square")
    let document = try XMLDocument(xmlString: xml)
    let interfaces = try document.nodes(forXPath: "/node/interface/@name").compactMap(\.stringValue)
    #expect(interfaces == ["org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Peer", "org.example.Shapes"])
    let arguments = try document.nodes(
      forXPath: "/node/interface[@name='org.example.Shapes']/method[@name='Area']/arg")
    #expect(arguments.count == 3)
    let directions = try document.nodes(
      forXPath: "/node/interface[@name='org.example.Shapes']/method[@name='Area']/arg/@direction")
    #expect(directions.compactMap(\.stringValue) == ["in", "in", "out"])
    let signalArguments = try document.nodes(
      forXPath: "/node/interface[@name='org.example.Shapes']/signal[@name='Resized']/arg/@name")
    #expect(signalArguments.compactMap(\.stringValue) == ["width", "height"])

    let parent = try XMLDocument(xmlString: try await introspect("/org/example"))
    #expect(try parent.nodes(forXPath: "/node/node/@name").compactMap(\.stringValue) == ["shapes"])
    let root = try XMLDocument(xmlString: try await introspect("/"))
    #expect(try root.nodes(forXPath: "/node/node/@name").compactMap(\.stringValue) == ["org"])

    let missing = await #expect(throws: DBusError.self) { try await introspect("/not/here") }
    #expect(missing?.is(.unknownObject) == true)

    let area = try await client.call(
      server.uniqueName, try ObjectPath("/org/example/shapes/square"),
      try InterfaceName("org.example.Shapes"), try MemberName("Area"), 3.0, 4.0)
    #expect(try area.decode(Double.self) == 12)
  }

  @Test func peerPingAndMachineIdAreAnswered() async throws {
    let bus = try BusDaemon()
    let server = try Connection(.address(bus.address))
    let client = try Connection(.address(bus.address))
    try await client.call(PeerInterface.ping, destination: server.uniqueName, path: .root)
    let id = try await client.call(PeerInterface.getMachineId, destination: server.uniqueName, path: .root)
    #expect(id.count == 32)
    #expect(id.allSatisfy { $0.isHexDigit })
  }

  @Test func callsFollowTheExportsAsTheyChange() async throws {
    let bus = try BusDaemon()
    let server = try Connection(.address(bus.address))
    let client = try Connection(.address(bus.address))
    let path = try ObjectPath("/org/example/changing")
    let name = try InterfaceName("org.example.Changing")
    func interface(_ answer: String) throws -> Interface {
      try Interface(name.rawValue, methods: [try Method("Which", inputs: "s", outputs: "s") { _ in [.string(answer)] }])
    }
    func which(_ argument: DBusValue = .string("x"), interface: InterfaceName? = nil) async throws -> String {
      let message = try Message.methodCall(
        destination: server.uniqueName, path: path, interface: interface ?? name,
        member: try MemberName("Which"))
      try message.append(values: [argument])
      return try await client.call(message).decode(String.self)
    }
    try server.export([try interface("first")], at: path)
    #expect(try await which() == "first")
    #expect(try await which() == "first")
    // The same method with other arguments is refused, however often it was called before.
    let wrong = await #expect(throws: DBusError.self) { _ = try await which(.int32(1)) }
    #expect(wrong?.is(.invalidArgs) == true)
    server.unexport(path)
    let gone = await #expect(throws: DBusError.self) { _ = try await which() }
    #expect(gone?.is(.unknownObject) == true)
    try server.export([try interface("second")], at: path)
    #expect(try await which() == "second")
    let otherInterface = await #expect(throws: DBusError.self) {
      _ = try await which(interface: try InterfaceName("org.example.Other"))
    }
    #expect(otherInterface?.is(.unknownInterface) == true)
  }

  @Test func exportingAnInterfaceTwiceAtOnePathIsRefused() throws {
    let bus = try BusDaemon()
    let server = try Connection(.address(bus.address))
    let interface = try Interface("org.example.Once", methods: [try Method("Do") { _ in [] }])
    try server.export([interface], at: try ObjectPath("/once"))
    #expect(throws: DBusError.self) { try server.export([interface], at: try ObjectPath("/once")) }
    #expect(throws: DBusError.self) {
      try server.export([try Interface("org.freedesktop.DBus.Peer", methods: [])], at: try ObjectPath("/peer"))
    }
  }

  @Test func wellKnownNamesAreRequestedQueuedAndReleased() async throws {
    let bus = try BusDaemon()
    let first = try Connection(.address(bus.address))
    let second = try Connection(.address(bus.address))
    let name = try BusName("org.example.Queue")
    #expect(try await first.requestName(name) == .primaryOwner)
    #expect(try await first.requestName(name) == .alreadyOwner)
    #expect(try await second.requestName(name, flags: [.doNotQueue]) == .exists)
    #expect(try await second.requestName(name, flags: []) == .inQueue)
    #expect(try await first.nameOwner(name) == first.uniqueName)
    #expect(try await first.releaseName(name) == .released)
    #expect(try await first.nameOwner(name) == second.uniqueName)
    #expect(try await first.releaseName(name) == .notOwner)
    #expect(try await first.releaseName(try BusName("org.example.Never")) == .nonExistent)
    #expect(try await first.nameOwner(try BusName("org.example.Never")) == nil)
    await #expect(throws: DBusError.self) { try await first.requestName(try BusName(":1.99")) }
  }
}

@Suite("Memory stays flat over many calls")
struct MemoryTests {
  /// The resident set size of this process, in kilobytes.
  static func residentKilobytes() throws -> Int {
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
    return Int(line?.filter(\.isNumber) ?? "") ?? 0
  }

  @Test func tenThousandCallsDoNotGrowMemory() async throws {
    let pair = try EchoPair(signatures: ["sa{sv}"])
    let values: [DBusValue] = [
      .string("payload"), .dictionary(key: .string, value: .variant, [.init(.string("k"), .variant(.int32(1)))]),
    ]
    for _ in 0..<2_000 { _ = try await pair.echo(0, values) }
    let before = try Self.residentKilobytes()
    for _ in 0..<10_000 { _ = try await pair.echo(0, values) }
    let after = try Self.residentKilobytes()
    #expect(after - before < 2_048, "resident memory grew from \(before) kB to \(after) kB over 10,000 calls")
  }
}
