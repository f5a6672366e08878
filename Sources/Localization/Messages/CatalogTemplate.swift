/// Writes `locales/shieldbridge.pot`, the template translators start from, out of ``MessageKey``'s definitions.
///
/// `shieldbridge locales template` prints it; a test keeps the committed file equal to it.
public enum CatalogTemplate {
  /// The whole template.
  public static func text() -> String {
    var lines = [
      "# Messages of ShieldBridge.",
      "# The template is generated: shieldbridge locales template > locales/shieldbridge.pot",
      "# docs/developing/translating.md explains how to add a language and update a catalog.",
      "#, fuzzy",
      "msgid \"\"",
      "msgstr \"\"",
    ]
    let header = [
      "Project-Id-Version: shieldbridge", "Report-Msgid-Bugs-To: ",
      "PO-Revision-Date: YEAR-MO-DA HO:MI+ZONE",
      "Last-Translator: FULL NAME <EMAIL@ADDRESS>", "Language-Team: LANGUAGE <LL@li.org>",
      "Language: ",
      "MIME-Version: 1.0", "Content-Type: text/plain; charset=UTF-8",
      "Content-Transfer-Encoding: 8bit",
      "Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;",
    ]
    lines += header.map { "\"\(POString.encode($0 + "\n"))\"" }
    for key in MessageKey.allCases {
      let definition = key.definition
      for source in definition.sources {
        lines += entry(
          source, comment: definition.comment, key: key.rawValue, budget: definition.role.lengthBudget)
      }
    }
    // The command line's messages (`status`, `rules`, `doctor`, the errors) follow the product's.
    for key in CommandKey.allCases {
      lines += entry(key.source, comment: key.comment, key: key.rawValue, budget: nil)
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private static func entry(_ source: MessageSource, comment: String, key: String, budget: Int?) -> [String] {
    var lines = ["", "#. \(comment)"]
    var note = "Key: \(key)"
    if source.context == MessageSource.noAppContext {
      note += ", used when the app name is unknown"
    }
    if let budget { note += "; at most \(budget) characters" }
    lines.append("#. \(note).")
    let hasPlaceholders = [source.singular, source.plural ?? ""].contains {
      !((try? MessageTemplate(parsing: $0))?.placeholders.isEmpty ?? true)
    }
    if hasPlaceholders { lines.append("#, python-brace-format") }
    if let context = source.context { lines.append("msgctxt \"\(POString.encode(context))\"") }
    lines.append("msgid \"\(POString.encode(source.singular))\"")
    if let plural = source.plural {
      lines.append("msgid_plural \"\(POString.encode(plural))\"")
      lines.append("msgstr[0] \"\"")
      lines.append("msgstr[1] \"\"")
    } else {
      lines.append("msgstr \"\"")
    }
    return lines
  }
}
