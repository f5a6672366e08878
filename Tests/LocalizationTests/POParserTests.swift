import TestSupport
import Testing

@testable import Localization

@Suite("The PO parser reads gettext's syntax")
struct POParserTests {
  @Test("Comments of every kind land on the entry that follows them")
  func comments() throws {
    let file = try parsePO(
      header()
        + """
        # A translator's note
        #
        #. For translators: {app} is the app's name.
        #: Sources/A.swift:12 Sources/B.swift:3
        #, fuzzy, python-brace-format
        #| msgid "{app} was paused"
        msgid "{app} is paused"
        msgstr "{app} ist pausiert"
        """)
    let entry = try #require(file.entries.first)
    #expect(entry.translatorComments == ["A translator's note", ""])
    #expect(entry.extractedComments == ["For translators: {app} is the app's name."])
    #expect(entry.references == ["Sources/A.swift:12", "Sources/B.swift:3"])
    #expect(entry.flags == ["fuzzy", "python-brace-format"])
    #expect(entry.previous == ["msgid \"{app} was paused\""])
    #expect(entry.isFuzzy)
    #expect(entry.line == 6)
    #expect(entry.idLine == 12)
    #expect(entry.translationLines == [13])
  }

  @Test("Contexts, plural forms and multi-line strings are read in full")
  func contextsAndPlurals() throws {
    let file = try parsePO(
      header()
        + """
        msgctxt "no-app"
        msgid ""
        "This app "
        "is paused"
        msgstr "Diese App " "ist pausiert"

        msgid "{minutes} minute"
        msgid_plural "{minutes} minutes"
        msgstr[0] "{minutes} Minute"
        msgstr[1] ""
        "{minutes} Minuten"
        """)
    #expect(file.entries.count == 2)
    #expect(file.entries[0].context == "no-app")
    #expect(file.entries[0].id == "This app is paused")
    #expect(file.entries[0].translations == ["Diese App ist pausiert"])
    #expect(file.entries[1].idPlural == "{minutes} minutes")
    #expect(file.entries[1].translations == ["{minutes} Minute", "{minutes} Minuten"])
    #expect(file.entries[1].translationLines == [14, 15])
  }

