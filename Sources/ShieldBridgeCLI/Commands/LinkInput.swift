import DeepLink
import Posix

/// The inputs of `link encode`, `link decode` and `link parse`: each argument,
/// or else each line of stdin, answered in order.
///
/// Answers are collected in one buffer and written when stdin has nothing
/// more to give at once, so a pipe of a million lines costs a few hundred
/// writes, while someone typing sees each answer as soon as the line is read.
struct LinkInput {
  /// Where an input came from, for error messages.
  enum Source {
    case argument(Int)
    case line(Int)

    var label: String {
      switch self {
      case .argument(let number): "argument \(number)"
      case .line(let number): "line \(number)"
      }
    }
  }

  /// Reads a line of stdin in chunks of this size.
  static let chunkSize = 1 << 16

  /// Answers `input` by appending to `output`; returns whether the input was good.
  ///
  /// `length` is the input's whole length, more than `input.count` when a
  /// line was cut at ``maximumLineLength``.
  typealias Handler = (
    _ input: UnsafeBufferPointer<UInt8>, _ length: Int, _ source: Source, _ output: inout LinkOutput
  ) -> Bool

  /// A line longer than this is handed over cut to this length, with its
  /// whole length, and the rest is skipped, so that an endless line cannot
  /// exhaust memory; `nil` keeps whole lines.
  var maximumLineLength: Int?

  /// Runs `handler` on every input and writes its answers to stdout.
  ///
  /// - Returns: 0 when every input was good, 65 when any was bad, 74 when stdin could not be read.
  func run(_ invocation: Invocation<some OptionGroup>, _ handler: Handler) -> ExitCode {
    var output = LinkOutput()
    var allGood = true
    if !invocation.positionals.isEmpty {
      for (index, argument) in invocation.positionals.enumerated() {
        var argument = argument
        argument.withUTF8 { bytes in
          if !handler(bytes, bytes.count, .argument(index + 1), &output) { allGood = false }
        }
        output.write()
      }
      return allGood ? .success : .dataError
    }
    let status = readLines { line, length, number in
      if !handler(line, length, .line(number), &output) { allGood = false }
    } beforeWaiting: {
      output.write()
    }
    output.write()
    if let status { return status }
    return allGood ? .success : .dataError
  }

  /// Calls `body` with each line of stdin (without its newline), its whole length and its number from 1.
  ///
  /// - Returns: `nil` at the end of the input, 74 when reading failed.
  private func readLines(
    _ body: (UnsafeBufferPointer<UInt8>, Int, Int) -> Void, beforeWaiting: () -> Void
  ) -> ExitCode? {
    var reader = LineReader(chunkSize: LinkInput.chunkSize, maximumLineLength: maximumLineLength)
    var number = 0
    do {
      while try reader.withNextMeasuredLine(
        beforeWaiting: beforeWaiting,
        { (line: UnsafeBufferPointer<UInt8>, length: Int) -> Void in
          number += 1
          body(line, length, number)
        }) != nil
      {}
    } catch {
      Output.err("shieldbridge: reading stdin failed: \(error)")
      return .ioError
    }
    return nil
  }

  /// Reports a bad input on stderr, after what stdout holds so far.
  static func report(_ error: DeepLinkError, _ source: Source, output: inout LinkOutput) {
    output.write()
    Output.err("shieldbridge: \(source.label): \(error)")
  }
}
