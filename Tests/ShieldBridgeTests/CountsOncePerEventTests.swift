import DBus
import Foundation
import JSON
import Model
import Notifications
import Posix
import ShieldBridge
import Spawn
import Store
import TestSupport
import Testing

/// The processes whose argv is `argv`, started with `HOME=home`: this test's own,
/// not another test's puzzle with the same arguments.
private func processes(running argv: [String], home: String) -> [Int32] {
  Subprocess.processes(startedWith: "HOME=" + home).filter { Subprocess.arguments(of: $0) == argv }
}

/// The native host of a site service whose limit is a second, with the site
/// in front and shielded.
private func shieldedSite() async throws -> (harness: SiteHarness, host: NativeHostProcess, store: LedgerStore) {
  let harness = try await SiteHarness(
    configuration: SiteHarness.configuration(dailyLimitMinutes: 1, grantMinutes: 1, maxGrantsPerDay: 3),
    minuteLength: 1000)
  let host = try harness.host()
  try host.focus("instagram.com")
  _ = try await host.state("instagram.com") { $0["shielded"] == true }
  return (harness, host, harness.sandbox.store)
}

@Suite("A count moves once per event: one request per rule's task, one way out per shield shown")
struct CountsOncePerEventTests {
  @Test("30 puzzle links sent to the service's Open, each with its own id, open one terminal and count one request")
  func thirtyLinksOneTerminal() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeServiceConfig()
    let xvfb = try await XvfbServer()
    let folder = sandbox.root.file("bin")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/xterm", withDestinationPath: try requiredTool("xterm", package: "xterm"))
    var environment = sandbox.environment.filter { !$0.value.isEmpty }
    environment["DISPLAY"] = xvfb.display
    environment["PATH"] = folder
    let harness = try await ServiceHarness(
      capabilities: [Capability.actions, Capability.body], environment: environment, sandbox: sandbox)
    func open(_ identifier: String) async throws -> String {
      let reply = try await harness.call(
        ServiceInterface.open.name, "shieldbridge://puzzle?app=Instagram&grant=5&id=\(identifier)")
      return try JSONValue(parsing: try reply.decode(String.self)).outcome ?? ""
    }
    let puzzle = [ShieldBridgeTool.path, "puzzle", "--grant", "5", "--app", "Instagram"]
    let store = sandbox.store
    // The first link opens the terminal, whose puzzle counts its request as it shows the task;
    // the other 29 come while that task is open (on a busy machine the terminal takes seconds
    // to start, and a terminal that ended would rightly be opened again).
    #expect(try await open("link-0") == "terminal")
    _ = try await poll("the terminal's request counted", timeout: HangBound.wait) {
      (try? store.load().value.tasksAsked(for: "social", on: store.today)) == 1 ? true : nil
    }
    var outcomes: [String] = []
    for index in 1..<30 { outcomes.append(try await open("link-\(index)")) }
    #expect(outcomes.allSatisfy { $0 == "coalesced" }, "\(outcomes)")

