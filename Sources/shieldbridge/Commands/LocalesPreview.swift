import JSON
import Localization

extension Command {
  /// `shieldbridge locales preview [--locale L | --all] [--app NAME] [--minutes N] [--json]`.
  static let localesPreview = Command(
    name: "preview",
    abstract: "Render every message in a locale, or in all of them.",
    options: [
      .value("--locale", "L", "The locale to render (default: negotiated from the environment)."),
      .flag("--all", "Every shipped locale, English and the pseudo-locales en-XA and ar-XB."),
      .value(
        "--app", "NAME",
        "The app name (default: Firefox; an empty name shows the variants without it)."),
      .value(
        "--minutes", "N",
        "The minutes a task unlocks, which also picks the plural forms (default: 5)."),
      .flag("--markup", "Escape & < > \" ' as for servers with body markup."),
      .flag("--json", "One JSON object per message: {\"locale\":…,\"key\":…,\"text\":…}."),
      LocalesSupport.directoryOption,
    ],
    body: { invocation in
      if invocation.flag("--all"), invocation.value("--locale") != nil {
        throw CommandFailure.usage("--locale and --all exclude each other")
      }
      let catalogs = LocalesSupport.load(try LocalesSupport.directory(invocation.value("--dir")))
      let locales: [LocaleTag]
      if invocation.flag("--all") {
        locales = Preview.allLocales(in: catalogs)
      } else if let locale = invocation.value("--locale") {
        let tag = try LocalesSupport.tag(locale)
        if !tag.fallbacks.contains(where: catalogs.isAvailable) {
          Output.err("shieldbridge: no catalog for '\(tag)'; the messages are shown in English")
        }
        locales = [tag]
      } else {
        locales = [catalogs.localizer().locale]
      }
      let options = PreviewOptions(
        app: invocation.value("--app") ?? "Firefox",
        minutes: try invocation.integer("--minutes", in: 0...1_000_000) ?? 5,
        markup: invocation.flag("--markup"))
      let items = locales.flatMap { Preview.render($0, catalogs: catalogs, options: options) }
      if invocation.flag("--json") {
        for item in items {
          Output.out(
            JSONValue.object([
              ("locale", .string(item.locale.identifier)), ("key", .string(item.key.rawValue)),
              ("text", .string(item.text)),
            ]).serialized)
        }
      } else {
        let localeWidth = items.map(\.locale.identifier.count).max() ?? 0
        let keyWidth = items.map(\.key.rawValue.count).max() ?? 0
        for item in items {
          Output.out(
            item.locale.identifier.padded(to: localeWidth) + "  "
              + item.key.rawValue.padded(to: keyWidth) + "  "
              + item.text)
        }
      }
      return .success
    }
  )
}

extension String {
  fileprivate func padded(to width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
