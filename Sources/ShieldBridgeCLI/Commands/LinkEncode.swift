import DeepLink

extension Command {
  /// `shieldbridge link encode [TEXT…]`.
  static let linkEncode = Command(
    name: "encode",
    abstract: "Percent-encode text for a link value (UTF-8, uppercase %XX).",
    arguments: "[TEXT…]",
    argumentCount: 0...Int.max,
    discussion: """
      Every byte but ASCII letters, digits and -._~ becomes %XX; a space is %20,
      never +. Without TEXT, each line of stdin is encoded; a line that is not
      UTF-8 is reported on stderr (invalid-utf8) and the exit status is 65.
      """,
    body: { invocation in
      LinkInput().run(invocation) { input, source, output in
        do throws(DeepLinkError) {
          output.append(try PercentEncoding.encode(validating: input))
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
