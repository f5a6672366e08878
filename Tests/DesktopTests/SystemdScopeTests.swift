import Desktop
import Testing

@Suite struct SystemdScopeTests {
  @Test(
    "a unit name gives the app id",
    arguments: [
      ("app-gnome-org.telegram.desktop-4242.scope", "org.telegram.desktop"),
      ("app-flatpak-org.mozilla.firefox-123456.scope", "org.mozilla.firefox"),
      ("app-org.kde.konsole-8d2f1c0a9b.scope", "org.kde.konsole"),
      ("app-gnome-firefox-1234.scope", "firefox"),
      ("app-firefox-1234.scope", "firefox"),
      ("app-org.gnome.Terminal\\x2dPreview-77.scope", "org.gnome.Terminal-Preview"),
      ("app-gnome-google\\x2dchrome-9911.scope", "google-chrome"),
      ("app-someshell-my-tool-31.scope", "someshell-my-tool"),
      ("app-org.telegram.desktop@a1b2c3.service", "org.telegram.desktop"),
      ("app-gnome-org.gnome.Nautilus@12.service", "org.gnome.Nautilus"),
      ("app-dbus\\x2d:1.2\\x2dorg.freedesktop.portal.IBus@0.service", "dbus-:1.2-org.freedesktop.portal.IBus"),
      ("app-instagram.service", "instagram"),
    ])
  func unitNames(unit: String, id: String) {
    #expect(SystemdScope.appID(unit: unit) == id)
  }

  @Test(
    "other units give none",
    arguments: [
      "app.slice", "session-2.scope", "user@1000.service", "app-.scope", "app-4242.scope", "init.scope",
      "app-gnome-foo.slice", "dbus.service",
    ])
  func otherUnits(unit: String) {
    #expect(SystemdScope.appID(unit: unit) == nil)
  }

  @Test func aCgroupFileGivesTheInnermostAppUnit() {
    let unified =
      "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-org.telegram.desktop-4242.scope\n"
    #expect(SystemdScope.appID(inCgroupFile: unified) == "org.telegram.desktop")
    let nested =
      "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-org.kde.dolphin@1.service/app-flatpak-org.videolan.VLC-5.scope\n"
    #expect(SystemdScope.appID(inCgroupFile: nested) == "org.videolan.VLC")
    let hybrid = """
      12:memory:/user.slice
      1:name=systemd:/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-firefox-9.scope
      0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-firefox-9.scope

      """
    #expect(SystemdScope.appID(inCgroupFile: hybrid) == "firefox")
    let v1 = "1:name=systemd:/user.slice/user-1000.slice/user@1000.service/app-org.telegram.desktop@x.service\n"
    #expect(SystemdScope.appID(inCgroupFile: v1) == "org.telegram.desktop")
  }

  @Test func aProcessOutsideAnAppUnitHasNone() {
    #expect(SystemdScope.appID(inCgroupFile: "0::/\n") == nil)
    #expect(SystemdScope.appID(inCgroupFile: "0::/user.slice/user-1000.slice/session-2.scope\n") == nil)
    #expect(SystemdScope.appID(inCgroupFile: "") == nil)
    #expect(SystemdScope.appID(inCgroupFile: "garbage without colons\n:::\n") == nil)
  }

  @Test func brokenEscapesStayAsWritten() {
    #expect(SystemdScope.unescape("a\\x2db") == "a-b")
    #expect(SystemdScope.unescape("a\\x2") == "a\\x2")
    #expect(SystemdScope.unescape("a\\xzz") == "a\\xzz")
    #expect(SystemdScope.unescape("\\x") == "\\x")
  }
}
