import DeepLink
import Testing

/// A library user's own actions, beside the shield's.
private enum AppAction: Hashable, Sendable {
  case shield(ShieldAction)
  case settings(section: String, tab: Int, note: String?, limit: Int?)
}

private let section: Parameter<String> = .token(
  "section", TokenRule("a-z", length: 1...16)!, default: "general")
private let tab: Parameter<Int> = .integer("tab", in: 1...9, default: 1)
private let note: Parameter<String?> = .text("note")
private let limit: Parameter<Int?> = .integer("limit", in: 0...1440)

private let settings = Route<AppAction>(
  "Settings", section, tab, note, limit,
  action: { .settings(section: $0, tab: $1, note: $2, limit: $3) },
  values: {
    if case .settings(let section, let tab, let note, let limit) = $0 {
      (section, tab, note, limit)
    } else {
      nil
    }
  })

private func appRouter() throws -> Router<AppAction> {
  var router = try Router<AppAction>(scheme: "shieldbridge")
  try router.register(
    Route.puzzle().map(AppAction.shield) {
      if case .shield(let action) = $0 { action } else { nil }
    })
  try router.register(settings)
  return router
}

@Suite("Routes registered by a library user")
struct CustomRouteTests {
  @Test("a registered route resolves to its typed action, parameters in declared order")
  func resolvesTyped() throws {
    let router = try appRouter()
    #expect(router.routeNames == ["puzzle", "settings"])
    #expect(
      try router.resolve("shieldbridge://SETTINGS?tab=3&limit=30&note=hi%21").action
        == .settings(section: "general", tab: 3, note: "hi!", limit: 30))
    #expect(
      try router.resolve("shieldbridge://settings").action
        == .settings(section: "general", tab: 1, note: nil, limit: nil))
    #expect(
      try router.resolve("shieldbridge://puzzle?app=X").action
        == .shield(.puzzle(app: "X", grant: 5, id: "shield-open")))
  }

  @Test("a registered route checks its rules")
  func checksRules() throws {
    let router = try appRouter()
    #expect(
      codeAndOffset { () throws(DeepLinkError) in
        try router.resolve("shieldbridge://settings?tab=10")
      } == "invalid-value@28")
    #expect(
      codeAndOffset { () throws(DeepLinkError) in
        try router.resolve("shieldbridge://settings?section=A")
      } == "invalid-value@32")
    #expect(
      codeAndOffset { () throws(DeepLinkError) in try router.resolve("shieldbridge://view?app=X") }
        == "unknown-route@15")
  }

  @Test("a registered route builds the links it parses")
  func buildsLinks() throws {
    let router = try appRouter()
    let action = AppAction.settings(section: "privacy", tab: 2, note: "ok ✓", limit: nil)
    let link = try router.link(for: action)
    #expect(link.description == "shieldbridge://settings?section=privacy&tab=2&note=ok%20%E2%9C%93")
    #expect(try router.resolve(link.description).action == action)
    let shield = AppAction.shield(.puzzle(app: "A", grant: 9, id: "i"))
    #expect(try router.resolve(router.link(for: shield).description).action == shield)
  }

  @Test("registering a route with the same name replaces it")
  func replaces() throws {
    var router = try appRouter()
    try router.register(
      Route<AppAction>(
        "settings", action: { .settings(section: "fixed", tab: 1, note: nil, limit: nil) },
        values: { _ in nil }))
    #expect(router.routeNames == ["puzzle", "settings"])
    #expect(
      try router.resolve("shieldbridge://settings?tab=3").action
        == .settings(section: "fixed", tab: 1, note: nil, limit: nil))
    #expect(try router.resolve("shieldbridge://settings?tab=3").ignored == ["tab"])
  }

  @Test("a route with a bad name, key or default is refused at registration")
  func refusesBadRoutes() throws {
    var router = try Router<AppAction>(scheme: "x")
    let action: @Sendable () -> AppAction = {
      .settings(section: "", tab: 1, note: nil, limit: nil)
    }
    func route(_ name: String, _ parameter: Parameter<String?>) -> Route<AppAction> {
      Route(name, parameter, action: { _ in action() }, values: { _ in nil })
    }
    #expect(
      codeAndOffset { () throws(DeepLinkError) in try router.register(route("a b", .text("k"))) }
        == "unknown-route@0")
    #expect(
      codeAndOffset { () throws(DeepLinkError) in try router.register(route("ok", .text("K"))) }
        == "malformed-parameter@0")
    let twice = Route<AppAction>(
      "ok", note, note, action: { _, _ in action() }, values: { _ in nil })
    #expect(
      failure { () throws(DeepLinkError) in try router.register(twice) }?.code
        == .duplicateParameter)
    let badDefault = Route<AppAction>(
      "ok", Parameter<Int>.integer("n", in: 1...5, default: 9), action: { _ in action() },
      values: { _ in nil })
    #expect(
      codeAndOffset { () throws(DeepLinkError) in try router.register(badDefault) }
        == "invalid-value@0")
    let negative = Route<AppAction>(
      "ok", Parameter<Int>.integer("n", in: -1...5, default: 1), action: { _ in action() },
      values: { _ in nil })
    #expect(
      failure { () throws(DeepLinkError) in try router.register(negative) }?.code == .invalidValue)
    #expect(router.routeNames.isEmpty)
    #expect(
      failure { () throws(DeepLinkError) in try Router<AppAction>(scheme: "a b") }?.code
        == .badScheme)
  }

  @Test("the standard routes pass the checks of registration")
  func standardRoutesAreValid() throws {
    var router = try Router<ShieldAction>(scheme: "shieldbridge")
    try router.register(.puzzle())
    try router.register(.view())
    #expect(router.routeNames == Router(configuration: .standard).routeNames)
  }

  @Test("a token rule reads like a regular-expression class")
  func tokenRules() throws {
    #expect(TokenRule.identifier.description == "[A-Za-z0-9._-]{1,64}")
    #expect(TokenRule.viewName.description == "[a-z0-9-]{1,32}")
    #expect(TokenRule("z-a", length: 1...2) == nil)
    #expect(TokenRule("", length: 1...2) == nil)
    #expect(TokenRule("é", length: 1...2) == nil)
    #expect(TokenRule("a", length: 0...2) == nil)
  }
}
