import DeepLink

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

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
  private static let chunkSize = 1 << 16

  /// Answers `input` by appending to `output`; returns whether the input was good.
  typealias Handler = (_ input: UnsafeBufferPointer<UInt8>, _ source: Source, _ output: inout LinkOutput) -> Bool

  /// A line longer than this is handed over cut to this length and the rest
  /// is skipped, so that an endless line cannot exhaust memory; `nil` keeps
  /// whole lines.
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
          if !handler(bytes, .argument(index + 1), &output) { allGood = false }
        }
        output.write()
      }
      return allGood ? .success : .dataError
    }
    let status = readLines { line, number in
      if !handler(line, .line(number), &output) { allGood = false }
    } beforeWaiting: {
      output.write()
    }
    output.write()
    if let status { return status }
    return allGood ? .success : .dataError
  }

  /// Calls `body` with each line of stdin (without its newline) and its number from 1.
  ///
  /// - Returns: `nil` at the end of the input, 74 when reading failed.
  private func readLines(
    _ body: (UnsafeBufferPointer<UInt8>, Int) -> Void, beforeWaiting: () -> Void
  ) -> ExitCode? {
    var buffer = [UInt8](repeating: 0, count: LinkInput.chunkSize)
    var start = 0
    var end = 0
    var number = 0
    // After a line was cut at the maximum length, the rest of it is skipped.
    var skipping = false
    while true {
      let consumed = buffer.withUnsafeBufferPointer { bytes in
        var position = start
        while position < end {
          guard let base = bytes.baseAddress,
            let newline = memchr(base + position, 0x0A, end - position)
          else { break }
          let lineEnd = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
          if !skipping {
            number += 1
            body(UnsafeBufferPointer(rebasing: bytes[position..<lineEnd]), number)
          }
          skipping = false
          position = lineEnd + 1
        }
        if !skipping, let limit = maximumLineLength, end - position > limit {
          number += 1
          body(UnsafeBufferPointer(rebasing: bytes[position..<(position + limit)]), number)
          skipping = true
        }
        return skipping ? end : position
      }
      start = consumed
      beforeWaiting()
      if start > 0 {
        buffer.withUnsafeMutableBufferPointer { bytes in
          guard let base = bytes.baseAddress else { return }
          memmove(base, base + start, end - start)
        }
        end -= start
        start = 0
      }
      if end == buffer.count {
        buffer.append(contentsOf: repeatElement(0, count: buffer.count))
      }
      let count = buffer.withUnsafeMutableBufferPointer { bytes in
        read(0, bytes.baseAddress.map { $0 + end }, bytes.count - end)
      }
      if count < 0 {
        if errno == EINTR { continue }
        Output.err("shieldbridge: reading stdin failed: \(String(cString: strerror(errno)))")
        return .ioError
      }
      if count == 0 {
        if end > start && !skipping {
          buffer.withUnsafeBufferPointer { bytes in
            body(UnsafeBufferPointer(rebasing: bytes[start..<end]), number + 1)
          }
        }
        return nil
      }
      end += count
    }
  }

  /// Reports a bad input on stderr, after what stdout holds so far.
  static func report(_ error: DeepLinkError, _ source: Source, output: inout LinkOutput) {
    output.write()
    Output.err("shieldbridge: \(source.label): \(error)")
  }
}
