/// What parsing and `--help` know of one option: its names, whether it takes a value, and its help.
///
/// A command never builds these itself: ``OptionDeclarations`` makes one for
/// each key an ``OptionGroup`` declares.
struct OptionDeclaration: Sendable, Equatable {
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
  /// The one-letter spelling, `u` for `-u`, when the option has one.
  ///
  /// Short options are there for `notify`, which takes notify-send's: as
  /// GLib's parser, they cluster (`-pw`), and the one in a word that takes a
  /// value takes the next word (`-u low`, `-pu low`).
  var short: Character? = nil
  var kind: Kind
  var help: String
}
