import DBus
import Foundation
import FoundationXML
import TestSupport
import Testing

/// A small interface declared once, as the project declares its own.
private enum Shapes {
  static let name = InterfaceName(rawValue: "org.example.Shapes1")!
  static let area = MethodContract<(Double, Double) -> Double>(
    name, "Area", inputs: ["width", "height"], outputs: ["area"])!
  static let describe = MethodContract<(String) -> (String, UInt32)>(
    name, "Describe", inputs: ["shape"], outputs: ["text", "corners"])!
  static let corners = MethodContract<() -> [String: UInt32]>(name, "Corners", outputs: ["corners"])!
  static let forget = MethodContract<(String, [UInt64]) -> Void>(name, "Forget", inputs: ["shape", "ids"])!
  static let resized = SignalContract<Double, Double>(name, "Resized", arguments: ["width", "height"])!
  static let contract = InterfaceContract(
    name, methods: [area.declaration, describe.declaration, corners.declaration, forget.declaration],
    signals: [resized.declaration])
  static let path = ObjectPath(rawValue: "/org/example/Shapes")!
}

/// The interface exported from its contract on a private bus, with what `Forget` was given.
private struct Exported {
  let bus: BusDaemon
  let server: Connection
  let client: Connection
  let forgotten: EventLog<String>

  init() throws {
    bus = try BusDaemon()
    server = try Connection(.address(bus.address))
    client = try Connection(.address(bus.address))
    let forgotten = EventLog<String>()
    self.forgotten = forgotten
    let interface = try Interface(
      Shapes.contract,
      methods: [
        Method(Shapes.area) { _, width, height in width * height },
        Method(
          Shapes.describe,
          async: { _, shape in
            guard shape != "blob" else { throw DBusError(.invalidArgs, "a blob has no corners") }
            return ("a \(shape)", shape == "square" ? 4 : 3)
          }),
        Method(Shapes.corners) { _ in ["square": 4, "triangle": 3] as [String: UInt32] },
        Method(Shapes.forget) { call, shape, ids in
          forgotten.append("\(shape) \(ids) from \(call.sender?.rawValue ?? "nobody")")
        },
      ])
    try server.export([interface], at: Shapes.path)
  }
}

@Suite("Contracts: an interface declared once is exported, introspected and called typed")
struct ContractTests {
  @Test func signaturesFollowFromTheSwiftTypes() {
    #expect(Shapes.area.declaration.inputs.rawValue == "dd")
    #expect(Shapes.area.declaration.outputs.rawValue == "d")
    #expect(Shapes.describe.declaration.outputs.rawValue == "su")
    #expect(Shapes.corners.declaration.inputs.rawValue == "")
    #expect(Shapes.corners.declaration.outputs.rawValue == "a{su}")
    #expect(Shapes.forget.declaration.inputs.rawValue == "sat")
    #expect(Shapes.forget.declaration.outputs.rawValue == "")
    #expect(Shapes.resized.declaration.signature.rawValue == "dd")
    #expect(MethodContract<(String) -> Void>(Shapes.name, "Bad.Name", inputs: ["x"]) == nil)
    #expect(MethodContract<(String) -> Void>(Shapes.name, "Short", inputs: []) == nil)
    #expect(SignalContract<String>(Shapes.name, "Moved", arguments: ["x", "y"]) == nil)
  }

  @Test func aDeclaredMethodIsCalledWithTypedArgumentsAndAnswersTypedValues() async throws {
    let exported = try Exported()
    let destination = exported.server.uniqueName
    let area = try await exported.client.call(Shapes.area, destination: destination, path: Shapes.path, 3.0, 4.5)
    #expect(area == 13.5)
    let (text, corners) = try await exported.client.call(
      Shapes.describe, destination: destination, path: Shapes.path, "square")
    #expect(text == "a square" && corners == 4)
    let all = try await exported.client.call(Shapes.corners, destination: destination, path: Shapes.path)
    #expect(all == ["square": 4, "triangle": 3])
    try await exported.client.call(Shapes.forget, destination: destination, path: Shapes.path, "square", [1, 2])
    #expect(exported.forgotten.events == ["square [1, 2] from \(exported.client.uniqueName)"])
  }

