import DeepLink

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

/// The options of `shieldbridge link build puzzle`.
struct LinkBuildPuzzleOptions: LinkSchemeOptions {
  let app: Option<String>
  let grant: Option<Int>
  let id: Option<String>
  let scheme: Option<String>

  init(declaring options: inout OptionDeclarations) {
    app = options.value("--app", "NAME", "The app's display name; left out when empty.")
    grant = options.integer(
      "--grant", "N", in: LinkConfiguration.grantRange, "Minutes a solved puzzle unlocks, 1 to 120 (default 5).")
    id = options.linkIdentifier()
    scheme = options.linkScheme()
  }
}

/// The options of `shieldbridge link build view`.
struct LinkBuildViewOptions: LinkSchemeOptions {
  let app: Option<String>
  let view: Option<String>
  let id: Option<String>
  let scheme: Option<String>

  init(declaring options: inout OptionDeclarations) {
    app = options.value("--app", "NAME", "The app's display name (required).")
    view = options.value("--view", "VIEW", "The view, [a-z0-9-]{1,32} (default home).")
    id = options.linkIdentifier()
    scheme = options.linkScheme()
  }
}
