/// One level of the command tree: a name, its options, and either subcommands or a body.
///
/// The shape follows swift-argument-parser's (one root, nested subcommands,
/// `--help` on every level) without depending on it. Each command lives in its
/// own file as a static member, `Command.link`, and the root lists them. A
/// leaf declares its options once, as an ``OptionGroup``: parsing accepts
/// what it declares, `--help` lists it, and the body reads the values through
/// the group's keys, so that an option the command did not declare cannot be read.
struct Command: Sendable {
  /// The body of a leaf command, given its parsed arguments; it returns the process's exit status.
  typealias Body = @Sendable (ParsedArguments) async throws -> ExitCode

  /// A leaf's options as declared, and its body bound to their keys.
  struct Leaf: Sendable {
    var options: [OptionDeclaration]
    var body: Body
  }

  var name: String
  /// One line for the parent's list of subcommands.
  var abstract: String
  /// The synopsis of the positional arguments, such as `SUMMARY [BODY]`.
  var arguments: String
  /// How many positional arguments are accepted.
  var argumentCount: ClosedRange<Int>
  /// Paragraphs after the options in `--help`.
  var discussion: String
  var subcommands: [Command]
  /// Declares a leaf's options and binds its body to them; `nil` for a command with subcommands.
  ///
  /// Called only for the command that is run or described: every command
  /// builds the whole tree when it starts, and the others need no options.
  var leaf: (@Sendable () -> Leaf)?

  /// A command that only holds subcommands.
  init(name: String, abstract: String, discussion: String = "", subcommands: [Command]) {
    self.name = name
    self.abstract = abstract
    arguments = ""
    argumentCount = 0...0
    self.discussion = discussion
    self.subcommands = subcommands
    leaf = nil
  }

  /// A leaf command whose options `Options` declares and whose body reads them through its keys.
  init<Options: OptionGroup>(
    name: String,
    abstract: String,
    arguments: String = "",
    argumentCount: ClosedRange<Int> = 0...0,
    options: Options.Type,
    discussion: String = "",
    body: @escaping @Sendable (Invocation<Options>) async throws -> ExitCode
  ) {
    self.name = name
    self.abstract = abstract
    self.arguments = arguments
    self.argumentCount = argumentCount
    self.discussion = discussion
    subcommands = []
    leaf = {
      var declarations = OptionDeclarations()
      let keys = Options(declaring: &declarations)
      return Leaf(options: declarations.all) { arguments in
        try await body(Invocation(options: keys, arguments: arguments))
      }
    }
  }

  /// A leaf command without options.
  init(
    name: String,
    abstract: String,
    arguments: String = "",
    argumentCount: ClosedRange<Int> = 0...0,
    discussion: String = "",
    body: @escaping @Sendable (Invocation<NoOptions>) async throws -> ExitCode
  ) {
    self.init(
      name: name, abstract: abstract, arguments: arguments, argumentCount: argumentCount, options: NoOptions.self,
      discussion: discussion, body: body)
  }

  /// The options of a leaf as declared, in the order `--help` lists them; none for the other commands.
  var options: [OptionDeclaration] { leaf?().options ?? [] }
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
