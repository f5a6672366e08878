import Foundation
import JSON
import Model
import Spawn
import Store
import TestSupport
import Testing

@Suite("report --html in a real Chromium: what the page shows is what --json says")
struct BrowserChromiumReportTests {
  let config =
    #"{"rules":[{"name":"social","apps":["Instagram","TikTok","YouTube"],"dailyLimitMinutes":30,"grantMinutes":10}]}"#

  /// Nine days of use, a grant on one, one with time from before the split was kept.
  func prepare(_ sandbox: Sandbox) throws {
    try sandbox.writeConfig(config)
    let today = sandbox.store.today
    _ = try HistoryStore(beside: sandbox.store).update(keeping: 90, today: today) { history in
      for offset in 0...8 {
        let instagram = 300 + offset * 97
        let tiktok = offset % 3 == 0 ? 0 : 120 + offset * 31
        let grants = offset == 2 ? 1 : 0
        history.record(
          HistoryEntry(
            usedSeconds: instagram + tiktok + (offset == 4 ? 200 : 0),
            apps: ["Instagram": instagram, "TikTok": tiktok], limitSeconds: (30 + 10 * grants) * 60,
            grants: grants, shieldsShown: grants, tasksAsked: grants + (offset == 5 ? 1 : 0), tasksSolved: grants),
          for: "social", on: today.adding(days: -offset)!)
      }
    }
  }

