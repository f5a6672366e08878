import Config
import Localization

/// The writer of what a person reads: catalog messages only, in the user's language.
///
/// `status`, `rules`, `setup`, `desktop`, `doctor` and the errors a user causes
/// write through ``Output/say(_:to:indent:prefix:)``, which takes a
/// ``CommandMessage`` (a ``CommandKey`` and its values), never a `String`, and
/// `puzzle` through ``Output/say(_:with:)``, which takes the task's
/// ``ProductMessage``: a text that is not in the catalogs cannot be passed to them. Machine formats (`--json`, the `--help`
/// text, which stays English) go through ``Output/out(_:)``; in the files that
/// `scripts/lint-user-text` checks, a string literal given to `Output.out`,
/// `Output.err` or `CommandFailure` fails the lint (docs/developing/translating.md).
extension Output {
  /// Where a message goes.
  enum Stream {
    case out
    case err
  }

  /// The localizer of this process, negotiated from its environment once; tests set their own.
  @TaskLocal static var localizer: Localizer?

  private static let processLocalizer = Localizer.current()

  /// The localizer messages are rendered with.
  static var currentLocalizer: Localizer { localizer ?? processLocalizer }

  /// Writes `message` in the user's language, as a line of its own, after `indent` spaces.
  ///
  /// - Parameter prefix: The program's name before the message, such as `shieldbridge status: `; not translated.
  static func say(_ message: CommandMessage, to stream: Stream = .out, indent: Int = 0, prefix: String = "") {
    let line = String(repeating: " ", count: indent) + prefix + text(message)
    switch stream {
    case .out: out(line)
    case .err: err(line)
    }
  }

  /// Writes a message of the shield and the task (`puzzle`'s lines) in `localizer`'s language, as a line.
  static func say(_ message: ProductMessage, with localizer: Localizer) {
    out(localizer.render(message))
  }

  /// Writes an empty line between blocks of messages.
  static func blankLine() {
    out("")
  }

  /// `message` rendered, to be inserted into another message as a value.
  static func text(_ message: CommandMessage) -> String {
    currentLocalizer.render(message)
  }

  /// `items` as a list in the user's language: `Instagram, TikTok`, `Instagram、TikTok`.
  static func list(_ items: [String]) -> String {
    guard var text = items.first else { return "" }
    for item in items.dropFirst() { text = self.text(CommandMessage(.listMore, ["list": text, "item": item])) }
    return text
  }

  /// A warning on stderr about a file still used: `shieldbridge: warning: …`.
  static func warn(_ warning: some CustomStringConvertible) {
    say(.warning(warning.description), to: .err, prefix: "shieldbridge: ")
  }

  /// A warning about `config.json`, in the user's language where it is known as values.
  static func warn(_ warning: ConfigurationWarning) {
    say(ConfigurationText.warning(warning), to: .err, prefix: "shieldbridge: ")
  }
}

extension CommandFailure {
  /// A failure whose message comes from the catalogs.
  init(_ message: CommandMessage, exitCode: ExitCode = .failure) {
    self.init(Output.text(message), exitCode: exitCode)
  }

  /// A mistake on the command line, in the user's language.
  static func usage(_ message: CommandMessage) -> CommandFailure {
    CommandFailure(message, exitCode: .usage)
  }
}
