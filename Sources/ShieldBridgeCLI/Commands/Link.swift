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
