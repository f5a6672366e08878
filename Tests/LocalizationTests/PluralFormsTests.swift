import Foundation
import TestSupport
import Testing

@testable import Localization

/// One committed table: the plural index of 0…1000 in a language, from Babel (scripts/plural-tables).
struct PluralTable {
  let language: String
  let indexes: [Int]
  let categories: [String]

  init(language: String) throws {
    self.language = language
    let text = try String(
      contentsOfFile: Repository.fixtures + "/plural-tables/\(language).txt", encoding: .utf8)
    var indexes: [Int] = []
    var categories: [String] = []
    for line in text.split(separator: "\n") {
      if line.hasPrefix("# categories: ") {
        categories = line.dropFirst("# categories: ".count).split(separator: " ").map {
          String($0.split(separator: "=")[1])
        }
      } else if !line.hasPrefix("#"), let colon = line.firstIndex(of: ":") {
        #expect(Int(line[..<colon]) == indexes.count, "the table of \(language) skips a line")
        indexes += line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces).map {
          Int(String($0)) ?? -1
        }
      }
    }
    self.indexes = indexes
    self.categories = categories
  }

  static var languages: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: Repository.fixtures + "/plural-tables"))
      ?? [])
      .filter { $0.hasSuffix(".txt") }.map { String($0.dropLast(4)) }.sorted()
  }
}

@Suite("Plural-Forms expressions evaluate like gettext's")
struct PluralExpressionTests {
  @Test(
    "C operators, precedence and unsigned arithmetic",
    arguments: [
      ("n", 7, 7), ("42", 0, 42), ("!n", 0, 1), ("!n", 3, 0), ("!!n", 5, 1),
      ("n + 2 * 3", 1, 7), ("(n + 2) * 3", 1, 9), ("n - 1", 0, UInt64.max),
      ("n * 4294967296", 4_294_967_296, 0),
      ("n / 3", 10, 3), ("n % 3", 10, 1), ("n < 2", 1, 1), ("n > 2", 1, 0), ("n <= 1", 1, 1),
      ("n >= 2", 1, 0),
      ("n == 1", 1, 1), ("n != 1", 1, 0), ("n == 1 || n == 2", 2, 1), ("n > 0 && n < 5", 5, 0),
      ("n == 0 ? 7 : n == 1 ? 8 : 9", 1, 8), ("n ? n : 3", 0, 3), ("1 ? 2 ? 3 : 4 : 5", 0, 3),
      ("n != 0 && 10 / n == 2", 0, 0), ("n == 0 || 10 / n == 2", 0, 1),
      ("n==1?0:n%10>=2&&n%10<=4&&(n%100<10||n%100>=20)?1:2", 22, 1),
      ("1 < 2 == 1", 0, 1), ("2 + 3 < 6 && 1", 0, 1), ("8 - 3 - 2", 0, 3), ("64 / 4 / 2", 0, 8),
    ] as [(String, UInt64, UInt64)])
  func evaluates(expression: String, n: UInt64, expected: UInt64) throws {
    #expect(try PluralExpression(parsing: expression).evaluate(n) == expected)
  }

  @Test(
    "Text outside the C subset is a syntax error with its offset",
    arguments: [
      "", "n +", "(n", "n)", "n ? 1", "x", "nn", "n ** 2", "-1", "0x10", "n = 1", "1.5", "n ; 1",
      "99999999999999999999", "n ! 1", "n ? : 1",
    ])
  func syntaxErrors(expression: String) {
    #expect {
      _ = try PluralExpression(parsing: expression)
    } throws: { error in
      (error as? PluralFormsError)?.code == .syntax && (error as? PluralFormsError)?.offset != nil
    }
  }

  @Test("Deep or long hostile expressions are refused before they can exhaust the stack")
  func hostileExpressions() {
    let cases = [
      String(repeating: "(", count: 100_000) + "n" + String(repeating: ")", count: 100_000),
      String(repeating: "!", count: 500) + "n",
      String(repeating: "n + ", count: 200) + "n",
      String(repeating: "n ? 1 : ", count: 100) + "0",
    ]
    for text in cases {
      #expect {
        _ = try PluralExpression(parsing: text)
      } throws: { error in
        let code = (error as? PluralFormsError)?.code
        return code == .tooDeep || code == .tooLong
      }
    }
    #expect(throws: PluralFormsError.self) {
      try PluralExpression(parsing: String(repeating: " ", count: 2000) + "n")
    }
  }

  @Test("Division by zero is an error for that n, not a trap")
  func divisionByZero() throws {
    let expression = try PluralExpression(parsing: "10 / n + n % (n - 1)")
    #expect(
      throws: PluralFormsError(
        .divisionByZero, "division by zero in the plural expression for n = 0")
    ) {
      try expression.evaluate(0)
    }
    #expect(throws: PluralFormsError.self) { try expression.evaluate(1) }
    #expect(try expression.evaluate(2) == 5)
  }

  @Test("Random token soup never crashes the parser", arguments: 0..<4)
  func tokenSoup(seed: UInt64) {
    var generator = SeededGenerator(seed: seed)
    let tokens = [
      "n", "1", "0", "!", "==", "!=", "<", ">", "<=", ">=", "%", "+", "-", "*", "/", "&&", "||",
      "?", ":", "(", ")", " ",
    ]
    for _ in 0..<2000 {
      let text = (0..<Int.random(in: 1...40, using: &generator)).map { _ in
        tokens.randomElement(using: &generator) ?? ""
      }.joined()
      guard let expression = try? PluralExpression(parsing: text) else { continue }
      for n: UInt64 in [0, 1, 2, 11, 1000, .max] { _ = try? expression.evaluate(n) }
    }
  }
}

