import DeepLink
import JSON
import Localization
import Notifications
import ShieldBridge

extension Command {
  /// `shieldbridge locales preview [LOCALE | --locale L | --all] [--app NAME] [--minutes N] [--markup] [--json] [--post]`.
  static let localesPreview = Command(
    name: "preview",
    abstract: "Render every message in a locale, or in all of them.",
    arguments: "[LOCALE]",
    argumentCount: 0...1,
    options: LocalesPreviewOptions.self,
    discussion: """
      LOCALE is the same as --locale LOCALE. The messages of the shield, the
      task and the report come first, then the command line's (status, rules,
      setup, report, puzzle, desktop, doctor and the errors), filled with
      sample values: the app's name and the number (--app, --minutes, which
      also picks the plural forms), and a value like the one the command
      inserts for each other placeholder.

      With --post the shield notification of each locale goes to the current
      notification server as the service lays it out (summary, body, the puzzle
      and the view action), with the identifier preview-<locale>, so that the
      locales stand side by side and a second run replaces the first. It prints
      one line per notification, "de: notification 7", or with --json
      {"locale":"de","id":7}. The server's capabilities decide the escaping, so
      --markup does not apply; --minutes must be a grant a link can carry (1 to
      120). No notification server: a message naming the cause, exit 69.
      """,
    body: { invocation in
      let named = invocation.positional(0) ?? invocation[\.locale]
      if invocation.positional(0) != nil, invocation[\.locale] != nil {
        throw CommandFailure.usage("LOCALE and --locale name the same thing: give one")
      }
      if invocation[\.all], named != nil {
        throw CommandFailure.usage("--locale and --all exclude each other")
      }
      let catalogs = LocalesSupport.load(try LocalesSupport.directory(invocation[\.dir]))
      let locales: [LocaleTag]
      if invocation[\.all] {
        locales = Preview.allLocales(in: catalogs)
      } else if let locale = named {
        let tag = try LocalesSupport.tag(locale)
        if !tag.fallbacks.contains(where: catalogs.isAvailable) {
          Output.err("shieldbridge: no catalog for '\(tag)'; the messages are shown in English")
        }
        locales = [tag]
      } else {
        locales = [catalogs.localizer().locale]
      }
      let options = PreviewOptions(
        app: invocation[\.app] ?? "Firefox",
        minutes: try invocation[\.minutes] ?? 5,
        markup: invocation[\.markup])
      if invocation[\.post] {
        return try await PreviewPoster(invocation, options: options).post(locales, catalogs: catalogs)
      }
      // Each locale's product messages, then its command-line messages.
      let items: [(locale: String, key: String, text: String)] = locales.flatMap { locale in
        Preview.render(locale, catalogs: catalogs, options: options).map {
          ($0.locale.identifier, $0.key.rawValue, $0.text)
        }
          + Preview.renderCommands(locale, catalogs: catalogs, options: options).map {
            ($0.locale.identifier, $0.key.rawValue, $0.text)
          }
      }
      if invocation[\.json] {
        for item in items {
          Output.out(
            JSONValue.object([
              ("locale", .string(item.locale)), ("key", .string(item.key)), ("text", .string(item.text)),
            ]).serialized)
        }
      } else {
        let localeWidth = items.map(\.locale.count).max() ?? 0
        // The product messages' width: a long command key does not push every line to the right.
        let keyWidth = MessageKey.allCases.map(\.rawValue.count).max() ?? 0
        for item in items {
          Output.out(item.locale.padded(to: localeWidth) + "  " + item.key.padded(to: keyWidth) + "  " + item.text)
        }
      }
      return .success
    }
  )
}

/// The options of `shieldbridge locales preview`.
private struct LocalesPreviewOptions: BusOptions {
  let locale: Option<String>
  let all: Flag
  let app: Option<String>
  let minutes: Option<Int>
  let markup: Flag
  let json: Flag
  let post: Flag
  let address: Option<String>
  let dir: Option<String>

  init(declaring options: inout OptionDeclarations) {
    locale = options.value("--locale", "L", "The locale to render (default: negotiated from the environment).")
    all = options.flag("--all", "Every shipped locale, English and the pseudo-locales en-XA and ar-XB.")
    app = options.value(
      "--app", "NAME", "The app name (default: Firefox; an empty name shows the variants without it).")
    minutes = options.integer(
      "--minutes", "N", in: 0...1_000_000,
      "The minutes a task unlocks, which also picks the plural forms (default: 5).")
    markup = options.flag("--markup", "Escape & < > \" ' as for servers with body markup.")
    json = options.flag("--json", "One JSON object per message: {\"locale\":…,\"key\":…,\"text\":…}.")
    post = options.flag(
      "--post", "Post the shield notification of each locale to the notification server instead, one each.")
    address = options.address()
    dir = options.catalogDirectory()
  }
}

/// `locales preview --post`: the shield notification of each locale, posted.
private struct PreviewPoster {
  let invocation: Invocation<LocalesPreviewOptions>
  let options: PreviewOptions
  let json: Bool

  init(_ invocation: Invocation<LocalesPreviewOptions>, options: PreviewOptions) throws(CommandFailure) {
    if invocation[\.markup] {
      throw .usage("--post escapes as the server needs; --markup does not apply to it")
    }
    guard LinkConfiguration.grantRange.contains(options.minutes) else {
      throw .usage(
        "--post takes --minutes from \(LinkConfiguration.grantRange.lowerBound) to "
          + "\(LinkConfiguration.grantRange.upperBound), a grant its links can carry")
    }
    self.invocation = invocation
    self.options = options
    json = invocation[\.json]
  }

  /// Posts one notification per locale, in order, and prints each id as it comes.
  func post(_ locales: [LocaleTag], catalogs: CatalogSet) async throws(CommandFailure) -> ExitCode {
    let identifiers = OneShotIDStore(command: "locales preview")
    let client: NotificationClient
    do {
      client = try await NotificationClient.connect(
        to: bus(invocation), store: identifiers.store, receivesEvents: false)
    } catch {
      throw CommandFailure(error)
    }
    Output.err(
      "shieldbridge locales preview: the previews are for looking at; clicks on them are not routed")
    let router = Router<ShieldAction>()
    for locale in locales {
      let identifier = "preview-" + locale.identifier
      let notification: Notification
      do {
        notification = try ShieldTexts(localizer: Preview.localizer(for: locale, catalogs: catalogs))
          .shield(
            app: options.app, minutes: options.minutes, views: [options.view], identifier: identifier,
            router: router)
      } catch {
        throw CommandFailure(
          "cannot build the links of the \(locale) preview: \(error.message)", exitCode: .dataError)
      }
      let id: UInt32
      do {
        id = try await client.post(notification)
      } catch {
        throw CommandFailure(error)
      }
      identifiers.reportFailure()
      Output.out(
        json
          ? JSONValue.object([("locale", .string(locale.identifier)), ("id", .int(id))]).serialized
          : "\(locale): notification \(id)")
      Output.flush()
    }
    return .success
  }
}

extension String {
  fileprivate func padded(to width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
