import Testing

@testable import Localization

/// A catalog set made from PO text, without files.
func catalogs(_ pairs: [(String, String)]) throws -> CatalogSet {
  var catalogs: [LocaleTag: Catalog] = [:]
  for (language, text) in pairs {
    let tag = try #require(LocaleTag(language))
    catalogs[tag] = Catalog(file: try parsePO(text, path: "\(language).po"), tag: tag)
  }
  return CatalogSet(directory: nil, catalogs: catalogs, problems: [])
}

@Suite("Message templates have named placeholders and escaped braces")
struct MessageTemplateTests {
  @Test("Placeholders are found and filled; doubled braces are literal")
  func fills() throws {
    let template = try MessageTemplate(parsing: "{{{app}}} has {minutes} min, {app}")
    #expect(template.placeholders == ["app", "minutes", "app"])
    #expect(template.format(["app": "Mail", "minutes": "5"]) == "{Mail} has 5 min, Mail")
    #expect(template.format(["app": "Mail"]) == nil)
    #expect(template.literalText == "{} has  min, ")
  }

  @Test(
    "Malformed braces and format specs are refused",
    arguments: ["{", "}", "a { b", "{app", "{}", "{1}", "{app!r}", "{n:>3}", "{a b}", "{app}}"])
  func refuses(text: String) {
    #expect(throws: MessageTemplate.SyntaxError.self) { try MessageTemplate(parsing: text) }
  }
}

@Suite("Rendering falls back per message and never shows a key or a placeholder")
struct RenderingTests {
  static let german =
    header()
      + """
      #, python-brace-format
      msgid "{app} is paused"
      msgstr "{app} ist pausiert"

      msgctxt "no-app"
      msgid "This app is paused"
      msgstr "Diese App ist pausiert"

      #, fuzzy
      msgid "Solve a task"
      msgstr "Aufgabe lösen"

      msgid "A short task"
      msgstr ""

      #, python-brace-format
      msgid "What is {task}?"
      msgstr "Wie viel ist {aufgabe}?"

      #, python-brace-format
      msgid "Solve a short task to unlock {minutes} more minute for {app}."
      msgid_plural "Solve a short task to unlock {minutes} more minutes for {app}."
      msgstr[0] "Löse eine Aufgabe für {minutes} Minute in {app}."
      msgstr[1] "Löse eine Aufgabe für {minutes} Minuten in {app}."
      """