    let running = processes(running: puzzle, home: sandbox.root.path)
    defer { for pid in running { kill(pid, SIGTERM) } }
    #expect(running.count == 1, "\(running)")
    // A link after the 30, while the task is open, is no request either.
    #expect(try await open("link-late") == "coalesced")
    #expect(processes(running: puzzle, home: sandbox.root.path).count == 1)
    #expect(try store.load().value.tasksAsked(for: "social", on: store.today) == 1)
    _ = xvfb
  }

  @Test("500 way outs to the native host count none without a shield, and one for the shield shown")
  func fiveHundredWayOuts() async throws {
    // A limit of a second: the site is shielded soon after it is in front.
    let harness = try await SiteHarness(
      configuration: SiteHarness.configuration(dailyLimitMinutes: 1, grantMinutes: 1, maxGrantsPerDay: 3),
      minuteLength: 1000)
    let host = try harness.host()
    let store = harness.sandbox.store
    func sendWayOuts(_ count: Int) async throws {
      let mark = host.received.count
      for _ in 0..<count { try host.send(json(["type": "wayOut", "site": "instagram.com"])) }
      _ = try await poll("the answers to \(count) way outs", timeout: HangBound.wait) {
        host.received.events.dropFirst(mark).filter { $0["type"] == "backedOut" }.count >= count ? true : nil
      }
    }

    // No shield: the site is not even in front yet.
    try await sendWayOuts(500)
    #expect(try store.load().value.backedOut(for: "social", on: store.today) == 0)

    try host.focus("instagram.com")
    _ = try await host.state("instagram.com") { $0["shielded"] == true }
    try await sendWayOuts(500)
    #expect(try store.load().value.backedOut(for: "social", on: store.today) == 1)

    // A grant, and the next limit is the next shield: its way out counts once more.
    var mark = host.received.count
    try host.send(json(["type": "puzzle", "site": "instagram.com"]))
    let task = try await host.message("a task", after: mark) { $0["type"] == "puzzle" }
    let question = try #require(task["question"]?.stringValue)
    let right = try #require(answer(toQuestion: question))
    mark = host.received.count
    try host.send(json(["type": "answer", "puzzle": task["puzzle"] ?? .null, "answer": .string("\(right)")]))
    let solved = try await host.message("the solved result", after: mark) { $0["type"] == "answer" }
    #expect(solved["result"] == "solved", "\(solved)")
    _ = try await host.state("instagram.com", after: mark) {
      $0["shielded"] == true && $0["limitSeconds"]?.integerValue == 2
    }
    try await sendWayOuts(500)
    #expect(try store.load().value.backedOut(for: "social", on: store.today) == 2)
    try host.closeInput()
    #expect(await host.exitStatus() == 0)
  }

  @Test("The shield page asking again for its task (reloaded, a second tab) gets the same task, not a second request")
  func thePagesOwnRequestIsOne() async throws {
    let (harness, host, store) = try await shieldedSite()
    var tasks: [JSONValue] = []
    for _ in 0..<3 {
      let mark = host.received.count
      try host.send(json(["type": "puzzle", "site": "www.instagram.com"]))
      tasks.append(try await host.message("a task", after: mark) { $0["type"] == "puzzle" })
    }
    #expect(Set(tasks.map { $0["puzzle"] }).count == 1, "\(tasks)")
    #expect(tasks.allSatisfy { $0["asked"]?.integerValue == 1 }, "\(tasks)")
    #expect(tasks.allSatisfy { !($0["prompt"]?.stringValue ?? "").contains("asked") }, "\(tasks)")
    #expect(try store.load().value.tasksAsked(for: "social", on: store.today) == 1)
    try host.closeInput()
    #expect(await host.exitStatus() == 0)
    _ = harness
  }

  @Test("A task asked in the terminal at the limit, then the shield page's own first task: one request, not two")
  func terminalThenPageIsOneRequest() async throws {
    let (harness, host, store) = try await shieldedSite()
    // The notification's task, opened in a terminal and left unanswered.
    let terminal = try await ShieldBridgeTool.run(
      ["puzzle", "--app", "Instagram", "--seed", "4"], input: "",
      environment: harness.sandbox.serviceEnvironment(address: harness.bus.address))
    #expect(terminal.status == 1, "\(terminal.output) \(terminal.error)")
    #expect(try store.load().value.tasksAsked(for: "social", on: store.today) == 1)
    // The page shown at the same limit asks its own first task: the same request.
    let mark = host.received.count
    try host.send(json(["type": "puzzle", "site": "instagram.com"]))
    let task = try await host.message("the page's task", after: mark) { $0["type"] == "puzzle" }
    #expect(task["asked"]?.integerValue == 1, "\(task)")
    let prompt = task["prompt"]?.stringValue ?? ""
    #expect(!prompt.contains("asked"), "\(task)")
    #expect(try store.load().value.tasksAsked(for: "social", on: store.today) == 1)
    try host.closeInput()
    #expect(await host.exitStatus() == 0)
  }
}
