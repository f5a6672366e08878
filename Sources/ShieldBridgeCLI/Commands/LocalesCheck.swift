import JSON
import Localization

extension Command {
  /// `shieldbridge locales check [DIR | --dir DIR] [--json]`.
  static let localesCheck = Command(
    name: "check",
    abstract: "Lint the template and the catalogs like msgfmt -c and pofilter together.",
    arguments: "[DIR]",
    argumentCount: 0...1,
    options: LocalesCheckOptions.self,
    discussion: """
      Rules: \(CheckRule.allCases.map(\.rawValue).joined(separator: ", ")).
      Exits 65 when there are errors; warnings alone exit 0.
      """,
    body: { invocation in
      // DIR is the older spelling; --dir is what the other locales commands take.
      if invocation.positional(0) != nil, invocation[\.dir] != nil {
        throw CommandFailure.usage("name the catalog folder once, as DIR or with --dir")
      }
      guard
        let directory = try LocalesSupport.directory(invocation.positional(0) ?? invocation[\.dir])
      else {
        throw CommandFailure(
          "no catalog folder found; name one (DIR or --dir) or set \(CatalogDirectory.environmentVariable)",
          exitCode: .noInput)
      }
      let report = CatalogCheck.check(directory: directory)
      guard !report.files.isEmpty else {
        throw CommandFailure("no .po or .pot files in '\(directory.path)'", exitCode: .noInput)
      }
      for diagnostic in report.diagnostics {
        if invocation[\.json] {
          Output.out(
            JSONValue.object([
              ("file", .string(diagnostic.file)), ("line", .int(diagnostic.line)),
              ("severity", .string(diagnostic.severity.rawValue)),
              ("rule", .string(diagnostic.rule.rawValue)),
              ("message", .string(diagnostic.message)),
            ]).serialized)
        } else {
          Output.out(diagnostic.description)
        }
      }
      if !invocation[\.json] {
        Output.out(
          "\(plural(report.files.count, "file")) checked: \(plural(report.errorCount, "error")), "
            + plural(report.warningCount, "warning"))
      }
      return report.errorCount > 0 ? .dataError : .success
    }
  )
}

/// The options of `shieldbridge locales check`.
private struct LocalesCheckOptions: OptionGroup {
  let json: Flag
  let dir: Option<String>

  init(declaring options: inout OptionDeclarations) {
    json = options.flag("--json", "One JSON object per finding: file, line, severity, rule, message.")
    dir = options.catalogDirectory()
  }
}

private func plural(_ count: Int, _ noun: String) -> String {
  "\(count) \(noun)\(count == 1 ? "" : "s")"
}