@Suite("Plural-Forms headers give an index below nplurals")
struct PluralFormsHeaderTests {
  @Test("A header is read with spaces and without the last semicolon")
  func reads() throws {
    let forms = try PluralForms(header: " nplurals = 3 ;plural=n%10==1 ? 0 : n ? 1 : 2")
    #expect(forms.count == 3)
    #expect(try forms.index(for: 21) == 0)
    #expect(try forms.index(for: 0) == 2)
  }

  @Test(
    "Headers without a count or an expression, or with a count out of range, are refused",
    arguments: [
      ("plural=n != 1;", PluralFormsError.Code.badCount), ("nplurals=2;", .missingExpression),
      ("nplurals=two; plural=n != 1;", .badCount), ("nplurals=0; plural=0;", .badCount),
      ("nplurals=21; plural=0;", .badCount), ("nplurals=2; plural=n +;", .syntax),
      ("nplurals=2; junk", .syntax),
    ])
  func refused(header: String, code: PluralFormsError.Code) {
    #expect {
      _ = try PluralForms(header: header)
    } throws: { error in
      (error as? PluralFormsError)?.code == code
    }
  }

  @Test("An index at or above nplurals is an error")
  func outOfRange() throws {
    let forms = try PluralForms(header: "nplurals=2; plural=n % 3;")
    #expect(try forms.index(for: 4) == 1)
    #expect(throws: PluralFormsError.self) { try forms.index(for: 5) }
  }
}

@Suite("The plural rules agree with CLDR, by Babel's tables for 0…1000")
struct PluralTableTests {
  @Test(
    "Each shipped catalog's header gives the index of the table",
    arguments: ["de", "ja", "ru", "pl", "ar"])
  func shippedCatalogs(language: String) throws {
    let table = try PluralTable(language: language)
    let file = try POFile(contentsOf: Repository.locales + "/\(language).po")
    let forms = try PluralForms(header: try #require(file.header?["Plural-Forms"]))
    #expect(forms.count == table.categories.count)
    for n in 0...1000 {
      #expect(try forms.index(for: UInt64(n)) == table.indexes[n], "\(language), n = \(n)")
    }
  }

  @Test("English, the source language, follows its table")
  func english() throws {
    let table = try PluralTable(language: "en")
    #expect(table.categories == ["one", "other"])
    for n in 0...1000 {
      #expect(try PluralForms.germanic.index(for: UInt64(n)) == table.indexes[n])
    }
  }

  @Test("Every rule the check knows follows its table", arguments: PluralTable.languages)
  func knownRules(language: String) throws {
    let table = try PluralTable(language: language)
    #expect(table.indexes.count == 1001)
    let forms = try #require(CLDRPluralRules.forms(for: language))
    #expect(forms.count == table.categories.count)
    for n in 0...1000 {
      #expect(try forms.index(for: UInt64(n)) == table.indexes[n], "\(language), n = \(n)")
    }
  }

  @Test("Every rule compiles and has a table, and the test languages are there")
  func tableCoverage() {
    let written = Set(
      CLDRPluralRules.sources.flatMap { $0.languages.split(separator: " ").map(String.init) })
    #expect(Set(CLDRPluralRules.languages) == written)
    #expect(Set(PluralTable.languages) == written)
    #expect(Set(["en", "de", "ja", "ru", "pl", "ar"]).isSubset(of: written))
    #expect(CLDRPluralRules.forms(for: "pt_BR")?.count == 2)
    #expect(CLDRPluralRules.forms(for: "tlh") == nil)
  }
}
