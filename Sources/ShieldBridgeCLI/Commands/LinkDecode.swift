import DeepLink

extension Command {
  /// `shieldbridge link decode [TEXT…]`.
  static let linkDecode = Command(
    name: "decode",
    abstract: "Decode a percent-encoded link value, strictly.",
    arguments: "[TEXT…]",
    argumentCount: 0...Int.max,
    discussion: """
      Accepts what a link value may hold: ASCII letters, digits, -._~ and %XX in
      either case. A raw character outside that set, a bad escape, bytes that are
      not UTF-8 and control characters (which would break the line-by-line
      output) are reported on stderr with their code and byte offset, and the
      exit status is 65.
      """,
    body: { invocation in
      LinkInput().run(invocation) { input, source, output in
        do throws(DeepLinkError) {
          output.append(try PercentEncoding.decode(utf8: input, rejectingControlCharacters: true))
          output.append(0x0A)
          return true
        } catch {
          LinkInput.report(error, source, output: &output)
          return false
        }
      }
    }
  )
}
