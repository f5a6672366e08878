/// The introspection document of one object: the standard interfaces, its own, and its children.
func introspectionXML(interfaces: [Interface], children: [String]) -> String {
  var lines = [
    #"<!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN""#,
    #" "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">"#,
    "<node>",
  ]
  for standard in [IntrospectableInterface.contract, PeerInterface.contract] {
    lines += interfaceXML(name: standard.name, methods: standard.methods, signals: standard.signals)
  }
  for interface in interfaces.sorted(by: { $0.name.rawValue < $1.name.rawValue }) {
    lines += interfaceXML(
      name: interface.name, methods: interface.methods.map(\.declaration), signals: interface.signals,
      annotations: interface.annotations)
  }
  for child in children {
    lines.append("  <node name=\"\(escaped(child))\"/>")
  }
  lines.append("</node>")
  return lines.joined(separator: "\n") + "\n"
}

/// The lines of one `<interface>` element, indented as a child of `<node>`.
func interfaceXML(
  name: InterfaceName, methods: [MethodDeclaration], signals: [SignalDeclaration], annotations: [Annotation] = []
) -> [String] {
  var lines = ["  <interface name=\"\(escaped(name.rawValue))\">"]
  for method in methods {
    let arguments =
      arguments(method.inputs, names: method.inputNames, direction: "in")
      + arguments(method.outputs, names: method.outputNames, direction: "out")
    if arguments.isEmpty {
      lines.append("    <method name=\"\(escaped(method.name.rawValue))\"/>")
    } else {
      lines.append("    <method name=\"\(escaped(method.name.rawValue))\">")
      lines += arguments.map { "      " + $0 }
      lines.append("    </method>")
    }
  }
  for signal in signals {
    let arguments = arguments(signal.signature, names: signal.argumentNames, direction: nil)
    if arguments.isEmpty {
      lines.append("    <signal name=\"\(escaped(signal.name.rawValue))\"/>")
    } else {
      lines.append("    <signal name=\"\(escaped(signal.name.rawValue))\">")
      lines += arguments.map { "      " + $0 }
      lines.append("    </signal>")
    }
  }
  for annotation in annotations {
    lines.append("    <annotation name=\"\(escaped(annotation.name))\" value=\"\(escaped(annotation.value))\"/>")
  }
  lines.append("  </interface>")
  return lines
}

private func arguments(_ signature: Signature, names: [String], direction: String?) -> [String] {
  signature.types.enumerated().map { index, type in
    let name = index < names.count ? " name=\"\(escaped(names[index]))\"" : ""
    let direction = direction.map { " direction=\"\($0)\"" } ?? ""
    return "<arg\(name) type=\"\(escaped(type.description))\"\(direction)/>"
  }
}

/// Escapes text for an XML attribute value.
private func escaped(_ text: String) -> String {
  var result = ""
  for character in text {
    switch character {
    case "&": result += "&amp;"
    case "<": result += "&lt;"
    case ">": result += "&gt;"
    case "\"": result += "&quot;"
    case "'": result += "&apos;"
    default: result.append(character)
    }
  }
  return result
}
