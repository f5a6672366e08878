import Foundation
import Posix
import Spawn
import TestSupport
import Testing

/// Runs `shieldbridge` with raw bytes on stdin, read from a file.
///
/// `Subprocess.run` writes its input with one blocking `write`, which waits
/// for ever once the child has filled its stdout pipe too; a file on stdin
/// (through `sh`'s redirect, the arguments passed on untouched) has no such limit.
private func run(_ arguments: [String], bytes: [UInt8]) throws -> Subprocess.Result {
  let directory = try TemporaryDirectory()
  let input = directory.file("input")
  try Data(bytes).write(to: URL(fileURLWithPath: input))
  return try Subprocess.run(
    [
      "/bin/sh", "-c", #"input=$1; shift; exec "$@" < "$input""#, "sh", input,
      ShieldBridgeTool.path,
    ] + arguments,
    timeout: .seconds(30))
}

@Suite("The link command, run as the real binary")
struct LinkCommandTests {
  @Test("parse --json answers every stdin line in order and exits 65 when one was bad")
  func parseJSONBulk() async throws {
    let input = """
      shieldbridge://puzzle?app=Instagram
      shieldbridge://view?app=Signal&view=messages&id=n-1&utm=x
      shieldbridge://puzzle?app=Insta%G1
      shieldbridge://puzzle?app=Caf%C3%A9%20%22%5C&grant=12
      https://example.org
      shieldbridge://puzzle?grant=5

      """
    let result = try await ShieldBridgeTool.run(["link", "parse", "--json"], input: input)
    #expect(result.status == 65)
    #expect(result.error.isEmpty)
    let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
    #expect(
      lines == [
        #"{"ok":true,"action":"puzzle","scheme":"shieldbridge","app":"Instagram","grant":5,"id":"shield-open","ignored":[]}"#,
        #"{"ok":true,"action":"view","scheme":"shieldbridge","app":"Signal","view":"messages","id":"n-1","ignored":["utm"]}"#,
        #"{"ok":false,"error":"bad-percent-escape","offset":31,"message":"'%' must be followed by two hexadecimal digits"}"#,
        #"{"ok":true,"action":"puzzle","scheme":"shieldbridge","app":"Café \"\\","grant":12,"id":"shield-open","ignored":[]}"#,
        #"{"ok":false,"error":"bad-scheme","offset":0,"message":"the scheme must be 'shieldbridge', not 'https'"}"#,
        #"{"ok":true,"action":"puzzle","scheme":"shieldbridge","app":null,"grant":5,"id":"shield-open","ignored":[]}"#,
        "",
      ])
    for line in lines.dropLast() {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      #expect(object?["ok"] is Bool)
    }
  }

  @Test("parse without --json prints actions and reports errors on stderr with the line")
  func parseText() async throws {
    let result = try await ShieldBridgeTool.run(
      [
        "link", "parse", "shieldbridge://puzzle?app=A%20B&ref=x", "shieldbridge://view?app=Mail",
        "shieldbridge://view",
      ])
    #expect(result.status == 65)
    #expect(
      result.output == """
        puzzle app="A B" grant=5 id="shield-open" ignored=ref
        view app="Mail" view="home" id="shield-open"

        """)
    #expect(result.error.contains("argument 3: missing-parameter at byte 19"))
  }

  @Test("a run with only good links exits 0")
  func allGood() async throws {
    let result = try await ShieldBridgeTool.run(
      ["link", "parse", "--json"], input: "shieldbridge://puzzle\nSHIELDBRIDGE://VIEW?app=x\n")
    #expect(result.status == 0)
    #expect(result.output.split(separator: "\n").count == 2)
  }

  @Test("parse --scheme takes links of another scheme")
  func parseScheme() async throws {
    let result = try await ShieldBridgeTool.run([
      "link", "parse", "--json", "--scheme", "Focus", "focus://puzzle",
    ])
    #expect(result.status == 0)
    #expect(result.output.contains(#""scheme":"focus""#))
  }

  @Test("a line far over the limit is too-long and the next line is still answered")
  func longLine() async throws {
    let input =
      "shieldbridge://puzzle?app=" + String(repeating: "a", count: 200_000)
      + "\nshieldbridge://puzzle\n"
    let result = try await ShieldBridgeTool.run(["link", "parse", "--json"], input: input)
    #expect(result.status == 65)
    let lines = result.output.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.first?.hasPrefix(#"{"ok":false,"error":"too-long","offset":2048"#) == true)
    #expect(lines.last?.hasPrefix(#"{"ok":true,"action":"puzzle""#) == true)
  }

  @Test("a 10 MB line is reported with its whole length, in text and in JSON")
  func tenMegabyteLine() async throws {
    let link = "shieldbridge://puzzle?app=" + String(repeating: "a", count: 10_000_000)
    let input = Array((link + "\nshieldbridge://puzzle\n").utf8)
    let message = "the link has \(link.utf8.count) bytes; at most 2048 are allowed"
    let json = try run(["link", "parse", "--json"], bytes: input)
    #expect(json.status == 65)
    let lines = json.output.split(separator: "\n").map(String.init)
    #expect(
      lines.first == #"{"ok":false,"error":"too-long","offset":2048,"message":"\#(message)"}"#)
    #expect(lines.count == 2)
    let text = try run(["link", "parse"], bytes: input)
    #expect(text.status == 65)
    #expect(text.error.contains("line 1: too-long at byte 2048: \(message)\n"))
    #expect(text.output.hasPrefix("puzzle "))
    // A line just over the limit, which the reader does not cut, says the same.
    let short = try await ShieldBridgeTool.run(
      ["link", "parse", "--json"], input: String(link.prefix(2049)) + "\n")
    #expect(short.output.contains("the link has 2049 bytes; at most 2048 are allowed"))
  }

  @Test("10,000 links on stdin give 10,000 answers in order")
  func bulkOrder() throws {
    let input = (0..<10_000).map { "shieldbridge://puzzle?app=app\($0)&grant=\($0 % 120 + 1)\n" }
      .joined()
    let result = try run(["link", "parse", "--json"], bytes: Array(input.utf8))
    #expect(result.status == 0)
    let lines = result.output.split(separator: "\n")
    #expect(lines.count == 10_000)
    for (index, line) in lines.enumerated()
    where !line.contains(#""app":"app\#(index)","grant":\#(index % 120 + 1),"#) {
      Issue.record("line \(index + 1): \(line)")
      break
    }
  }

  @Test("each answer is flushed before the next line is read")
  func flushedPerLine() throws {
    let child = try Subprocess(
      [ShieldBridgeTool.path, "link", "parse", "--json"], standardInput: .pipe,
      standardOutput: .pipe,
      standardError: .null)
    defer { _ = child.terminate() }
    guard let stdin = child.standardInput, let stdout = child.standardOutput else {
      Issue.record("no pipes")
      return
    }
    for (index, link) in ["shieldbridge://puzzle?app=One\n", "shieldbridge://view?app=Two\n"]
      .enumerated()
    {
      let written = try stdin.write(Array(link.utf8)[...])
      #expect(written == link.utf8.count)
      let line = try #require(readLine(from: stdout, timeout: .seconds(10)), "answer \(index + 1)")
      #expect(line.contains(index == 0 ? #""app":"One""# : #""app":"Two""#))
    }
    child.closeStandardInput()
    #expect(child.wait(timeout: .seconds(10)) == .exited(0))
  }

  @Test("encode answers each line, reports one that is not UTF-8, and exits 65")
  func encodeBulk() throws {
    let bytes = Array("Café & Co\n".utf8) + [0x61, 0xC3, 0x28, 0x0A] + Array("日本語 😀\n\n".utf8)
    let result = try run(["link", "encode"], bytes: bytes)
    #expect(result.status == 65)
    #expect(result.output == "Caf%C3%A9%20%26%20Co\n%E6%97%A5%E6%9C%AC%E8%AA%9E%20%F0%9F%98%80\n\n")
    #expect(result.error.contains("line 2: invalid-utf8 at byte 1"))
  }

  @Test("encode and decode take arguments, one answer each")
  func encodeDecodeArguments() async throws {
    let encoded = try await ShieldBridgeTool.run(["link", "encode", "a b+c", "~ok-_."])
    #expect(encoded.status == 0)
    #expect(encoded.output == "a%20b%2Bc\n~ok-_.\n")
    let decoded = try await ShieldBridgeTool.run(["link", "decode", "a%20b%2bc", "%E2%9C%93"])
    #expect(decoded.status == 0)
    #expect(decoded.output == "a b+c\n✓\n")
  }

  @Test("decode refuses bad input with its code and offset, and answers the rest")
  func decodeErrors() async throws {
    let result = try await ShieldBridgeTool.run(
      ["link", "decode"], input: "ok%21\na+b\n%C0%AF\n%0A\n%\nfine\n")
    #expect(result.status == 65)
    #expect(result.output == "ok!\nfine\n")
    let errors = result.error.split(separator: "\n")
    #expect(errors.count == 4)
    #expect(errors.first?.contains("line 2: unencoded-character at byte 1") == true)
    #expect(result.error.contains("line 3: invalid-utf8 at byte 0"))
    #expect(result.error.contains("line 4: control-character at byte 0"))
    #expect(result.error.contains("line 5: bad-percent-escape at byte 0"))
  }

  @Test(
    "encode and decode answer a long line before it ends, and keep it whole when it ends",
    arguments: [("encode", "a"), ("decode", "%41")])
  func longLineStreams(command: String, unit: String) throws {
    let child = try Subprocess(
      [ShieldBridgeTool.path, "link", command], standardInput: .pipe, standardOutput: .pipe,
      standardError: .null)
    defer { _ = child.terminate() }
    guard let stdin = child.standardInput, let stdout = child.standardOutput else {
      Issue.record("no pipes")
      return
    }
    // 4 MiB of the line, without its end: a filter that streams has answered some
    // of it. The writer has a thread of its own, as a streaming answer fills the
    // stdout pipe before the 4 MiB are read.
    let piece = Array(String(repeating: unit, count: (1 << 20) / unit.utf8.count).utf8)
    let go = DispatchSemaphore(value: 0)
    let written = DispatchSemaphore(value: 0)
    detachThread {
      for _ in 0..<4 { try? stdin.writeAll(piece) }
      go.wait()
      try? stdin.writeAll(Array("\n\(unit)\n".utf8))
      written.signal()
    }
    let early = readAvailable(from: stdout, atLeast: 1 << 20, timeout: .seconds(20))
    #expect(early.count >= 1 << 20, "answered \(early.count) bytes before the line ended")
    go.signal()
    let total = 4 * ((1 << 20) / unit.utf8.count) + 3
    let answer = early + readAvailable(from: stdout, atLeast: total - early.count, timeout: .seconds(30))
    written.wait()
    child.closeStandardInput()
    #expect(child.wait(timeout: .seconds(10)) == .exited(0))
    let expected: Unicode.Scalar = command == "encode" ? "a" : "A"
    #expect(answer.count == total)
    #expect(answer.allSatisfy { $0 == UInt8(ascii: expected) || $0 == 0x0A })
    #expect(answer.suffix(3) == Array("\n\(expected)\n".utf8))
  }

  @Test("an error past the held part of a long answer ends what was written with a newline")
  func longLineErrorAfterStreaming() throws {
    let bytes = Array(String(repeating: "a", count: 3 << 20).utf8) + [0xFF, 0x0A] + Array("b\n".utf8)
    let result = try run(["link", "encode"], bytes: bytes)
    #expect(result.status == 65)
    #expect(result.error.contains("line 1: invalid-utf8 at byte \(3 << 20)"))
    #expect(result.error.contains("already written"))
    let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 3)
    #expect(lines.last == "")
    #expect(lines.dropLast().last == "b")
    #expect((lines.first?.count ?? 0) >= 1 << 20 && (lines.first?.count ?? 0) <= 3 << 20)
    #expect(lines.first?.allSatisfy { $0 == "a" } == true)
  }

  @Test("build writes links that parse back to the same action")
  func buildThenParse() async throws {
    let puzzle = try await ShieldBridgeTool.run([
      "link", "build", "puzzle", "--app", "Insta gram", "--grant", "15",
    ])
    #expect(puzzle.status == 0)
    #expect(puzzle.output == "shieldbridge://puzzle?app=Insta%20gram&grant=15&id=shield-open\n")
    let bare = try await ShieldBridgeTool.run([
      "link", "build", "puzzle", "--app", "", "--scheme", "Focus",
    ])
    #expect(bare.output == "focus://puzzle?grant=5&id=shield-open\n")
    let view = try await ShieldBridgeTool.run([
      "link", "build", "view", "--app", "日本", "--view", "inbox", "--id", "a.b",
    ])
    #expect(view.output == "shieldbridge://view?app=%E6%97%A5%E6%9C%AC&view=inbox&id=a.b\n")
    let parsed = try await ShieldBridgeTool.run(
      ["link", "parse", "--json"], input: puzzle.output + view.output)
    #expect(parsed.status == 0)
    #expect(parsed.output.contains(#""app":"Insta gram","grant":15,"id":"shield-open""#))
    #expect(parsed.output.contains(#""app":"日本","view":"inbox","id":"a.b""#))
  }

  @Test(
    "usage errors exit 64 with a message",
    arguments: [
      ["link"],
      ["link", "frobnicate"],
      ["link", "parse", "--bogus"],
      ["link", "build"],
      ["link", "build", "view"],
      ["link", "build", "view", "--app", ""],
      ["link", "build", "puzzle", "--grant", "0"],
      ["link", "build", "puzzle", "--grant", "x"],
      ["link", "build", "puzzle", "--id", "a b"],
      ["link", "build", "view", "--app", "A", "--view", "Feed"],
      ["link", "build", "puzzle", "--scheme", "9"],
      ["link", "build", "puzzle", "extra"],
      ["link", "parse", "--scheme", ""],
    ])
  func usageErrors(arguments: [String]) async throws {
    let result = try await ShieldBridgeTool.run(arguments)
    #expect(result.status == 64)
    #expect(result.output.isEmpty)
    #expect(result.error.contains("shieldbridge"))
  }

  @Test("every level has --help")
  func help() async throws {
    for path in [
      ["link"], ["link", "parse"], ["link", "build"], ["link", "build", "view"],
      ["link", "encode"],
    ] {
      let result = try await ShieldBridgeTool.run(path + ["--help"])
      #expect(result.status == 0)
      #expect(result.output.contains("Usage: shieldbridge " + path.joined(separator: " ")))
    }
  }
}

/// One line from `descriptor`, waiting at most `timeout` for it.
private func readLine(from input: FileDescriptor, timeout: Duration) -> String? {
  let deadline = ContinuousClock.now + timeout
  var bytes: [UInt8] = []
  var byte: [UInt8] = [0]
  while true {
    guard (try? input.waitUntilReadable(timeout: deadline - ContinuousClock.now)) == true,
      (try? input.read(into: &byte)) == 1
    else { return nil }
    if byte[0] == 0x0A { return String(decoding: bytes, as: UTF8.self) }
    bytes.append(byte[0])
  }
}

/// What `descriptor` gives until it has `atLeast` bytes, it ends, or `timeout` passes.
private func readAvailable(from descriptor: FileDescriptor, atLeast: Int, timeout: Duration) -> [UInt8] {
  let deadline = ContinuousClock.now + timeout
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while bytes.count < atLeast {
    let remaining = deadline - ContinuousClock.now
    guard remaining > .zero else { break }
    guard (try? descriptor.waitUntilReadable(timeout: min(remaining, .milliseconds(100)))) == true else { continue }
    guard let count = try? descriptor.read(into: &chunk), count > 0 else { break }
    bytes += chunk[..<count]
  }
  return bytes
}