  @Test func aHandlersErrorReachesTheTypedCaller() async throws {
    let exported = try Exported()
    let error = await #expect(throws: DBusError.self) {
      _ = try await exported.client.call(
        Shapes.describe, destination: exported.server.uniqueName, path: Shapes.path, "blob")
    }
    #expect(error?.is(.invalidArgs) == true)
    #expect(error?.message == "a blob has no corners")
    let missing = await #expect(throws: DBusError.self) {
      try await exported.client.call(
        Shapes.forget, destination: try BusName("org.example.Nobody"), path: Shapes.path, "x", [])
    }
    #expect(missing?.is(.serviceUnknown) == true)
  }

  @Test func aCallWithArgumentsOfOtherTypesIsRefusedWithInvalidArgs() async throws {
    let exported = try Exported()
    let error = await #expect(throws: DBusError.self) {
      _ = try await exported.client.call(
        exported.server.uniqueName, Shapes.path, Shapes.name, Shapes.area.name, "3", "4")
    }
    #expect(error?.is(.invalidArgs) == true)
    #expect(error?.message.contains("'dd'") == true)
    #expect(error?.message.contains("'ss'") == true)
  }

  @Test func aReplyOfOtherTypesThanDeclaredIsRefusedWithInvalidSignature() async throws {
    let exported = try Exported()
    // The same method declared with another answer, as a client out of step with the server would.
    let stale = MethodContract<(Double, Double) -> String>(
      Shapes.name, "Area", inputs: ["width", "height"], outputs: ["area"])!
    let error = await #expect(throws: DBusError.self) {
      _ = try await exported.client.call(stale, destination: exported.server.uniqueName, path: Shapes.path, 1.0, 2.0)
    }
    #expect(error?.is(.invalidSignature) == true)
    #expect(error?.message == "Area answered with 'd' instead of 's'")
  }

  @Test func introspectionNamesTheDeclaredArguments() async throws {
    let exported = try Exported()
    let xml = try await exported.client.call(
      IntrospectableInterface.introspect, destination: exported.server.uniqueName, path: Shapes.path)
    let document = try XMLDocument(xmlString: xml)
    func values(_ path: String) throws -> [String] {
      try document.nodes(forXPath: "/node/interface[@name='org.example.Shapes1']/" + path).compactMap(\.stringValue)
    }
    #expect(try values("method/@name") == ["Area", "Describe", "Corners", "Forget"])
    #expect(try values("method[@name='Area']/arg/@name") == ["width", "height", "area"])
    #expect(try values("method[@name='Area']/arg/@direction") == ["in", "in", "out"])
    #expect(try values("method[@name='Describe']/arg/@type") == ["s", "s", "u"])
    #expect(try values("method[@name='Forget']/arg/@type") == ["s", "at"])
    #expect(try values("signal[@name='Resized']/arg/@name") == ["width", "height"])
    // The contract's own description is the element the object introspects with.
    #expect(xml.contains(Shapes.contract.introspectionXML))
  }

  @Test func anInterfaceMissingOrAddingAMethodIsRefused() throws {
    let missing = #expect(throws: DBusError.self) {
      try Interface(Shapes.contract, methods: [Method(Shapes.area) { _, width, height in width * height }])
    }
    #expect(missing?.message.contains("Describe has no handler") == true)
    let other = MethodContract<() -> Void>(Shapes.name, "Spin")!
    let extra = #expect(throws: DBusError.self) {
      try Interface(
        InterfaceContract(Shapes.name, methods: [Shapes.area.declaration]),
        methods: [Method(Shapes.area) { _, width, height in width * height }, Method(other) { _ in }])
    }
    #expect(extra?.message.contains("declares no method Spin") == true)
  }

  @Test func aDeclaredSignalIsEmittedAndDecodedTyped() async throws {
    let exported = try Exported()
    let stream = try await exported.client.signals(
      matching: Shapes.resized.rule(sender: exported.server.uniqueName, path: Shapes.path))
    try exported.server.emit(Shapes.resized, path: Shapes.path, 2.0, 3.0)
    var iterator = stream.makeAsyncIterator()
    let message = try #require(await iterator.next())
    #expect(Shapes.resized.matches(message))
    let (width, height) = try Shapes.resized.decode(message)
    #expect(width == 2 && height == 3)
    let wrong = SignalContract<String>(Shapes.name, "Resized", arguments: ["text"])!
    #expect(throws: DBusError.self) { try wrong.decode(message) }
    let other = SignalContract<Double, Double>(Shapes.name, "Moved", arguments: ["x", "y"])!
    #expect(!other.matches(message))
    #expect(throws: DBusError.self) { try other.decode(message) }
  }
}
