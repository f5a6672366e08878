import DBus
import Testing

@testable import Desktop

@Suite("A compositor backend says each refused sender once, and remembers a bounded number of them")
struct RefusedSendersTests {
  @Test("The same sender is said once; a new sender is said again; past the limit nothing is said")
  func boundedOncePerSender() throws {
    var refused = RefusedSenders()
    let first = try BusName(":1.7")
    let notice = refused.notice(ignoring: "Activated", from: first, owner: "org.kde.KWin")
    #expect(notice?.contains("ignored Activated from :1.7, which does not own org.kde.KWin") == true)
    #expect(refused.notice(ignoring: "Windows", from: first, owner: "org.kde.KWin") == nil)
    let malformed = refused.notice(ignoring: "FocusChanged", from: try BusName(":1.8"), owner: nil)
    #expect(malformed?.contains("ignored a malformed FocusChanged from :1.8") == true)
    var said = 2
    var last: String?
    for n in 0..<1000 {
      if let text = refused.notice(ignoring: "Activated", from: try BusName(":2.\(n)"), owner: "org.kde.KWin") {
        said += 1
        last = text
      }
    }
    #expect(said == RefusedSenders.limit)
    #expect(last?.contains("further senders are ignored without a notice") == true)
  }
}
