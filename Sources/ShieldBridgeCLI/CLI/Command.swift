/// One level of the command tree: a name, its options, and either subcommands or a body.
///
/// The shape follows swift-argument-parser's (one root, nested subcommands,
/// `--help` on every level) without depending on it. Each command lives in its
/// own file as a static member, `Command.link`, and the root lists them.
struct Command: Sendable {
  /// The body of a leaf command; it returns the process's exit status.
  typealias Body = @Sendable (Invocation) async throws -> ExitCode

  var name: String
  /// One line for the parent's list of subcommands.
  var abstract: String
  /// The synopsis of the positional arguments, such as `SUMMARY [BODY]`.
  var arguments: String = ""
  /// How many positional arguments are accepted.
  var argumentCount: ClosedRange<Int> = 0...0
  var options: [Option] = []
  /// Paragraphs after the options in `--help`.
  var discussion: String = ""
  var subcommands: [Command] = []
  var body: Body? = nil
}

/// An option of a command: a flag, or an option that takes a value.
struct Option: Sendable {
  enum Kind: Sendable, Equatable {
    /// `--json`: present or not.
    case flag
    /// `--app NAME`: the last one given wins.
    case value(String)
    /// `--action KEY=LABEL`: may be given more than once; all are kept in order.
    case repeated(String)
  }

  /// The long name with its dashes, `--app-name`.
  var name: String
  var kind: Kind
  var help: String

  static func flag(_ name: String, _ help: String) -> Option {
    Option(name: name, kind: .flag, help: help)
  }

  static func value(_ name: String, _ placeholder: String, _ help: String) -> Option {
    Option(name: name, kind: .value(placeholder), help: help)
  }

  static func repeated(_ name: String, _ placeholder: String, _ help: String) -> Option {
    Option(name: name, kind: .repeated(placeholder), help: help)
  }
}

/// An exit status; the named ones come from `sysexits.h`.
struct ExitCode: RawRepresentable, Hashable, Sendable {
  var rawValue: Int32

  static let success = ExitCode(rawValue: 0)
  static let failure = ExitCode(rawValue: 1)
  /// `EX_USAGE`: the command line was wrong.
  static let usage = ExitCode(rawValue: 64)
  /// `EX_DATAERR`: some input was bad.
  static let dataError = ExitCode(rawValue: 65)
  /// `EX_NOINPUT`: an input file did not exist or was not readable.
  static let noInput = ExitCode(rawValue: 66)
  /// `EX_UNAVAILABLE`: a service needed is not there.
  static let unavailable = ExitCode(rawValue: 69)
  /// `EX_SOFTWARE`: an internal error.
  static let software = ExitCode(rawValue: 70)
  /// `EX_CANTCREAT`: an output file could not be created.
  static let cannotCreate = ExitCode(rawValue: 73)
  /// `EX_IOERR`: reading or writing failed.
  static let ioError = ExitCode(rawValue: 74)
  /// `EX_TEMPFAIL`: try again later.
  static let tryAgain = ExitCode(rawValue: 75)
  /// `EX_CONFIG`: the configuration is wrong.
  static let configError = ExitCode(rawValue: 78)
}

/// A failure that ends the command with a message on stderr and an exit status.
struct CommandFailure: Error, Sendable {
  var message: String
  var exitCode: ExitCode

  init(_ message: String, exitCode: ExitCode = .failure) {
    self.message = message
    self.exitCode = exitCode
  }

  /// A mistake on the command line: the message, then a pointer to `--help`.
  static func usage(_ message: String) -> CommandFailure {
    CommandFailure(message, exitCode: .usage)
  }
}
