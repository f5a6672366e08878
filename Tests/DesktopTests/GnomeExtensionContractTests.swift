import DBus
import Foundation
import FoundationXML
import TestSupport
import Testing

@testable import Desktop

/// The extension (integrations/gnome-shell/core.js) exports the interface the
/// backend calls from ``ShellExtensionInterface``: the two must say the same.
@Suite struct GnomeExtensionContractTests {
  /// An `<arg>` as both sides describe it.
  struct Argument: Equatable, CustomStringConvertible {
    var name: String
    var type: String
    var direction: String?
    var description: String { "\(direction ?? "signal") \(name): \(type)" }
  }

  /// The methods and signals of an introspection document's one interface, by name, with their arguments.
  static func members(_ xml: String, interface: String) throws -> [String: [Argument]] {
    let document = try XMLDocument(xmlString: xml)
    var members: [String: [Argument]] = [:]
    for kind in ["method", "signal"] {
      for node in try document.nodes(forXPath: "//interface[@name='\(interface)']/\(kind)") {
        guard let element = node as? XMLElement, let name = element.attribute(forName: "name")?.stringValue
        else { continue }
        members["\(kind) \(name)"] = element.elements(forName: "arg").map { arg in
          Argument(
            name: arg.attribute(forName: "name")?.stringValue ?? "",
            type: arg.attribute(forName: "type")?.stringValue ?? "",
            direction: arg.attribute(forName: "direction")?.stringValue)
        }
      }
    }
    return members
  }

  @Test func theExtensionExportsTheInterfaceTheBackendDeclares() throws {
    let core = try String(
      contentsOfFile: GnomeShellSession.repositoryPath + "/integrations/gnome-shell/core.js", encoding: .utf8)
    let start = try #require(core.range(of: "const XML = `"))
    let end = try #require(core.range(of: "`;", range: start.upperBound..<core.endIndex))
    let name = ShellExtensionInterface.name.rawValue
    #expect(core.contains("const INTERFACE = '\(name)';"))
    #expect(core.contains("const PATH = '\(ShellNames.extensionPath.rawValue)';"))
    #expect(core.contains("const VERSION = \(ShellNames.contractVersion);"))
    let exported = String(core[start.upperBound..<end.lowerBound]).replacingOccurrences(
      of: "${INTERFACE}", with: name)
    let declared = "<node>\n" + ShellExtensionInterface.contract.introspectionXML + "</node>\n"
    let theirs = try Self.members(exported, interface: name)
    let ours = try Self.members(declared, interface: name)
    #expect(ours.count == 6)
    #expect(theirs == ours)
  }
}
