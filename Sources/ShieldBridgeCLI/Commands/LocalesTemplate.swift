import Localization

extension Command {
  /// `shieldbridge locales template`.
  static let localesTemplate = Command(
    name: "template",
    abstract: "Print the template (shieldbridge.pot) of the product's messages.",
    discussion:
      "After changing a message: shieldbridge locales template > locales/shieldbridge.pot",
    body: { _ in
      Output.out(bytes: Array(CatalogTemplate.text().utf8))
      return .success
    }
  )
}
