import ShieldCore
import Testing

@Suite("Closed shields kept for a server's history")
struct RecentlyClosedTests {
  @Test func closedShieldsAreKeptForTheLastSixteenOnly() {
    var closed = RecentlyClosed<String>(capacity: 16)
    for id in UInt32(1)...40 { closed.insert("links \(id)", for: id) }
    #expect(closed.count == 16)
    #expect(closed[24] == nil)
    #expect(closed[25] == "links 25")
    #expect(closed[40] == "links 40")
    // Closed again (shown from the history and dismissed once more): kept once, as the newest.
    closed.insert("again", for: 25)
    #expect(closed.count == 16)
    #expect(closed[25] == "again")
    // A new notification under a kept id: the old links are gone.
    closed.remove(40)
    #expect(closed[40] == nil)
    #expect(closed.count == 15)
  }
}
