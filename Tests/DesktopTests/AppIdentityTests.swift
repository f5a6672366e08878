import Desktop
import Model
import Testing

@Suite struct AppIdentityTests {
  @Test func describesOnlyTheKnownFields() {
    let identity = AppIdentity(instance: "telegram-desktop", windowClass: "TelegramDesktop", pid: 42)
    #expect(identity.description == "class=TelegramDesktop instance=telegram-desktop pid=42")
    #expect(AppIdentity().description == "an app without names")
    #expect(identity.names == ["telegram-desktop", "TelegramDesktop"])
  }
}
