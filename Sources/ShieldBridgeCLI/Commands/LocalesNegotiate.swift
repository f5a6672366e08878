import Localization

extension Command {
  /// `shieldbridge locales negotiate`.
  static let localesNegotiate = Command(
    name: "negotiate",
    abstract: "Print the catalog chain chosen from the environment, best first, ending with en.",
    options: LocalesNegotiateOptions.self,
    discussion: """
      As gettext: LANGUAGE (a colon list, ignored when the locale is C or POSIX), then LC_ALL,
      LC_MESSAGES and LANG; .codeset and @modifier are dropped and de_AT falls back to de.
      Only locales with a catalog (or a pseudo-locale) are listed.
      """,
    body: { invocation in
      let catalogs = CatalogSet.load(from: try LocalesSupport.directory(invocation[\.dir]))
      let override = invocation[\.locale]
      for name in override?.split(separator: ":") ?? [] { _ = try LocalesSupport.tag(String(name)) }
      let localizer = catalogs.localizer(override: override)
      for tag in localizer.chain { Output.out(tag.identifier) }
      return .success
    }
  )
}

/// The options of `shieldbridge locales negotiate`.
private struct LocalesNegotiateOptions: OptionGroup {
  let locale: Option<String>
  let dir: Option<String>

  init(declaring options: inout OptionDeclarations) {
    locale = options.value(
      "--locale", "L", "An explicit choice (a locale or a colon list) instead of the environment.")
    dir = options.catalogDirectory()
  }
}
