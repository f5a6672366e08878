import DeepLink
import JSON

extension Command {
  /// `shieldbridge link parse [URL…] [--json] [--scheme S]`.
  static let linkParse = Command(
    name: "parse",
    abstract: "Parse links strictly and resolve them to their actions.",
    arguments: "[URL…]",
    argumentCount: 0...Int.max,
    options: [
      .flag("--json", "One JSON object per input on stdout, errors included."),
      .value("--scheme", "S", "The scheme links must have (default shieldbridge)."),
    ],
    discussion: """
      Without --json, an action is printed as 'puzzle app="Instagram" grant=5
      id="shield-open"' and an error goes to stderr. With --json every input gets
      one line, in order:
        {"ok":true,"action":"puzzle","scheme":"shieldbridge","app":"Instagram","grant":5,"id":"shield-open","ignored":[]}
        {"ok":false,"error":"bad-percent-escape","offset":31,"message":"…"}
      """,
    body: { invocation in
      let router = Router(configuration: try linkConfiguration(invocation))
      let json = invocation.flag("--json")
      // A longer line is cut: the parser needs no more to call it too long.
      let input = LinkInput(maximumLineLength: DeepLink.maximumLength + 1)
      return input.run(invocation) { link, source, output in
        do throws(DeepLinkError) {
          let resolution = try router.resolve(utf8: link)
          if json {
            LinkParseOutput.appendJSON(resolution, to: &output)
          } else {
            LinkParseOutput.appendText(resolution, to: &output)
          }
          return true
        } catch {
          if json {
            LinkParseOutput.appendJSON(error, to: &output)
          } else {
            LinkInput.report(error, source, output: &output)
          }
          return false
        }
      }
    }
  )
}

/// The lines `link parse` prints, written straight into the output buffer.
enum LinkParseOutput {
  /// `{"ok":true,"action":…,"ignored":[…]}` and a newline.
  static func appendJSON(_ resolution: Resolution<ShieldAction>, to output: inout [UInt8]) {
    output.append(#"{"ok":true,"action":""#)
    output.append(resolution.route)
    output.append(#"","scheme":"#)
    JSONValue.writeString(resolution.scheme, to: &output)
    switch resolution.action {
    case .puzzle(let app, let grant, let id):
      output.append(#","app":"#)
      if let app { JSONValue.writeString(app, to: &output) } else { output.append("null") }
      output.append(#","grant":"#)
      output.append(decimal: grant)
      output.append(#","id":"#)
      JSONValue.writeString(id, to: &output)
    case .view(let app, let view, let id):
      output.append(#","app":"#)
      JSONValue.writeString(app, to: &output)
      output.append(#","view":"#)
      JSONValue.writeString(view, to: &output)
      output.append(#","id":"#)
      JSONValue.writeString(id, to: &output)
    }
    output.append(#","ignored":["#)
    for (index, key) in resolution.ignored.enumerated() {
      if index > 0 { output.append(UInt8(ascii: ",")) }
      JSONValue.writeString(key, to: &output)
    }
    output.append("]}\n")
  }

  /// `{"ok":false,"error":…,"offset":…,"message":…}` and a newline.
  static func appendJSON(_ error: DeepLinkError, to output: inout [UInt8]) {
    output.append(#"{"ok":false,"error":"#)
    JSONValue.writeString(error.code.rawValue, to: &output)
    output.append(#","offset":"#)
    output.append(decimal: error.offset)
    output.append(#","message":"#)
    JSONValue.writeString(error.message, to: &output)
    output.append("}\n")
  }

  /// `puzzle app="Instagram" grant=5 id="shield-open"`, then ` ignored=a,b` when
  /// keys were ignored, and a newline; text values are quoted as in JSON.
  static func appendText(_ resolution: Resolution<ShieldAction>, to output: inout [UInt8]) {
    output.append(resolution.route)
    switch resolution.action {
    case .puzzle(let app, let grant, let id):
      if let app {
        output.append(" app=")
        JSONValue.writeString(app, to: &output)
      }
      output.append(" grant=")
      output.append(decimal: grant)
      output.append(" id=")
      JSONValue.writeString(id, to: &output)
    case .view(let app, let view, let id):
      output.append(" app=")
      JSONValue.writeString(app, to: &output)
      output.append(" view=")
      JSONValue.writeString(view, to: &output)
      output.append(" id=")
      JSONValue.writeString(id, to: &output)
    }
    if !resolution.ignored.isEmpty {
      output.append(" ignored=")
      output.append(resolution.ignored.joined(separator: ","))
    }
    output.append(0x0A)
  }
}
