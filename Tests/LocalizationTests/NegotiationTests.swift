import Testing

@testable import Localization

@Suite("Locale tags read POSIX names and BCP 47 tags")
struct LocaleTagTests {
  @Test(
    "Names are normalized and lose their codeset and modifier",
    arguments: [
      ("de", "de"), ("de_AT", "de-AT"), ("de_AT.UTF-8", "de-AT"), ("de_AT.UTF-8@euro", "de-AT"),
      ("ca@valencia", "ca"),
      ("DE-at", "de-AT"), ("sr_RS@latin", "sr-RS"), ("sr-latn-rs", "sr-Latn-RS"),
      ("es-419", "es-419"),
      ("zh_Hant", "zh-Hant"), ("en-XA", "en-XA"), ("de-DE-1996", "de-DE"), ("fil", "fil"),
    ])
  func normalizes(name: String, identifier: String) {
    #expect(LocaleTag(name)?.identifier == identifier)
  }

  @Test(
    "C, POSIX and text that is no tag give nil",
    arguments: ["C", "POSIX", "", "d", "deutsch", "1de", "de!", "ä"])
  func refuses(name: String) {
    #expect(LocaleTag(name) == nil)
  }

  @Test("A tag falls back to less specific ones")
  func fallbacks() {
    #expect(
      LocaleTag("sr-Latn-RS")?.fallbacks.map(\.identifier) == ["sr-Latn-RS", "sr-Latn", "sr"])
    #expect(LocaleTag("de_AT")?.fallbacks.map(\.identifier) == ["de-AT", "de"])
    #expect(LocaleTag("ja")?.fallbacks.map(\.identifier) == ["ja"])
  }
}

@Suite("Negotiation follows gettext: LANGUAGE, then LC_ALL, LC_MESSAGES, LANG")
struct NegotiationTests {
  static let available: Set<String> = ["de", "ja", "ru", "pl", "ar", "pt-BR"]

  @Test(
    "The chain for an environment",
    arguments: [
      ([:], ["en"]),
      (["LANG": "de_DE.UTF-8"], ["de", "en"]),
      (["LANG": "de_AT.UTF-8@euro"], ["de", "en"]),
      (["LANG": "fr_FR.UTF-8"], ["en"]),
      (["LANG": "C"], ["en"]),
      (["LANG": "C.UTF-8", "LANGUAGE": "de"], ["en"]),
      (["LANG": "POSIX", "LANGUAGE": "de"], ["en"]),
      (["LANGUAGE": "de"], ["en"]),
      (["LANG": "ru_RU.UTF-8", "LANGUAGE": "ja:de"], ["ja", "de", "en"]),
      (["LANG": "ru_RU.UTF-8", "LANGUAGE": ""], ["ru", "en"]),
      (["LANG": "ru_RU.UTF-8", "LANGUAGE": "fr:pl_PL:de"], ["pl", "de", "en"]),
      (["LANG": "ru_RU.UTF-8", "LANGUAGE": "en:de"], ["en"]),
      (["LANG": "ru_RU.UTF-8", "LANGUAGE": "en_GB:de"], ["en"]),
      (["LANG": "ru_RU.UTF-8", "LANGUAGE": "::ja::"], ["ja", "en"]),
      (["LANG": "ru_RU.UTF-8", "LANGUAGE": "C:de"], ["de", "en"]),
      (["LANG": "de_DE.UTF-8", "LC_MESSAGES": "ja_JP.UTF-8"], ["ja", "en"]),
      (
        ["LANG": "de_DE.UTF-8", "LC_MESSAGES": "ja_JP.UTF-8", "LC_ALL": "pl_PL.UTF-8"],
        ["pl", "en"]
      ),
      (["LANG": "de_DE.UTF-8", "LC_ALL": ""], ["de", "en"]),
      (["LANG": "de_DE.UTF-8", "LC_ALL": "C"], ["en"]),
      (["LC_ALL": "C", "LANGUAGE": "de"], ["en"]),
      (["LANG": "pt_BR.UTF-8"], ["pt-BR", "en"]),
      (["LANG": "pt_PT.UTF-8"], ["en"]),
      (["LANG": "en_US.UTF-8", "LANGUAGE": "en_XA:de"], ["en-XA", "en"]),
      (["LANG": "ar_EG.UTF-8"], ["ar", "en"]),
      (["LANG": "ar_XB"], ["ar-XB", "ar", "en"]),
      (["LANG": "garbage!"], ["en"]),
    ] as [([String: String], [String])])
  func chain(environment: [String: String], expected: [String]) {
    let chain = LocaleNegotiation.chain(environment: environment) { tag in
      Self.available.contains(tag.identifier) || PseudoLocale(tag: tag) != nil
    }
    #expect(chain.map(\.identifier) == expected)
  }

  @Test("Candidates list every fallback before filtering, ending with en")
  func candidates() {
    let environment = ["LANG": "de_AT.UTF-8", "LANGUAGE": "sr_RS@latin:de_CH"]
    #expect(
      LocaleNegotiation.candidates(environment: environment).map(\.identifier) == [
        "sr-RS", "sr", "de-CH", "de", "en",
      ])
  }

  @Test("An explicit choice replaces the environment, C locale included")
  func override() {
    let environment = ["LANG": "C", "LANGUAGE": "ja"]
    let chain = LocaleNegotiation.chain(environment: environment, override: "de_AT:ru") { _ in true
    }
    #expect(chain.map(\.identifier) == ["de-AT", "de", "ru", "en"])
    #expect(
      LocaleNegotiation.chain(environment: environment, override: "") { _ in true }.map(
        \.identifier) == ["en"])
  }
}
