/// A handler's command line from `config.json`, with placeholders such as
/// `{app}` filled in when it runs.
///
/// Each argv element is a template of its own: a value replaces its
/// placeholder inside that one element, so a value never splits into more
/// elements (an app named `Foo --evil` stays one argument) and is never
/// scanned again (an app named `{link}` stays the text `{link}`). Nothing
/// goes through a shell. `{{` and `}}` stand for literal braces; any other
/// brace, or a placeholder the handler does not offer, is an error when the
/// configuration is loaded, never when the handler runs.
public struct ArgvTemplate: Hashable, Sendable {
  /// A value a handler's argv can ask for.
  public enum Placeholder: String, Hashable, Sendable, CaseIterable, Comparable {
    /// The app's display name; empty when there is none.
    case app
    /// The minutes one solved puzzle unlocks, as in the deep link's `grant`.
    case grant
    /// The same minutes as `{grant}`, for handlers whose text reads "{minutes} more minutes".
    case minutes
    /// The view's name, such as `direct`.
    case view
    /// The view's configured target, such as `https://www.instagram.com/direct/inbox/`.
    case target
    /// The whole deep link that was activated.
    case link
    /// The notification identifier of the link (`id`).
    case id
    /// ShieldBridge's own executable, by absolute path.
    ///
    /// A service started by D-Bus activation or systemd often has a `PATH`
    /// without the folder it was installed in (`~/.local/bin`): a handler that
    /// names `shieldbridge` there would fail in the terminal it opened.
    case shieldbridge

    public static func < (lhs: Placeholder, rhs: Placeholder) -> Bool {
      lhs.rawValue < rhs.rawValue
    }
  }

  private enum Piece: Hashable, Sendable {
    case text(String)
    case placeholder(Placeholder)
  }

  /// The argv as written in the configuration.
  public let elements: [String]
  private let pieces: [[Piece]]

  /// Parses `elements`, accepting only the placeholders in `allowed`.
  ///
  /// - Throws: ``ArgvTemplateError`` with the index of the element and the
  ///   problem: an empty argv or program, a NUL character, an unknown or
  ///   unavailable placeholder, or a lone brace.
  public init(_ elements: [String], allowing allowed: Set<Placeholder> = Set(Placeholder.allCases))
    throws(ArgvTemplateError)
  {
    guard let program = elements.first else {
      throw ArgvTemplateError(element: nil, problem: "expected at least the program to run")
    }
    guard !program.isEmpty else {
      throw ArgvTemplateError(element: 0, problem: "the program name is empty")
    }
    var pieces: [[Piece]] = []
    for (index, element) in elements.enumerated() {
      pieces.append(try ArgvTemplate.parse(element, index: index, allowed: allowed))
    }
    self.elements = elements
    self.pieces = pieces
  }

  /// The placeholders the argv uses.
  public var placeholders: Set<Placeholder> {
    var used: Set<Placeholder> = []
    for case .placeholder(let placeholder) in pieces.joined() { used.insert(placeholder) }
    return used
  }

  /// The argv with every placeholder replaced by its value (empty when `values` has none).
  ///
  /// The result has exactly as many elements as the template.
  public func argv(_ values: [Placeholder: String]) -> [String] {
    pieces.map { element in
      element.map { piece in
        switch piece {
        case .text(let text): text
        case .placeholder(let placeholder): values[placeholder] ?? ""
        }
      }.joined()
    }
  }

  private static func parse(_ element: String, index: Int, allowed: Set<Placeholder>)
    throws(ArgvTemplateError) -> [Piece]
  {
    guard !element.unicodeScalars.contains("\0") else {
      throw ArgvTemplateError(element: index, problem: "contains a NUL character")
    }
    var pieces: [Piece] = []
    var text = ""
    var rest = Substring(element)
    while let character = rest.first {
      rest = rest.dropFirst()
      switch character {
      case "{" where rest.first == "{":
        text.append("{")
        rest = rest.dropFirst()
      case "}" where rest.first == "}":
        text.append("}")
        rest = rest.dropFirst()
      case "{":
        guard let close = rest.firstIndex(of: "}") else {
          throw ArgvTemplateError(
            element: index, problem: "a '{' without its '}'; write {{ for a literal brace")
        }
        let name = String(rest[..<close])
        guard let placeholder = Placeholder(rawValue: name), allowed.contains(placeholder) else {
          let offered = allowed.sorted().map { "{\($0.rawValue)}" }.joined(separator: ", ")
          let what =
            Placeholder(rawValue: name) == nil
            ? "unknown placeholder" : "placeholder not offered here:"
          throw ArgvTemplateError(
            element: index,
            problem:
              "\(what) {\(name)}; this handler offers \(offered) (write {{ and }} for literal braces)"
          )
        }
        if !text.isEmpty { pieces.append(.text(text)) }
        text = ""
        pieces.append(.placeholder(placeholder))
        rest = rest[rest.index(after: close)...]
      case "}":
        throw ArgvTemplateError(element: index, problem: "a lone '}'; write }} for a literal brace")
      default:
        text.append(character)
      }
    }
    if !text.isEmpty || pieces.isEmpty { pieces.append(.text(text)) }
    return pieces
  }
}

/// Why a handler's argv was refused.
public struct ArgvTemplateError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The index of the argv element at fault, or `nil` for the argv as a whole.
  public var element: Int?
  public var problem: String

  public var description: String {
    element.map { "element \($0): \(problem)" } ?? problem
  }
}
