/// The apps and sites people usually limit, with the names the desktop and the browser know them by.
///
/// `shieldbridge setup` offers them by number and `setup --yes --app NAME`
/// takes them by name. Each entry is written as an app object (see
/// ``ConfigurationEditor``): the classes, app ids and executables of its
/// desktop app where there is one (the Flatpak's id, the Debian or upstream
/// package's class and program), else its name as a class and an app id,
/// and its sites, so that a window of the app and the website count
/// against the same limit. Names are the ones the services call themselves.
public enum CommonApps {
  /// The list in the order `setup` shows it.
  public static let all: [RuleApp] = [
    service("Instagram", sites: ["instagram.com"]),
    service("TikTok", sites: ["tiktok.com"]),
    service("YouTube", sites: ["youtube.com", "youtu.be"]),
    service("Facebook", sites: ["facebook.com", "messenger.com"]),
    service("X", also: ["Twitter"], sites: ["x.com", "twitter.com"]),
    service("Reddit", sites: ["reddit.com"]),
    service("Snapchat", sites: ["snapchat.com"]),
    service("Twitch", sites: ["twitch.tv"]),
    service("Netflix", sites: ["netflix.com"]),
    RuleApp(
      name: "Discord", classes: ["discord"], appIDs: ["com.discordapp.Discord", "discord"],
      executables: ["discord", "Discord"], sites: ["discord.com"]),
    RuleApp(
      name: "Telegram", classes: ["TelegramDesktop", "telegram-desktop", "Telegram"],
      appIDs: ["org.telegram.desktop", "Telegram"], executables: ["telegram-desktop", "Telegram"],
      sites: ["web.telegram.org"]),
    service("WhatsApp", sites: ["web.whatsapp.com"]),
    service("Pinterest", sites: ["pinterest.com"]),
    service("LinkedIn", sites: ["linkedin.com"]),
    service("Threads", sites: ["threads.net", "threads.com"]),
    service("Bluesky", sites: ["bsky.app"]),
    service("Tumblr", sites: ["tumblr.com"]),
    service("Prime Video", sites: ["primevideo.com"]),
    service("Disney+", sites: ["disneyplus.com"]),
    RuleApp(
      name: "Steam", classes: ["steam"], appIDs: ["com.valvesoftware.Steam", "steam"],
      executables: ["steam"], sites: ["store.steampowered.com", "steamcommunity.com"]),
    RuleApp(
      name: "Spotify", classes: ["spotify", "Spotify"], appIDs: ["com.spotify.Client", "spotify"],
      executables: ["spotify"], sites: ["open.spotify.com"]),
  ]

  /// A service without a desktop app of its own: its sites, and its name (and `also`) as a class and an app id.
  ///
  /// What shows such a service in a window of its own is named after it: a
  /// wrapper or a web app whose `WM_CLASS` or Wayland app id is the name
  /// (`Instagram`), matched without regard to case. A browser's app window of
  /// the site (`chromium --app=https://www.instagram.com/`) is its site
  /// already (``Model/AppIdentity/appWindowSite``). The name is no
  /// executable: a process fallback that matched a program called `x` or
  /// `reddit` by its name would count what happens to be called so.
  private static func service(_ name: String, also: [String] = [], sites: [String]) -> RuleApp {
    RuleApp(name: name, classes: [name] + also, appIDs: [name] + also, sites: sites)
  }

  /// The entry named `name`, compared without regard to case (`twitter` finds X too).
  public static func named(_ name: String) -> RuleApp? {
    let wanted = name.lowercased()
    if wanted == "twitter" { return all.first { $0.name == "X" } }
    return all.first { $0.name.lowercased() == wanted }
  }
}
