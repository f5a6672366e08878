/// The apps and sites people usually limit, with the names the desktop and the browser know them by.
///
/// `shieldbridge setup` offers them by number and `setup --yes --app NAME`
/// takes them by name. Each entry is written as an app object (see
/// ``ConfigurationEditor``): the class, app id and executable of its desktop
/// app where there is one (the Flatpak and the Debian package), and its
/// sites, so that the desktop app and the website count against the same
/// limit. Names are the ones the services call themselves.
public enum CommonApps {
  /// The list in the order `setup` shows it.
  public static let all: [RuleApp] = [
    RuleApp(name: "Instagram", sites: ["instagram.com"]),
    RuleApp(name: "TikTok", sites: ["tiktok.com"]),
    RuleApp(name: "YouTube", sites: ["youtube.com", "youtu.be"]),
    RuleApp(name: "Facebook", sites: ["facebook.com", "messenger.com"]),
    RuleApp(name: "X", sites: ["x.com", "twitter.com"]),
    RuleApp(name: "Reddit", sites: ["reddit.com"]),
    RuleApp(name: "Snapchat", sites: ["snapchat.com"]),
    RuleApp(name: "Twitch", sites: ["twitch.tv"]),
    RuleApp(name: "Netflix", sites: ["netflix.com"]),
    RuleApp(
      name: "Discord", classes: ["discord"], appIDs: ["com.discordapp.Discord", "discord"],
      executables: ["discord", "Discord"], sites: ["discord.com"]),
    RuleApp(
      name: "Telegram", classes: ["TelegramDesktop"], appIDs: ["org.telegram.desktop"],
      executables: ["telegram-desktop", "Telegram"], sites: ["web.telegram.org"]),
    RuleApp(name: "WhatsApp", sites: ["web.whatsapp.com"]),
    RuleApp(name: "Pinterest", sites: ["pinterest.com"]),
    RuleApp(name: "LinkedIn", sites: ["linkedin.com"]),
    RuleApp(name: "Threads", sites: ["threads.net", "threads.com"]),
    RuleApp(name: "Bluesky", sites: ["bsky.app"]),
    RuleApp(name: "Tumblr", sites: ["tumblr.com"]),
    RuleApp(name: "Prime Video", sites: ["primevideo.com"]),
    RuleApp(name: "Disney+", sites: ["disneyplus.com"]),
    RuleApp(
      name: "Steam", classes: ["steam"], appIDs: ["com.valvesoftware.Steam", "steam"], executables: ["steam"],
      sites: ["store.steampowered.com", "steamcommunity.com"]),
    RuleApp(
      name: "Spotify", classes: ["spotify", "Spotify"], appIDs: ["com.spotify.Client", "spotify"],
      executables: ["spotify"], sites: ["open.spotify.com"]),
  ]

  /// The entry named `name`, compared without regard to case (`twitter` finds X too).
  public static func named(_ name: String) -> RuleApp? {
    let wanted = name.lowercased()
    if wanted == "twitter" { return all.first { $0.name == "X" } }
    return all.first { $0.name.lowercased() == wanted }
  }
}
