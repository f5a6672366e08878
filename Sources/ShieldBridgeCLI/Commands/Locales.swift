import Localization

extension Command {
  /// `shieldbridge locales …`: the tools for translators and QA.
  static let locales = Command(
    name: "locales",
    abstract: "Check, preview and negotiate the translations in locales/.",
    discussion: """
      check, negotiate, plural, preview and webextension find the catalogs in
      this order: --dir (or check's DIR argument), $SHIELDBRIDGE_LOCALEDIR, ../share/shieldbridge/locales
      beside the executable, a locales/ folder with shieldbridge.pot above the executable
      or the current directory, then /usr/local/share/shieldbridge/locales and
      /usr/share/shieldbridge/locales. template prints the built-in messages and reads none;
      webextension writes the browser extension's texts from them.
      """,
    subcommands: [
      .localesCheck, .localesPreview, .localesPlural, .localesNegotiate, .localesTemplate,
      .localesWebExtension,
    ]
  )
}

extension OptionDeclarations {
  /// Declares `--dir DIR`, the catalog folder the `locales` commands read.
  mutating func catalogDirectory() -> Option<String> {
    value("--dir", "DIR", "The catalog folder (default: found as 'shieldbridge locales --help' says).")
  }
}

/// What the `locales` commands share: finding the catalogs.
enum LocalesSupport {
  /// The catalog folder: `explicit`, or the one found; `nil` when none is found and none was named.
  ///
  /// - Throws: a failure with exit 66 when a named folder does not exist.
  static func directory(_ explicit: String?) throws(CommandFailure) -> CatalogDirectory? {
    guard let directory = CatalogDirectory.locate(explicit: explicit) else { return nil }
    guard directory.exists else {
      throw CommandFailure("no catalog folder at '\(directory.path)'", exitCode: .noInput)
    }
    return directory
  }

  /// Loads the catalogs, telling on stderr about each file that had to be left out.
  static func load(_ directory: CatalogDirectory?) -> CatalogSet {
    let catalogs = CatalogSet.load(from: directory)
    for problem in catalogs.problems {
      Output.err(
        "shieldbridge: \(problem) (left out; 'shieldbridge locales check' lists every problem)")
    }
    return catalogs
  }

  /// A locale tag from the command line.
  static func tag(_ text: String) throws(CommandFailure) -> LocaleTag {
    guard let tag = LocaleTag(text) else {
      throw .usage("'\(text)' is not a locale such as de, pt_BR or en-XA")
    }
    return tag
  }
}
