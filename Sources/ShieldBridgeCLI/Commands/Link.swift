extension Command {
  /// `shieldbridge link …`: deep links from the command line.
  static let link = Command(
    name: "link",
    abstract: "Encode, decode, build and parse deep links.",
    discussion: """
      encode, decode and parse take one input per argument or, without arguments,
      one per line on stdin, and answer line by line. They exit 0 when every input
      was good, 65 when any was bad (the others are still answered), and 64 on a
      usage error.
      """,
    subcommands: [.linkEncode, .linkDecode, .linkBuild, .linkParse]
  )
}

/// The options of a command that builds or reads links of a scheme: `--scheme`.
protocol LinkSchemeOptions: OptionGroup {
  /// `--scheme S`, declared with ``OptionDeclarations/linkScheme()``.
  var scheme: Option<String> { get }
}

extension OptionDeclarations {
  /// Declares `--id ID`, the notification identifier a built link carries.
  mutating func linkIdentifier() -> Option<String> {
    value("--id", "ID", "The notification identifier, [A-Za-z0-9._-]{1,64} (default shield-open).")
  }

  /// Declares `--scheme S`, the scheme links are built with or must have.
  mutating func linkScheme() -> Option<String> {
    value("--scheme", "S", "The link scheme (default shieldbridge).")
  }
}
