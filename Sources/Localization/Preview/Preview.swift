/// The values a preview fills into the messages.
public struct PreviewOptions: Hashable, Sendable {
  /// The app name; `nil` or empty shows the variants without it.
  public var app: String?
  /// The minutes a task unlocks; it also chooses the plural forms.
  public var minutes: Int
  /// The view name of the second action.
  public var view: String
  /// The arithmetic task of the puzzle.
  public var task: String
  /// Escape the texts for servers with `body-markup`.
  public var markup: Bool

  public init(
    app: String? = "Firefox", minutes: Int = 5, view: String = "direct", task: String = "47 + 38",
    markup: Bool = false
  ) {
    self.app = app
    self.minutes = minutes
    self.view = view
    self.task = task
    self.markup = markup
  }
}

/// One rendered message of a preview.
public struct PreviewItem: Hashable, Sendable {
  /// The locale the preview was asked for (the text may come from a fallback).
  public var locale: LocaleTag
  public var key: MessageKey
  public var role: MessageRole
  public var text: String
}

/// The shield notification of one locale, laid out as a notification server gets it.
public struct NotificationPreview: Hashable, Sendable {
  public var locale: LocaleTag
  public var summary: PreviewItem
  public var body: PreviewItem
  /// The action labels: the puzzle first (the default action), then the view.
  public var actions: [PreviewItem]
}

/// Rendering every message for translators and QA (`shieldbridge locales preview`).
public enum Preview {
  /// The locales of `--all`: English, every catalog, then the pseudo-locales.
  public static func allLocales(in catalogs: CatalogSet) -> [LocaleTag] {
    [.source] + catalogs.tags.filter { $0 != .source } + PseudoLocale.allCases.map(\.tag)
  }

  /// The localizer that shows `locale`: its catalog (or its language's), then English.
  public static func localizer(for locale: LocaleTag, catalogs: CatalogSet) -> Localizer {
    catalogs.localizer(chain: locale.fallbacks)
  }

  /// Every product message in `locale`, in key order.
  public static func render(_ locale: LocaleTag, catalogs: CatalogSet, options: PreviewOptions)
    -> [PreviewItem]
  {
    let localizer = localizer(for: locale, catalogs: catalogs)
    return ProductMessage.all(
      app: options.app, minutes: options.minutes, view: options.view, task: options.task
    )
    .map { item($0, locale: locale, localizer: localizer, markup: options.markup) }
  }

  /// The shield notification in `locale`: summary, body and the action labels (the way out first).
  ///
  /// With `options.markup` only the body is escaped: the specification gives
  /// markup to the body alone, summaries and labels are plain text.
  public static func notification(
    _ locale: LocaleTag, catalogs: CatalogSet, options: PreviewOptions
  ) -> NotificationPreview {
    let localizer = localizer(for: locale, catalogs: catalogs)
    func render(_ message: ProductMessage, markup: Bool = false) -> PreviewItem {
      item(message, locale: locale, localizer: localizer, markup: markup)
    }
    return NotificationPreview(
      locale: locale, summary: render(.shieldSummary(app: options.app)),
      body: render(.shieldBody(app: options.app, minutes: options.minutes), markup: options.markup),
      actions: [
        render(.actionWayOut(app: options.app)), render(.actionPuzzle), render(.actionView(view: options.view)),
      ])
  }

  private static func item(
    _ message: ProductMessage, locale: LocaleTag, localizer: Localizer, markup: Bool
  ) -> PreviewItem {
    PreviewItem(
      locale: locale, key: message.key, role: message.key.definition.role,
      text: localizer.render(message, markup: markup))
  }
}
