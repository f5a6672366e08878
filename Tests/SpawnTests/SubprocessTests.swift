import Spawn
import TestSupport
import Testing

@Suite("Child processes get an exact argv and environment, and bounded waits")
struct SubprocessTests {
  @Test func largeInputAndOutputAtOnceDoNotDeadlock() throws {
    let input = [UInt8](repeating: UInt8(ascii: "x"), count: 4 << 20)
    let result = try Subprocess.run(["cat"], input: input, timeout: .seconds(60))
    #expect(result.status == 0)
    #expect(result.standardOutput.count == input.count)
  }

  @Test func aChildThatExitsBeforeReadingItsInputIsNoCrash() async throws {
    _ = try await ShieldBridgeTool.run(["--version"])  // makes sure SIGPIPE is ignored in this process
    let result = try Subprocess.run(["true"], input: [UInt8](repeating: 0, count: 1 << 20), timeout: .seconds(30))
    #expect(result.status == 0)
  }

  @Test func argumentsStayWholeAndNothingGoesThroughAShell() throws {
    let tricky = ["two words", "$HOME", "; rm -rf /", "'quoted'", "*", ""]
    let result = try Subprocess.run(["printf", "%s\\n"] + tricky)
    #expect(result.output == tricky.map { $0 + "\n" }.joined())
  }

  @Test func theEnvironmentIsExactlyTheOneGiven() throws {
    let result = try Subprocess.run(["env"], environment: ["ONLY": "this", "PATH": "/usr/bin:/bin"])
    #expect(result.output.split(separator: "\n").sorted() == ["ONLY=this", "PATH=/usr/bin:/bin"])
  }

  @Test func aChildPastItsTimeoutIsKilledAndSaidSo() throws {
    // A `sleep` left to run would end with a termination status.
    let result = try Subprocess.run(["sleep", "30"], timeout: .milliseconds(200))
    #expect(result.termination == nil)
  }

  @Test func aMissingProgramIsAnError() {
    #expect(throws: SpawnError.self) { try Subprocess(["/nonexistent/program"]) }
    #expect(throws: SpawnError.self) { try Subprocess(["printf", "nul\u{0}byte"]) }
    #expect(throws: SpawnError.self) { try Subprocess([]) }
  }

  @Test func waitingWithATimeoutReturnsWhenTheChildEnds() throws {
    let child = try Subprocess(["sh", "-c", "exit 3"])
    #expect(child.wait(timeout: .seconds(10)) == .exited(3))
    let sleeper = try Subprocess(["sleep", "30"])
    #expect(sleeper.wait(timeout: .milliseconds(50)) == nil)
    #expect(sleeper.terminate(grace: .seconds(2)) == .signalled(15))
  }
}