  @Test("A translation is used with its values")
  func translated() throws {
    let localizer = try catalogs([("de", Self.german)]).localizer(chain: [#require(LocaleTag("de"))]
    )
    #expect(localizer.chain.map(\.identifier) == ["de", "en"])
    #expect(localizer.render(.shieldSummary(app: "Mail")) == "Mail ist pausiert")
    #expect(
      localizer.render(.shieldBody(app: "Mail", minutes: 1))
        == "Löse eine Aufgabe für 1 Minute in Mail.")
    #expect(
      localizer.render(.shieldBody(app: "Mail", minutes: 5))
        == "Löse eine Aufgabe für 5 Minuten in Mail.")
  }

  @Test(
    "A missing, empty or blank app name picks the variant without it",
    arguments: [nil, "", "   ", "\n\t"])
  func noApp(app: String?) throws {
    let localizer = try catalogs([("de", Self.german)]).localizer(chain: [#require(LocaleTag("de"))]
    )
    #expect(localizer.render(.shieldSummary(app: app)) == "Diese App ist pausiert")
    #expect(
      Localizer.source.render(.shieldBody(app: app, minutes: 3))
        == "Solve a short task to unlock 3 more minutes.")
  }

  @Test("Fuzzy, untranslated and broken translations fall back to English")
  func fallbacks() throws {
    let localizer = try catalogs([("de", Self.german)]).localizer(chain: [#require(LocaleTag("de"))]
    )
    #expect(localizer.render(.actionPuzzle) == "Solve a task")
    #expect(localizer.render(.puzzleTitle) == "A short task")
    #expect(localizer.render(.puzzleQuestion(task: "7 × 13")) == "What is 7 × 13?")
    #expect(localizer.render(.puzzleWrong) == "That is not the answer. Here is a new task.")
  }

  @Test("The chain is tried message by message")
  func chainOrder() throws {
    let japanese =
      header(language: "ja", pluralForms: "nplurals=1; plural=0;")
        + """
        msgid "Solve a task"
        msgstr "課題を解く"
        """
    let set = try catalogs([("de", Self.german), ("ja", japanese)])
    let localizer = set.localizer(chain: [
      try #require(LocaleTag("ja")), try #require(LocaleTag("de")),
    ])
    #expect(localizer.render(.actionPuzzle) == "課題を解く")
    #expect(localizer.render(.shieldSummary(app: "Mail")) == "Mail ist pausiert")
    #expect(localizer.render(.puzzlePrompt) == "Answer:")
  }

  @Test("A plural message without a usable form falls back to English")
  func brokenPlurals() throws {
    let threeForms =
      header(pluralForms: "nplurals=3; plural=n % 3;")
        + """
        msgid "Solve a short task to unlock {minutes} more minute for {app}."
        msgid_plural "Solve a short task to unlock {minutes} more minutes for {app}."
        msgstr[0] "null {minutes} {app}"
        msgstr[1] "eins {minutes} {app}"
        """
    let divides =
      header(pluralForms: "nplurals=2; plural=10 / n;")
        + """
        msgid "Solve a short task to unlock {minutes} more minute for {app}."
        msgid_plural "Solve a short task to unlock {minutes} more minutes for {app}."
        msgstr[0] "null {minutes} {app}"
        msgstr[1] "eins {minutes} {app}"
        """
    let set = try catalogs([("de", threeForms), ("ru", divides)])
    let german = set.localizer(chain: [try #require(LocaleTag("de"))])
    #expect(german.render(.shieldBody(app: "X", minutes: 4)) == "eins 4 X")
    #expect(german.render(.shieldBody(app: "X", minutes: 5)).hasPrefix("Solve a short task"))
    let russian = set.localizer(chain: [try #require(LocaleTag("ru"))])
    #expect(russian.render(.shieldBody(app: "X", minutes: 0)).hasPrefix("Solve a short task"))
    #expect(russian.render(.shieldBody(app: "X", minutes: 7)) == "eins 7 X")
  }

  @Test("Markup escaping covers the translation and the inserted values")
  func markup() throws {
    let text =
      header()
        + """
        #, python-brace-format
        msgid "{app} is paused"
        msgstr "{app} ist \\"pausiert\\" & 'still'"
        """
    let localizer = try catalogs([("de", text)]).localizer(chain: [#require(LocaleTag("de"))])
    #expect(
      localizer.render(.shieldSummary(app: "<b>A&B</b>"), markup: true)
        == "&lt;b&gt;A&amp;B&lt;/b&gt; ist &quot;pausiert&quot; &amp; &apos;still&apos;")
    #expect(
      localizer.render(.shieldSummary(app: "<b>"), markup: false)
        == "<b> ist \"pausiert\" & 'still'")
    #expect(
      Localizer.source.render(.shieldUsedUp(app: "Tom's"), markup: true).hasPrefix(
        "Today’s extra time for Tom&apos;s "))
  }

  @Test("Control characters in values become spaces")
  func controlCharacters() {
    #expect(Localizer.source.render(.shieldSummary(app: "Mail\napp\u{7}")) == "Mail app is paused")
    #expect(Localizer.source.render(.actionView(view: "")) == "Open home")
  }

  @Test(
    "Every English message renders without braces for any value",
    arguments: [nil, "", "Firefox", "{app}"])
  func english(app: String?) {
    for minutes in [0, 1, 2, 5, 21, 120] {
      for message in ProductMessage.all(app: app, minutes: minutes, view: "direct", task: "47 + 38") {
        let text = Localizer.source.render(message)
        #expect(!text.isEmpty)
        #expect(app == "{app}" || !text.contains("{"), "\(message): \(text)")
      }
    }
  }
}

@Suite("Pseudo-locales rewrite the English text and keep placeholders")
struct PseudoLocaleTests {
  @Test("en-XA accents, brackets and lengthens by about 40%")
  func accented() throws {
    let localizer = CatalogSet.empty.localizer(chain: [PseudoLocale.accented.tag])
    let english = Localizer.source.render(.shieldUsedUp(app: "Firefox"))
    let text = localizer.render(.shieldUsedUp(app: "Firefox"))
    #expect(text.hasPrefix("[Ţöðáý’š éẋţŕá ţîɱé ƒöŕ Firefox îš"))
    #expect(text.hasSuffix("]"))
    let ratio = Double(text.count) / Double(english.count)
    #expect(ratio >= 1.35 && ratio <= 1.6, "ratio \(ratio)")
    for message in ProductMessage.all(app: "Firefox", minutes: 5, view: "direct", task: "47 + 38") {
      let pseudo = localizer.render(message)
      #expect(pseudo.hasPrefix("[") && pseudo.hasSuffix("]") && !pseudo.contains("{"), "\(pseudo)")
    }
    #expect(localizer.render(.shieldCloseOnly).contains("“shieldbridge puzzle”"))
  }

  @Test("ar-XB runs right to left and leaves the inserted values as they are")
  func bidi() {
    let localizer = CatalogSet.empty.localizer(chain: [PseudoLocale.bidi.tag])
    #expect(localizer.isRightToLeft)
    #expect(
      localizer.render(.shieldSummary(app: "Firefox"))
        == "\u{200F}Firefox\u{202E} is paused\u{202C}")
    #expect(localizer.render(.actionView(view: "direct")) == "\u{200F}\u{202E}Open \u{202C}direct")
  }
}

@Suite("A preview lays out the shield notification as a server gets it")
struct NotificationPreviewTests {
  @Test("Summary, body and the two action labels, with markup on the body only")
  func notification() throws {
    let catalogs = CatalogSet.load(from: CatalogDirectory(path: Repository.locales))
    let german = try #require(LocaleTag("de"))
    let preview = Preview.notification(
      german, catalogs: catalogs,
      options: PreviewOptions(app: "A&B", minutes: 1, view: "direct", markup: true))
    #expect(preview.summary.text == "A&B ist pausiert")
    #expect(preview.summary.role == .summary)
    #expect(
      preview.body.text == "Löse eine kurze Aufgabe, um 1 weitere Minute für A&amp;B freizugeben.")
    #expect(preview.actions.map(\.key) == [.actionWayOut, .actionPuzzle, .actionView])
    #expect(preview.actions.map(\.text) == ["A&B schließen", "Aufgabe lösen", "direct öffnen"])
    #expect(
      Preview.allLocales(in: catalogs).map(\.identifier) == [
        "en", "ar", "de", "ja", "pl", "ru", "en-XA", "ar-XB",
      ])
  }
}
