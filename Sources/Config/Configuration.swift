public import Desktop
import JSON
public import Model
public import Posix
import Store

/// What the user configured in `$XDG_CONFIG_HOME/shieldbridge/config.json`.
///
/// ```json
/// {
///   "scheme": "shieldbridge",
///   "desktop": "auto",
///   "idleMinutes": 5,
///   "rules": [
///     {"name": "social", "apps": ["Instagram", "TikTok", "YouTube"],
///      "dailyLimitMinutes": 5, "grantMinutes": 5, "maxGrantsPerDay": 5,
///      "warnMinutes": 1, "onLimit": "hide"},
///     {"name": "chat", "apps": [{"name": "Telegram", "class": "TelegramDesktop",
///      "appId": "org.telegram.desktop", "exe": ["telegram-desktop"]}],
///      "dailyLimitMinutes": 30, "onLimit": "notify"}
///   ],
///   "views": {"Instagram": {"direct": "https://www.instagram.com/direct/inbox/"}},
///   "handlers": {
///     "puzzle": ["x-terminal-emulator", "-e", "shieldbridge", "puzzle", "--app", "{app}", "--grant", "{grant}"],
///     "view": ["xdg-open", "{target}"]
///   }
/// }
/// ```
///
/// Every key is optional: a missing file or key means the default. Without
/// `rules`, the built-in rule (`default`, 5 / 5 / 5) covers every app; with
/// rules, an app no rule lists is refused. The meter counts only the apps of
/// configured rules: with the built-in rule alone nothing is metered (it names
/// no app to watch for). Keys may be added in later
/// versions but are never renamed, so unknown keys are warnings, not errors.
public struct Configuration: Hashable, Sendable {
  /// The link scheme when none is configured.
  public static let defaultScheme = "shieldbridge"

  /// The deep-link scheme, lowercase, such as `shieldbridge`.
  public var scheme: String
  /// The rules and the app each covers.
  public var rules: RuleSet
  /// The app views a link may open.
  public var views: Views
  /// Commands that override the built-in ways of opening a puzzle or a view.
  public var handlers: Handlers
  /// Which way the desktop is watched for the meter: `"auto"` (the default) or a forced one.
  public var desktop: DesktopChoice
  /// Minutes without keyboard or mouse input after which a covered app's time
  /// stops counting (unless something inhibits idle, such as a video playing).
  public var idleMinutes: Int
  /// How many local days of history (`history.json`) are kept: 90 unless configured, 7–366.
  public var historyDays: Int
  /// The default of ``historyDays``: about 13 weeks, as GNOME's Wellbeing panel keeps.
  public static let defaultHistoryDays = 90
  /// The history days `config.json` may set: one week up to a leap year.
  public static let historyDaysRange = 7...366

  /// When the weekly summary comes (`"sunday 18:00"`, local time); `nil`, the default, posts none.
  public var weeklySummary: WeeklySchedule?
  /// When a local day begins (`"dayStartsAt": "04:00"`): the ledger's day,
  /// the grants', the history's and a downtime's "day it starts"; midnight unless configured.
  public var dayStartsAt: ClockTime = .midnight

  /// The idle minutes when none are configured.
  public static let defaultIdleMinutes = 5
  /// The idle minutes `config.json` may set: one minute up to a whole day.
  public static let idleMinutesRange = 1...1440

  public init(
    scheme: String = Configuration.defaultScheme,
    rules: RuleSet = .builtIn,
    views: Views = Views(),
    handlers: Handlers = Handlers(),
    desktop: DesktopChoice = .auto,
    idleMinutes: Int = Configuration.defaultIdleMinutes,
    historyDays: Int = Configuration.defaultHistoryDays,
    weeklySummary: WeeklySchedule? = nil
  ) {
    self.scheme = scheme
    self.rules = rules
    self.views = views
    self.handlers = handlers
    self.desktop = desktop
    self.idleMinutes = idleMinutes
    self.historyDays = historyDays
    self.weeklySummary = weeklySummary
  }

  /// The configuration when there is no file.
  public static let defaults = Configuration()

