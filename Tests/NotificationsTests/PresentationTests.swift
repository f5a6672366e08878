import NotificationMarkup
import Notifications
import TestSupport
import Testing

@Suite("A presentation is decided once from the capabilities")
struct PresentationDecisionTests {
  @Test(arguments: [
    (["actions", "body"], Presentation.Style.actions),
    (["actions", "body-hyperlinks"], .actions),
    (["body", "body-hyperlinks"], .bodyHyperlink),
    (["body", "body-markup"], .closeOnly),
    ([], .closeOnly),
  ])
  func theStyleFollowsActionsThenHyperlinks(capabilities: [Capability], style: Presentation.Style) {
    #expect(Presentation(capabilities: capabilities).style == style)
  }

  @Test func markupRepliesAndStackTagsAreReadFromTheList() {
    let dunst = Presentation(capabilities: [
      "actions", "body", "body-hyperlinks", "icon-static", "x-canonical-private-synchronous",
      "x-dunst-stack-tag",
    ])
    #expect(!dunst.bodyMarkup)
    #expect(!dunst.inlineReply)
    #expect(dunst.stackTagHints == ["x-dunst-stack-tag", "x-canonical-private-synchronous"])
    let plasma = Presentation(capabilities: ["actions", "body", "body-markup", "inline-reply"])
    #expect(plasma.bodyMarkup)
    #expect(plasma.inlineReply)
    #expect(plasma.stackTagHints.isEmpty)
  }

  @Test("The stack tags name a post that knows no id to replace; one that replaces by id goes without them")
  func stackTagsOnlyWithoutAReplacedID() {
    // mako 1.7.1's capabilities: it crashes on a Notify with both replaces_id and its stack tag.
    let mako = Presentation(capabilities: [
      "body", "body-markup", "actions", "icon-static", "x-canonical-private-synchronous", "x-dunst-stack-tag",
    ])
    let shield = Notification(summary: "Instagram is paused", identifier: "shield-open")
    let first = mako.prepare(shield)
    #expect(first.hints.custom[.dunstStackTag] == .string("shield-open"))
    #expect(first.hints.custom[.canonicalPrivateSynchronous] == .string("shield-open"))
    let replacing = mako.prepare(shield, replacing: true)
    #expect(replacing.hints.custom[.dunstStackTag] == nil)
    #expect(replacing.hints.custom[.canonicalPrivateSynchronous] == nil)
    // A tag the caller set stays.
    var tagged = shield
    tagged.hints.custom[.dunstStackTag] = .string("own")
    #expect(mako.prepare(tagged, replacing: true).hints.custom[.dunstStackTag] == .string("own"))
  }

  @Test func eventsAreReadAsThePresentationExpectsThem() {
    let closeOnly = Presentation(capabilities: ["body"])
    #expect(!closeOnly.accepts(.action(id: 1, key: "default")))
    #expect(!closeOnly.accepts(.replied(id: 1, text: "x")))
    #expect(closeOnly.accepts(.closed(id: 1, reason: .dismissed)))
    let actions = Presentation(capabilities: ["actions"])
    #expect(actions.accepts(.action(id: 1, key: "default")))
    #expect(actions.accepts(.activationToken(id: 1, token: "t")))
    #expect(!actions.accepts(.replied(id: 1, text: "x")))
    #expect(
      Presentation(capabilities: ["actions", "inline-reply"]).accepts(.replied(id: 1, text: "x")))
  }

  @Test func preparingTwiceChangesNothingMore() {
    for capabilities: [Capability] in [
      ["actions", "body-markup"], ["body-hyperlinks"], ["body"],
      ["body-hyperlinks", "body-markup"],
    ] {
      let presentation = Presentation(capabilities: capabilities)
      var notification = Notification(
        summary: "S", body: "<Tom & \"Jerry\">",
        actions: [.init(key: "default", label: "Go & see", link: "x://a?b=1&c=2")])
      notification.closeOnlyText = "Run it."
      let once = presentation.prepare(notification)
      #expect(presentation.prepare(once) == once, "for \(capabilities)")
    }
  }

  @Test func plainHyperlinksAreWrittenAsLabelAndAddress() {
    let prepared = Presentation(capabilities: ["body-hyperlinks"]).prepare(
      Notification(
        summary: "S",
        actions: [.init(key: "default", label: "Solve", link: "shieldbridge://puzzle")]))
    #expect(prepared.body == "Solve: shieldbridge://puzzle")
    #expect(prepared.actions.isEmpty)
  }
}

