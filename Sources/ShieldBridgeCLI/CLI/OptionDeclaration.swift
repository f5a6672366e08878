/// What parsing and `--help` know of one option: its name, whether it takes a value, and its help.
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
  var kind: Kind
  var help: String
}