  /// Commands configured to open a puzzle or a view; `nil` uses the built-in way.
  public struct Handlers: Hashable, Sendable {
    /// Runs the puzzle; offers `{app}`, `{grant}`, `{minutes}`, `{link}`, `{id}`, `{shieldbridge}`.
    public var puzzle: ArgvTemplate?
    /// Opens a view; offers `{app}`, `{view}`, `{target}`, `{link}`, `{id}`, `{shieldbridge}`.
    public var view: ArgvTemplate?

    public init(puzzle: ArgvTemplate? = nil, view: ArgvTemplate? = nil) {
      self.puzzle = puzzle
      self.view = view
    }

    /// The placeholders the puzzle handler may use.
    public static let puzzlePlaceholders: Set<ArgvTemplate.Placeholder> = [
      .app, .grant, .minutes, .link, .id, .shieldbridge,
    ]
    /// The placeholders the view handler may use.
    public static let viewPlaceholders: Set<ArgvTemplate.Placeholder> = [
      .app, .view, .target, .link, .id, .shieldbridge,
    ]
  }
}

/// A configuration with where it came from and what was ignored in it.
public struct LoadedConfiguration: Hashable, Sendable {
  public var configuration: Configuration
  /// The file that was read, or would have been.
  public var path: String
  /// Whether the file was missing, so the defaults are in force.
  public var isDefault: Bool
  /// Unknown keys and the like; print them.
  public var warnings: [ConfigurationWarning]
}

extension Configuration {
  /// The largest configuration file read.
  public static let maximumFileSize = 1 << 20

  /// `$XDG_CONFIG_HOME/shieldbridge/config.json` (default `~/.config/shieldbridge/config.json`),
  /// or `nil` when neither variable is an absolute path.
  public static func standardPath(environment: [String: String]) -> String? {
    BaseDirectory.config.shieldBridgePath(environment: environment).map { $0 + "/config.json" }
  }

  /// Loads the user's configuration; a missing file gives the defaults.
  ///
  /// - Throws: ``ConfigurationError`` naming the file, key path and problem.
  public static func load(
    environment: [String: String] = Environment.all
  ) throws(ConfigurationError) -> LoadedConfiguration {
    guard let path = standardPath(environment: environment) else {
      throw ConfigurationError(
        code: .noDirectory, file: "config.json", keyPath: "",
        problem:
          "cannot find the configuration directory: set XDG_CONFIG_HOME or HOME to an absolute path"
      )
    }
    return try load(from: path)
  }

  /// Loads the configuration at `path`; a missing file gives the defaults.
  ///
  /// - Throws: ``ConfigurationError`` naming the file, key path and problem.
  public static func load(from path: String) throws(ConfigurationError) -> LoadedConfiguration {
    let bytes: [UInt8]
    do {
      guard let read = try ConfigurationFile.read(path, limit: maximumFileSize) else {
        return LoadedConfiguration(
          configuration: .defaults, path: path, isDefault: true, warnings: [])
      }
      bytes = read
    } catch {
      throw ConfigurationError(
        code: .unreadable, file: path, keyPath: "", problem: error.description)
    }
    let (configuration, warnings) = try parse(bytes, file: path)
    return LoadedConfiguration(
      configuration: configuration, path: path, isDefault: false, warnings: warnings)
  }

  /// Reads a configuration from the text of a file; `file` names it in errors and warnings.
  ///
  /// - Returns: The configuration and the warnings about what was ignored.
  /// - Throws: ``ConfigurationError`` naming the file, key path and problem.
  public static func parse(_ bytes: some Collection<UInt8>, file: String) throws(ConfigurationError)
    -> (
      Configuration, [ConfigurationWarning]
    )
  {
    guard bytes.count <= maximumFileSize else {
      throw ConfigurationError(
        code: .unreadable, file: file, keyPath: "", problem: "larger than \(maximumFileSize) bytes")
    }
    let json: JSONValue
    let numberTexts: [String: String]
    do {
      // The texts, so that a whole-number field can refuse 5.0 or 1e-400 and quote them.
      (json, numberTexts) = try JSONValue.parsingKeepingNumberTexts(bytes)
    } catch {
      throw ConfigurationError(
        code: .syntax, file: file, keyPath: "", problem: "not valid JSON: \(error)", detail: .notJSON("\(error)"))
    }
    var reader = ConfigurationReader(file: file, numberTexts: numberTexts)
    let configuration = try reader.configuration(json)
    return (configuration, reader.warnings)
  }
}
