import DeepLink

extension Command {
  /// `shieldbridge link parse [URL…] [--json] [--scheme S]`.
  static let linkParse = Command(
    name: "parse",
    abstract: "Parse links strictly and resolve them to their actions.",
    arguments: "[URL…]",
    argumentCount: 0...Int.max,
    options: LinkParseOptions.self,
    discussion: """
      Without --json, an action is printed as 'puzzle app="Instagram" grant=5
      id="shield-open"' and an error goes to stderr. With --json every input gets
      one line, in order:
        {"ok":true,"action":"puzzle","scheme":"shieldbridge","app":"Instagram","grant":5,"id":"shield-open","ignored":[]}
        {"ok":false,"error":"bad-percent-escape","offset":31,"message":"…"}
      """,
    body: { invocation in
      let router = Router(configuration: try linkConfiguration(invocation))
      let json = invocation[\.json]
      // A longer line is cut: the parser needs no more to call it too long,
      // and the message gives the length the reader counted.
      let input = LinkInput(maximumLineLength: DeepLink.maximumLength + 1)
      return input.run(invocation) { link, length, source, output in
        do throws(DeepLinkError) {
          guard length == link.count else { throw DeepLinkError.tooLong(length: length) }
          // The values are lent and copied straight into the output: no
          // string is made for them.
          try router.withResolution(utf8: link) { resolution in
            if json {
              LinkParseOutput.appendJSON(resolution, to: &output)
            } else {
              LinkParseOutput.appendText(resolution, to: &output)
            }
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

/// The options of `shieldbridge link parse`.
private struct LinkParseOptions: LinkSchemeOptions {
  let json: Flag
  let scheme: Option<String>

  init(declaring options: inout OptionDeclarations) {
    json = options.flag("--json", "One JSON object per input on stdout, errors included.")
    scheme = options.linkScheme()
  }
}

/// The lines `link parse` prints, written straight into the output buffer.
enum LinkParseOutput {
  /// `{"ok":true,"action":…,"ignored":[…]}` and a newline.
  static func appendJSON(_ resolution: LentResolution, to output: inout LinkOutput) {
    output.beginObject()
    output.member("ok", true)
    output.member("action", utf8: resolution.route)
    output.member("scheme", utf8: resolution.scheme)
    switch resolution.action {
    case .puzzle(let app, let grant, let id):
      output.member("app", utf8: app)
      output.member("grant", grant)
      output.member("id", utf8: id)
    case .view(let app, let view, let id):
      output.member("app", utf8: app)
      output.member("view", utf8: view)
      output.member("id", utf8: id)
    }
    output.key("ignored")
    output.beginArray()
    for key in resolution.ignored { output.string(key) }
    output.endArray()
    output.endObject()
    output.newline()
  }

  /// `{"ok":false,"error":…,"offset":…,"message":…}` and a newline.
  static func appendJSON(_ error: DeepLinkError, to output: inout LinkOutput) {
    output.beginObject()
    output.member("ok", false)
    output.member("error", error.code.rawValue)
    output.member("offset", error.offset)
    output.member("message", error.message)
    output.endObject()
    output.newline()
  }

  /// `puzzle app="Instagram" grant=5 id="shield-open"`, then ` ignored=a,b` when
  /// keys were ignored, and a newline; text values are quoted as in JSON.
  static func appendText(_ resolution: LentResolution, to output: inout LinkOutput) {
    output.append(bytes: resolution.route)
    switch resolution.action {
    case .puzzle(let app, let grant, let id):
      if let app {
        output.append(literal: " app=")
        output.append(quotedUTF8: app)
      }
      output.append(literal: " grant=")
      output.append(decimal: grant)
      output.append(literal: " id=")
      output.append(quotedUTF8: id)
    case .view(let app, let view, let id):
      output.append(literal: " app=")
      output.append(quotedUTF8: app)
      output.append(literal: " view=")
      output.append(quotedUTF8: view)
      output.append(literal: " id=")
      output.append(quotedUTF8: id)
    }
    if !resolution.ignored.isEmpty {
      output.append(literal: " ignored=")
      output.append(resolution.ignored.joined(separator: ","))
    }
    output.append(0x0A)
  }
}
