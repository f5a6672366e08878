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

/// One rendered command-line message of a preview.
public struct CommandPreviewItem: Hashable, Sendable {
  /// The locale the preview was asked for (the text may come from a fallback).
  public var locale: LocaleTag
  public var key: CommandKey
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

  /// Every command-line message (``CommandKey``) in `locale`, in the order they are declared, with sample values.
  ///
  /// The app's name and the number are the preview's (`options.app`, `options.minutes`, which also picks the
  /// plural form); the other placeholders get a value like the one the command inserts (``commandSample``).
  public static func renderCommands(_ locale: LocaleTag, catalogs: CatalogSet, options: PreviewOptions)
    -> [CommandPreviewItem]
  {
    let localizer = localizer(for: locale, catalogs: catalogs)
    return CommandKey.allCases.map { key in
      CommandPreviewItem(
        locale: locale, key: key, text: localizer.render(sample(key, options: options, localizer: localizer)))
    }
  }

  /// The names of the placeholders that may carry a message's number, the first one found choosing its form.
  private static let countNames = ["count", "minutes", "seconds", "hours", "days", "high"]

  /// `key` with a sample value for each placeholder its English has, but the commands it names.
  static func sample(_ key: CommandKey, options: PreviewOptions, localizer: Localizer) -> CommandMessage {
    let texts = [key.source.singular] + (key.source.plural.map { [$0] } ?? [])
    var names: [String] = []
    for text in texts {
      for name in (try? MessageTemplate(parsing: text))?.placeholders ?? [] where !names.contains(name) {
        names.append(name)
      }
    }
    names.removeAll { key.commands[$0] != nil }
    var values: [String: String] = [:]
    for name in names {
      if let nested = nestedSamples[name], nested != key {
        values[name] = localizer.render(sample(nested, options: options, localizer: localizer))
      } else {
        values[name] = commandSample(name, options: options)
      }
    }
    guard key.source.plural != nil else { return CommandMessage(key, values) }
    // A plural message whose text does not say its number (setup.existing) still has one.
    let countName = countNames.first(where: names.contains) ?? "count"
    values[countName] = nil
    return CommandMessage(key, values, count: options.minutes, as: countName)
  }

  /// The placeholders whose value is another message, rendered in the same locale.
  private static let nestedSamples: [String: CommandKey] = [
    "todo": .startSystemd, "what": .desktopMatch, "how": .desktopChosenAuto, "counting": .desktopCountsFocus,
    "summary": .setupSummary, "changes": .changeGrant, "reason": .reasonNotRunning,
  ]

  /// A value like the one a command inserts for the placeholder `name`.
  static func commandSample(_ name: String, options: PreviewOptions) -> String {
    switch name {
    // The command line always names its app; without one the sample is another.
    case "app": options.app.flatMap { $0.isEmpty ? nil : $0 } ?? "Instagram"
    case "minutes", "seconds", "hours", "count", "days", "default", "offered", "last": String(options.minutes)
    case "low": "0"
    case "high": "1440"
    case "rule": "social"
    case "rules", "names", "list": "Instagram, TikTok"
    case "apps": "Instagram, TikTok"
    case "item": "Reddit"
    case "sites", "site": "reddit.com"
    case "path", "file": "~/.config/shieldbridge/config.json"
    case "lock": "~/.config/shieldbridge/config.lock"
    case "key": "rules[0].grantMinutes"
    case "date", "first", "from": "2026-11-29"
    case "to": "2026-12-05"
    case "until": "07:00"
    case "option": "--limit"
    case "second": "--json"
    case "text", "answer", "found", "argument": "five"
    case "limit", "grant", "duration": "20m"
    case "backend": "i3"
    case "address": "unix:path=/run/user/1000/bus"
    case "choice", "setting": "\"desktop\": \"i3\""
    case "command": "shieldbridge statsu"
    case "arguments": "NAME"
    case "choices": "hide, close, notify"
    case "number": "1"
    case "below": "1"
    case "above": "2"
    case "used": "3m 10s"
    case "bar": "███░░░░░░░"
    case "suggestion": "dailyLimitMinutes"
    case "error", "problem", "detail", "warning": "Connection refused"
    case "action": "hide"
    case "version", "spec": "1.2"
    case "vendor", "name": "dunst"
    case "log": "journalctl --user -u shieldbridge"
    case "warn": "1m"
    case "state": "locked"
    case "presentation": "actions"
    case "owner": ":1.42"
    case "other": "--days"
    case "max": "5"
    case "kind": "a directory"
    case "folder": "/usr/local/share/shieldbridge/webextension"
    case "example": "shieldbridge rules set social --limit 20m"
    case "entry": "~/.config/autostart/shieldbridge.desktop"
    case "desktop": "i3"
    case "daily": "20m"
    case "capabilities": "actions, body"
    case "browsers": "Chromium, Firefox"
    case "limitation", "attention": "no idle"
    default: "‹\(name)›"
    }
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