@Suite("A notification that every server gets alike is known without asking for capabilities")
struct SameForEveryServerTests {
  /// Every subset of the capabilities that change a presentation.
  static let capabilitySets: [[Capability]] = {
    let names: [Capability] = ["actions", "body-hyperlinks", "body-markup", "inline-reply", "x-dunst-stack-tag"]
    return (0..<(1 << names.count)).map { mask in names.indices.filter { mask & (1 << $0) != 0 }.map { names[$0] } }
  }()

  /// What `prepare` puts on the wire (whether the body counts as markup is not sent).
  static func wire(_ notification: Notification, _ capabilities: [Capability]) -> Notification {
    var prepared = Presentation(capabilities: capabilities).prepare(notification)
    prepared.bodyIsMarkup = false
    return prepared
  }

  @Test func whenItSaysSoEveryCapabilitySetPreparesTheSameNotification() {
    var generator = SeededGenerator(seed: 0x5EED_0003)
    let bodies = ["", "Solve a puzzle", "a & b", "<b>bold</b>", "x < y", "it's", "plain\nlines"]
    var same = 0
    for _ in 0..<300 {
      var notification = Notification(
        summary: "S & <s>", body: bodies.randomElement(using: &generator)!, appName: "app")
      notification.bodyIsMarkup = Bool.random(using: &generator)
      if Int.random(in: 0..<3, using: &generator) == 0 {
        notification.actions = [.init(key: "default", label: "Open", link: "shieldbridge://x")]
      }
      if Int.random(in: 0..<4, using: &generator) == 0 {
        notification.actions.append(.init(key: "inline-reply", label: "Reply"))
      }
      notification.closeOnlyText = [nil, "", "Solve it"].randomElement(using: &generator)!
      notification.identifier = Int.random(in: 0..<3, using: &generator) == 0 ? "shield-open" : nil
      guard Presentation.isSameForEveryServer(notification) else { continue }
      same += 1
      let first = Self.wire(notification, [])
      for capabilities in Self.capabilitySets {
        #expect(Self.wire(notification, capabilities) == first, "\(notification) with \(capabilities)")
      }
    }
    // The property was checked on many notifications, not on none.
    #expect(same > 30)
  }

  @Test func whatDependsOnTheServerIsNeverTakenForTheSame() {
    #expect(Presentation.isSameForEveryServer(Notification(summary: "Time's up & <gone>", body: "Solve a puzzle")))
    #expect(!Presentation.isSameForEveryServer(Notification(summary: "s", body: "a & b")))
    #expect(
      !Presentation.isSameForEveryServer(Notification(summary: "s", actions: [.init(key: "default", label: "Open")])))
    #expect(!Presentation.isSameForEveryServer(Notification(summary: "s", identifier: "shield-open")))
    var markup = Notification(summary: "s", body: "<b>bold</b>")
    markup.bodyIsMarkup = true
    #expect(!Presentation.isSameForEveryServer(markup))
    var closeOnly = Notification(summary: "s")
    closeOnly.closeOnlyText = "Solve it"
    #expect(!Presentation.isSameForEveryServer(closeOnly))
  }
}

@Suite("Markup escaping")
struct MarkupTests {
  @Test func theFiveSpecialCharactersAreEscaped() {
    #expect(
      Markup.escape(#"<b>"Tom" & 'Jerry'</b>"#)
        == "&lt;b&gt;&quot;Tom&quot; &amp; &apos;Jerry&apos;&lt;/b&gt;")
    #expect(Markup.escape("plain") == "plain")
  }

  @Test func plainTextDropsTagsAndDecodesEntities() {
    #expect(
      Markup.plainText("<b>Tom</b> &amp; <i>Jerry</i> &#65;&#x42; &unknown; a < b")
        == "Tom & Jerry AB &unknown; a < b")
  }

  @Test func escapedTextReadsBackAsTheOriginal() {
    var generator = SeededGenerator(seed: 0x5EED_0001)
    let alphabet = Array("ab <>&\"';#x1é漢\u{1F600}\n".unicodeScalars)
    for _ in 0..<2000 {
      var text = ""
      for _ in 0..<Int.random(in: 0...24, using: &generator) {
        text.unicodeScalars.append(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)])
      }
      let escaped = Markup.escape(text)
      #expect(Markup.plainText(escaped) == text)
      #expect(
        !escaped.contains("<") && !escaped.contains(">") && !escaped.contains("\"")
          && !escaped.contains("'"))
    }
  }
}
