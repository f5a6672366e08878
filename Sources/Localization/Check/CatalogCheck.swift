import Posix

/// What `locales check` found in a folder: the files it read and every diagnostic, sorted by file and line.
public struct CheckReport: Sendable {
  public var files: [String]
  public var diagnostics: [Diagnostic]

  public var errorCount: Int { diagnostics.count { $0.severity == .error } }
  public var warningCount: Int { diagnostics.count { $0.severity == .warning } }
}

/// The lint of `shieldbridge locales check`: msgfmt's checks and pofilter's together, with file and line for each finding.
///
/// Every rule is a ``CheckRule``; see its cases for what each one finds and how bad it is.
public enum CatalogCheck {
  /// The numbers the plural rules are tried on: 0…1000, as in the CLDR tables, and a few large ones.
  static let sampleNumbers: [UInt64] =
    Array(0...1000) + [10_000, 100_000, 1_000_000, 1 << 32, UInt64.max]

  /// Checks the template and every catalog of `directory`.
  ///
  /// The template is `shieldbridge.pot`, or the only `.pot` file; with one, the
  /// catalogs are also compared with it (rules `missing` and `stale`).
  public static func check(directory: CatalogDirectory) -> CheckReport {
    let names = (try? FileSystem.contentsOfDirectory(directory.path)) ?? []
    let templates = names.filter { $0.hasSuffix(".pot") }
    let catalogs = names.filter { $0.hasSuffix(".po") }
    var diagnostics: [Diagnostic] = []
    var template: POFile?
    for name in templates {
      let path = directory.path.appendingPathComponent(name)
      switch parse(path) {
      case .success(let file):
        diagnostics += checkTemplate(file)
        if name == CatalogDirectory.templateName || templates.count == 1 { template = file }
      case .failure(let diagnostic):
        diagnostics.append(diagnostic)
      }
    }
    for name in catalogs {
      diagnostics += check(catalogAt: directory.path.appendingPathComponent(name), template: template)
    }
    return CheckReport(
      files: (templates + catalogs).map { directory.path.appendingPathComponent($0) },
      diagnostics: diagnostics)
  }

  /// Checks one catalog file; its language comes from the `Language` header, else from the file name.
  public static func check(catalogAt path: String, template: POFile?) -> [Diagnostic] {
    switch parse(path) {
    case .success(let file):
      let stem = path.lastPathComponent.split(separator: ".").first.map(String.init) ?? ""
      return check(file, template: template, fileTag: LocaleTag(stem))
    case .failure(let diagnostic):
      return [diagnostic]
    }
  }

  /// Checks a parsed catalog.
  ///
  /// - Parameters:
  ///   - template: The template to compare with, if any.
  ///   - fileTag: The language the file name says, compared with the `Language` header.
  public static func check(_ file: POFile, template: POFile?, fileTag: LocaleTag?) -> [Diagnostic] {
    var checker = CatalogChecker(file: file, template: template, fileTag: fileTag)
    checker.run()
    return checker.diagnostics.sorted { ($0.line, $0.rule.rawValue) < ($1.line, $1.rule.rawValue) }
  }

  /// Checks a template: syntax, duplicates and the placeholders of its source texts.
  public static func checkTemplate(_ file: POFile) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    var seen: [MessageLookupKey: Int] = [:]
    for entry in file.entries {
      if let first = seen[entry.key] {
        diagnostics.append(
          Diagnostic(
            file: file.path, line: entry.idLine, .error, .duplicate,
            "\(entry.key) is already defined on line \(first)"))
      } else {
        seen[entry.key] = entry.idLine
      }
      for text in [entry.id] + (entry.idPlural.map { [$0] } ?? []) {
        do throws(MessageTemplate.SyntaxError) {
          _ = try MessageTemplate(parsing: text)
        } catch {
          diagnostics.append(
            Diagnostic(
              file: file.path, line: entry.idLine, .error, .placeholder,
              "the source text has \(error)"))
        }
      }
    }
    return diagnostics
  }

  private static func parse(_ path: String) -> Result<POFile, Diagnostic> {
    do throws(POParseError) {
      return .success(try POFile(contentsOf: path))
    } catch {
      return .failure(
        Diagnostic(file: error.file, line: error.line, .error, .syntax, error.message))
    }
  }
}

extension Diagnostic: Error {}
