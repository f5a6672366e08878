public import DBus
import Foundation
import FoundationXML

/// Holds a declared interface to what a real peer introspects: every method and
/// signal the contract declares must be there, with the same argument types.
///
/// Only the types are compared, by direction (a method's `in` and `out` types
/// in order, a signal's in order), not the argument names: the bus daemon names
/// none, and Qt writes a method's `out` arguments first. A peer may have more
/// than the contract declares (we declare what we call), and may export one
/// name twice with other arguments, as KWin's `loadScript`: one of them must match.
public enum IntrospectedContract {
  /// A method's or signal's argument types as an introspection document gives them.
  struct Member: Equatable, CustomStringConvertible {
    var inputs: String
    var outputs: String

    var description: String { "(\(inputs)) → (\(outputs))" }
  }

  /// Introspects `path` of `destination` and compares its `contract.name` interface with `contract`.
  ///
  /// - Returns: one line per declared method or signal that is missing or differs; empty when all match.
  /// - Throws: when `Introspect` fails or its answer is not XML.
  public static func differences(
    _ contract: InterfaceContract, destination: BusName, path: ObjectPath, on connection: Connection,
    timeout: Duration = HangBound.answer
  ) async throws -> [String] {
    let xml = try await connection.call(
      IntrospectableInterface.introspect, destination: destination, path: path, timeout: timeout)
    return try differences(contract, xml: xml)
  }

  /// Compares `contract` with the interface of the same name in the introspection document `xml`.
  public static func differences(_ contract: InterfaceContract, xml: String) throws -> [String] {
    let document = try XMLDocument(xmlString: xml)
    let name = contract.name.rawValue
    guard
      let interface = try document.nodes(forXPath: "/node/interface[@name='\(name)']").first as? XMLElement
    else { return ["no interface \(name)"] }
    var found: [String: [Member]] = [:]
    for kind in ["method", "signal"] {
      for element in interface.elements(forName: kind) {
        guard let member = element.attribute(forName: "name")?.stringValue else { continue }
        var inputs = ""
        var outputs = ""
        for argument in element.elements(forName: "arg") {
          let type = argument.attribute(forName: "type")?.stringValue ?? ""
          // A method's argument is `in` unless it says otherwise; a signal's are all it sends.
          if kind == "method", argument.attribute(forName: "direction")?.stringValue == "out" {
            outputs += type
          } else {
            inputs += type
          }
        }
        found["\(kind) \(member)", default: []].append(Member(inputs: inputs, outputs: outputs))
      }
    }
    var differences: [String] = []
    func check(_ key: String, _ declared: Member) {
      guard let candidates = found[key] else { return differences.append("\(name): \(key) is missing") }
      guard !candidates.contains(declared) else { return }
      let seen = candidates.map(\.description).joined(separator: " or ")
      differences.append("\(name): \(key) is declared \(declared), introspected \(seen)")
    }
    for method in contract.methods {
      check("method \(method.name)", Member(inputs: method.inputs.rawValue, outputs: method.outputs.rawValue))
    }
    for signal in contract.signals {
      check("signal \(signal.name)", Member(inputs: signal.signature.rawValue, outputs: ""))
    }
    return differences
  }
}