  @Test("Bars, parts, limit lines, the table and the summary agree with --json and the text; no script, no fetch")
  func pageAgreesWithJSON() async throws {
    let chromium = try requiredTool("chromium", package: "chromium")
    let sandbox = try Sandbox()
    try prepare(sandbox)
    let page = sandbox.root.file("week.html")
    let written = try await sandbox.run(["report", "--html", page])
    #expect(written.status == 0, "\(written.error)")
    #expect(written.output == page + "\n")
    let json = try await JSONValue(parsing: try sandbox.run(["report", "--json"]).output)
    let text = try await sandbox.run(["report"]).output.split(separator: "\n").map(String.init)

    let browser = try DevToolsPipe(
      browser: [
        chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(sandbox.root.file("chromium"))",
        "--no-first-run", "--no-default-browser-check", "--disable-background-networking", "--window-size=800,700",
        "about:blank",
      ],
      environment: sandbox.environment, folder: sandbox.root.path)
    let target = try await poll("Chromium's page", timeout: .seconds(30)) {
      try await browser.targets().first { $0["type"]?.stringValue == "page" }?["targetId"]?.stringValue
    }
    let session = try await browser.attach(target)
    try await browser.call("Page.navigate", .object([("url", .string("file://" + page))]), session: session)
    _ = try await poll("the page loaded", timeout: .seconds(30)) {
      let state = try await browser.evaluate(
        "document.readyState === 'complete' && document.querySelector('svg') !== null ? 'ready' : ''",
        session: session)
      return state.stringValue == "ready" ? true : nil
    }
    // What the browser laid out: the parts' heights and the limit lines' places, in CSS pixels.
    let shown = try await browser.evaluate(
      """
      JSON.stringify({
        scripts: document.scripts.length,
        resources: performance.getEntriesByType('resource').length,
        scale: +document.querySelector('svg').dataset.scale,
        height: +document.querySelector('svg').dataset.chartHeight,
        days: [...document.querySelectorAll('g.day')].map(g => ({
          date: g.dataset.date, used: +g.dataset.used, limit: +g.dataset.limit,
          base: (s => s.getBoundingClientRect().top + +s.dataset.chartTop + +s.dataset.chartHeight)(document.querySelector('svg')),
          limitY: (r => r.top + r.height / 2)(g.querySelector('line.limit').getBoundingClientRect()),
          parts: [...g.querySelectorAll('rect.part')].map(r => ({
            app: r.dataset.app, seconds: +r.dataset.seconds, height: r.getBoundingClientRect().height,
            bottom: r.getBoundingClientRect().bottom }))
        })),
        table: [...document.querySelectorAll('tr')].map(r => r.innerText.replace(/\\s+/g, ' ').trim()),
        summary: [...document.querySelectorAll('li')].map(l => l.innerText)
      })
      """, session: session)
    let shownPage = try JSONValue(parsing: Array((shown.stringValue ?? "").utf8))
    #expect(shownPage["scripts"]?.integerValue == 0)
    #expect(shownPage["resources"]?.integerValue == 0, "the page fetches nothing")
    let scale = Double(try #require(shownPage["scale"]?.integerValue))
    let height = Double(try #require(shownPage["height"]?.integerValue))
    let days = try #require(shownPage["days"]?.arrayValue)
    let wanted = try #require(json["days"]?.arrayValue)
    #expect(days.count == wanted.count)
    for (day, expected) in zip(days, wanted) {
      let rule = try #require(expected["rules"]?.arrayValue?.first)
      #expect(day["date"]?.stringValue == expected["date"]?.stringValue)
      #expect(day["used"]?.integerValue == rule["usedSeconds"]?.integerValue)
      #expect(day["limit"]?.integerValue == rule["limitSeconds"]?.integerValue)
      let parts = day["parts"]?.arrayValue ?? []
      var stackedHeight = 0.0
      for app in rule["apps"]?.arrayValue ?? [] {
        let seconds = app["usedSeconds"]?.integerValue ?? 0
        let part = parts.first { $0["app"]?.stringValue == app["name"]?.stringValue }
        if seconds == 0 {
          #expect(part == nil, "\(day)")
          continue
        }
        #expect(part?["seconds"]?.integerValue == seconds, "\(day)")
        let drawn = part?["height"]?.pixels ?? -1
        #expect(abs(drawn - Double(seconds) * height / scale) < 0.6, "\(app) on \(day)")
        stackedHeight += drawn
      }
      // Time without a split is one grey part on top; the whole bar stands for the day's seconds.
      let total = parts.reduce(0.0) { $0 + ($1["height"]?.pixels ?? 0) }
      #expect(total >= stackedHeight)
      let used = Double(rule["usedSeconds"]?.integerValue ?? 0)
      #expect(abs(total - used * height / scale) < 1, "\(day)")
      let base = day["base"]?.pixels ?? 0
      let limitY = day["limitY"]?.pixels ?? 0
      let limit = Double(rule["limitSeconds"]?.integerValue ?? 0)
      #expect(abs((base - limitY) - limit * height / scale) < 1.5, "the limit line of \(day)")
    }
    // The table and the summary are the text report's words.
    let table = shownPage["table"]?.arrayValue?.compactMap(\.stringValue) ?? []
    let dayLines = text.filter { $0.hasPrefix("  20") }
    #expect(table.count == dayLines.count)
    for (row, line) in zip(table, dayLines) {
      let words = line.split(separator: " ")
      #expect(row == "\(words.first ?? "") \(words.suffix(2).joined(separator: " "))", "\(row) / \(line)")
    }
    let summary = shownPage["summary"]?.arrayValue?.compactMap(\.stringValue) ?? []
    #expect(summary == Array(text.suffix(summary.count)).map { String($0.dropFirst(2)) })
    #expect(summary.contains("1 task declined"), "\(summary)")

    let shot = try await browser.call(
      "Page.captureScreenshot", .object([("format", "png")]), session: session)
    let png = try #require(Data(base64Encoded: shot["data"]?.stringValue ?? ""))
    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    try png.write(to: URL(fileURLWithPath: sandbox.root.file("week.png")))
    _ = await browser.close()
  }

  /// Issue 33's ninth point: the week of a user who installed yesterday.
  @Test("A new install's week: days before it without a bar or limit, the times in words, a legend for the line")
  func newInstallsWeek() async throws {
    let chromium = try requiredTool("chromium", package: "chromium")
    let sandbox = try Sandbox()
    try sandbox.writeConfig(config)
    let today = sandbox.store.today
    _ = try HistoryStore(beside: sandbox.store).update(keeping: 90, today: today) { history in
      history.record(
        HistoryEntry(usedSeconds: 40, apps: ["Instagram": 40], limitSeconds: 1_800), for: "social",
        on: today.adding(days: -1)!)
      history.record(
        HistoryEntry(usedSeconds: 200, apps: ["Instagram": 140], limitSeconds: 1_800), for: "social", on: today)
    }
    let page = sandbox.root.file("week.html")
    #expect(try await sandbox.run(["report", "--html", page]).status == 0)
    let text = try await sandbox.run(["report"]).output.split(separator: "\n").map(String.init)
    let dayLines = text.filter { $0.hasPrefix("  20") }
    #expect(dayLines.count == 7)
    #expect(dayLines.prefix(5).allSatisfy { $0.hasSuffix("  no record") }, "\(dayLines)")
    #expect(dayLines[5].hasSuffix("  under a minute") && dayLines[6].hasSuffix("  3 minutes"), "\(dayLines)")

    let browser = try DevToolsPipe(
      browser: [
        chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(sandbox.root.file("chromium"))",
        "--no-first-run", "--no-default-browser-check", "--disable-background-networking", "--window-size=800,700",
        "about:blank",
      ],
      environment: sandbox.environment, folder: sandbox.root.path)
    let target = try await poll("Chromium's page", timeout: .seconds(30)) {
      try await browser.targets().first { $0["type"]?.stringValue == "page" }?["targetId"]?.stringValue
    }
    let session = try await browser.attach(target)
    try await browser.call("Page.navigate", .object([("url", .string("file://" + page))]), session: session)
    _ = try await poll("the page loaded", timeout: .seconds(30)) {
      let state = try await browser.evaluate(
        "document.readyState === 'complete' && document.querySelector('svg') !== null ? 'ready' : ''",
        session: session)
      return state.stringValue == "ready" ? true : nil
    }
    let shown = try await browser.evaluate(
      """
      JSON.stringify({
        svg: (r => ({left: r.left, right: r.right}))(document.querySelector('svg').getBoundingClientRect()),
        days: [...document.querySelectorAll('g.day')].map(g => ({
          recorded: g.dataset.recorded, limits: g.querySelectorAll('line.limit').length,
          parts: g.querySelectorAll('rect.part').length,
          time: [...g.querySelectorAll('text.time tspan')].map(t => t.textContent).join(' '),
          box: (r => ({left: r.left, right: r.right}))(g.querySelector('text.time').getBoundingClientRect())
        })),
        legend: [...document.querySelectorAll('.legend span')].map(s => ({
          text: s.innerText.trim(), colour: getComputedStyle(s.querySelector('i')).backgroundColor })),
        body: document.body.innerText
      })
      """, session: session)
    let shownPage = try JSONValue(parsing: Array((shown.stringValue ?? "").utf8))
    let days = try #require(shownPage["days"]?.arrayValue)
    #expect(days.count == 7)
    for (index, day) in days.enumerated() {
      let recorded = index >= 5
      #expect(day["recorded"]?.stringValue == (recorded ? "true" : "false"), "\(day)")
      #expect(day["limits"]?.integerValue == (recorded ? 1 : 0), "the limit line of \(day)")
      if !recorded { #expect(day["parts"]?.integerValue == 0, "\(day)") }
      // The words under the bar are the text report's.
      #expect(dayLines[index].hasSuffix("  " + (day["time"]?.stringValue ?? "?")), "\(day) / \(dayLines[index])")
    }
    // The words of neighbouring days do not run into each other, and stay in the picture.
    let boxes = days.compactMap { day -> (Double, Double)? in
      guard let left = day["box"]?["left"]?.pixels, let right = day["box"]?["right"]?.pixels else { return nil }
      return (left, right)
    }
    #expect(boxes.count == 7)
    for (first, second) in zip(boxes, boxes.dropFirst()) { #expect(first.1 <= second.0, "\(boxes)") }
    let svgLeft = shownPage["svg"]?["left"]?.pixels ?? 0
    let svgRight = shownPage["svg"]?["right"]?.pixels ?? 0
    #expect(boxes.allSatisfy { $0.0 >= svgLeft && $0.1 <= svgRight }, "\(boxes)")
    // The legend names the red line, and the grey of the time without a split.
    let legend = shownPage["legend"]?.arrayValue ?? []
    let limit = legend.first { $0["text"]?.stringValue == "The day’s limit" }
    #expect(limit?["colour"]?.stringValue == "rgb(204, 0, 0)", "\(legend)")
    #expect(legend.contains { $0["text"]?.stringValue == "Not split by app" }, "\(legend)")
    let body = try #require(shownPage["body"]?.stringValue)
    #expect(!body.contains("′"))
    let shot = try await browser.call("Page.captureScreenshot", .object([("format", "png")]), session: session)
    let png = try #require(Data(base64Encoded: shot["data"]?.stringValue ?? ""))
    try png.write(to: URL(fileURLWithPath: sandbox.root.file("new-install-week.png")))
    _ = await browser.close()
  }
}

extension JSONValue {
  /// A number the browser measured, whole or not.
  fileprivate var pixels: Double? {
    switch self {
    case .number(let value): value
    case .integer(let value): Double(value)
    default: nil
    }
  }
}