  @Test("C escapes decode as gettext does, octal and hex included")
  func escapes() throws {
    let file = try parsePO(
      #"""
      msgid "a\n\t\"\\\101\x42\303\244"
      msgstr "\a\b\f\v\r"
      """#)
    #expect(file.entries[0].id == "a\n\t\"\\ABä")
    #expect(file.entries[0].translations == ["\u{07}\u{08}\u{0C}\u{0B}\r"])
  }

  @Test(
    "Escapes outside C's set are refused, as msgfmt refuses them",
    arguments: [#"\?"#, #"\'"#, #"\q"#, #"\xg"#, #"\0"#, #"\400"#])
  func badEscapes(escape: String) throws {
    let error = try #require(parseError("msgid \"a\(escape)b\"\nmsgstr \"x\""))
    #expect(error.code == .badEscape)
    #expect(error.line == 1)
  }

  @Test("Obsolete entries are skipped with the comments written for them")
  func obsolete() throws {
    let file = try parsePO(
      header()
        + """
        # about the old one
        #~ msgid "Old"
        #~ msgstr "Alt"

        msgid "New"
        msgstr "Neu"
        #~ msgid "Older"
        #~ msgstr "Älter"
        """)
    #expect(file.entries.map(\.id) == ["New"])
    #expect(file.entries[0].translatorComments.isEmpty)
  }

  @Test("The header's fields are read with the line each one is on")
  func headerFields() throws {
    let file = try parsePO(
      """
      msgid ""
      msgstr ""
      "Project-Id-Version: shieldbridge\\n"
      "Language: ru\\n"
      "Content-Type: text/plain; charset=UTF-8\\n"
      "Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"
      """)
    let header = try #require(file.header)
    #expect(header["language"] == "ru")
    #expect(header.charset == "utf-8")
    #expect(header.field("Plural-Forms")?.line == 6)
    #expect(header.field("Language")?.line == 4)
    #expect(file.entries.isEmpty)
  }

  @Test("CRLF line ends and a byte-order mark are accepted")
  func lineEnds() throws {
    let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("msgid \"a\"\r\nmsgstr \"b\"\r\n".utf8)
    let file = try POFile(parsing: bytes, path: "crlf.po")
    #expect(file.entries.first?.translations == ["b"])
  }

  @Test(
    "Broken entries are reported with their line",
    arguments: [
      ("msgid \"a\"\n\nmsgid \"b\"\nmsgstr \"c\"", POParseError.Code.missingTranslation, 1),
      ("msgid \"a\"\n# note\nmsgstr \"b\"", .misplacedKeyword, 2),
      ("msgstr \"b\"", .misplacedKeyword, 1),
      ("msgid \"a\"\nmsgstr[0] \"b\"", .badPluralIndex, 2),
      ("msgid \"a\"\nmsgid_plural \"as\"\nmsgstr \"b\"", .badPluralIndex, 3),
      ("msgid \"a\"\nmsgid_plural \"as\"\nmsgstr[1] \"b\"", .badPluralIndex, 3),
      ("msgid \"a\"\nmsgid_plural \"as\"\nmsgstr[0 \"b\"", .badPluralIndex, 3),
      ("msgid \"a\nmsgstr \"b\"", .badString, 1),
      ("msgid \"a\" x\nmsgstr \"b\"", .badString, 1),
      ("msgid\nmsgstr \"b\"", .unexpectedLine, 1),
      ("msgid \"a\"\nmsgstr \"b\"\nmsgfoo \"c\"", .unexpectedLine, 3),
      ("\"orphan\"", .unexpectedLine, 1),
      ("msgid \"a\"\nmsgstr \"\\303\"", .invalidUTF8, 2),
      ("msgid \"a\"", .missingTranslation, 1),
      ("msgctxt \"c\"\nmsgstr \"b\"", .misplacedKeyword, 2),
    ])
  func brokenEntries(text: String, code: POParseError.Code, line: Int) throws {
    let error = try #require(parseError(text))
    #expect(error.code == code, "\(error)")
    #expect(error.line == line, "\(error)")
    #expect(error.file == "test.po")
  }

  @Test("Reading a missing file names the file")
  func missingFile() {
    #expect {
      _ = try POFile(contentsOf: "/nonexistent/de.po")
    } throws: { error in
      (error as? POParseError)?.code == .unreadable
        && (error as? POParseError)?.file == "/nonexistent/de.po"
    }
  }

  @Test("Hostile input ends in a result or an error, never a crash, in linear time")
  func hostileInput() {
    let huge = "msgid \"" + String(repeating: "\\\\", count: 200_000) + "\"\nmsgstr \"x\""
    #expect(parseError(huge) == nil)
    let manyForms =
      "msgid \"a\"\nmsgid_plural \"b\"\n"
      + (0..<5000).map { "msgstr[\($0)] \"x\"" }.joined(separator: "\n")
    #expect(parseError(manyForms) == nil)
    #expect(
      parseError(
        "msgid \"a\"\nmsgid_plural \"b\"\n"
          + String(repeating: "msgstr[99999999999999999999] \"x\"\n", count: 100))?
        .code == .badPluralIndex)
    #expect(parseError(String(repeating: "\"", count: 100_001))?.code == .unexpectedLine)
    #expect(parseError("msgid \"a\u{0}\"\nmsgstr \"b\"")?.code == .unexpectedLine)
    let tooLarge = [UInt8](repeating: 0x23, count: POFile.maximumSize + 1)
    #expect(throws: POParseError.self) { try POFile(parsing: tooLarge, path: "big.po") }
  }

  @Test("Random mutations of a real catalog never crash the parser")
  func mutations() throws {
    let original = Array(
      try String(contentsOfFile: Repository.locales + "/ru.po", encoding: .utf8).utf8)
    var generator = SeededGenerator(seed: 0x5EED_0005)
    let alphabet = Array("\"\\#~[]0n \nmsgidstrctxt_plural{}".utf8) + [0xC3, 0xFF, 0x00]
    for _ in 0..<300 {
      var bytes = original
      for _ in 0..<Int.random(in: 1...8, using: &generator) {
        let index = Int.random(in: 0..<bytes.count, using: &generator)
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: bytes[index] = alphabet.randomElement(using: &generator) ?? 0
        case 1: bytes.remove(at: index)
        default: bytes.insert(alphabet.randomElement(using: &generator) ?? 0, at: index)
        }
      }
      do throws(POParseError) {
        _ = try POFile(parsing: bytes, path: "mutant.po")
      } catch {
        #expect(error.line >= 0 && error.line <= bytes.count + 1)
        #expect(!error.message.isEmpty)
      }
    }
  }

  @Test("Encoding a string and parsing it back gives the string", arguments: 0..<4)
  func encodeRoundTrip(seed: UInt64) throws {
    var generator = SeededGenerator(seed: seed)
    let pieces = ["a", "ä", "\n", "\t", "\"", "\\", "{app}", "\u{1}", "日本", " ", "\r", "\u{7F}"]
    for _ in 0..<50 {
      let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in
        pieces.randomElement(using: &generator) ?? ""
      }.joined()
      let file = try parsePO("msgid \"x\"\nmsgstr \"\(POString.encode(text))\"")
      #expect(file.entries[0].translations == [text])
    }
  }
}
