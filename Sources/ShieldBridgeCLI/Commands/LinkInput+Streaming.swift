import DeepLink
import Posix

extension LinkInput {
  /// An answer is held until its input is complete as long as it is shorter
  /// than this; a longer one is written as it grows, so that a line of any
  /// length is answered in bounded memory.
  static let heldAnswerLimit = 1 << 20

  /// Runs a new stream from `makeStream` on every input, each line of stdin
  /// read in pieces, and writes its answers to stdout.
  ///
  /// An answer is written as a whole once its input is good, and a bad
  /// input's is dropped, as ``run(_:_:)`` does, as long as the answer stays
  /// under ``heldAnswerLimit``. Past that it is written as it grows; a bad
  /// input found later ends what was written with a newline, and the error
  /// says that part of its answer was written.
  ///
  /// - Returns: 0 when every input was good, 65 when any was bad, 74 when stdin could not be read.
  func run<Stream: LinkStream>(_ invocation: Invocation<some OptionGroup>, streaming makeStream: () -> Stream)
    -> ExitCode
  {
    var output = LinkOutput()
    var answer = LinkOutput()
    var allGood = true
    if !invocation.positionals.isEmpty {
      for (index, argument) in invocation.positionals.enumerated() {
        var argument = argument
        var line = StreamedLine(stream: makeStream(), source: .argument(index + 1))
        argument.withUTF8 { line.consume($0, isFinal: true, output: &output, answer: &answer) }
        if !line.isGood { allGood = false }
        output.write()
      }
      return allGood ? .success : .dataError
    }
    var reader = LineReader(chunkSize: LinkInput.chunkSize)
    var line: StreamedLine<Stream>?
    var number = 0
    do {
      while try reader.withNextPiece(
        beforeWaiting: { output.write() },
        { (piece: UnsafeBufferPointer<UInt8>, endsLine: Bool) -> Void in
          if line == nil {
            number += 1
            line = StreamedLine(stream: makeStream(), source: .line(number))
          }
          line?.consume(piece, isFinal: endsLine, output: &output, answer: &answer)
          if endsLine {
            if line?.isGood == false { allGood = false }
            line = nil
          }
        }) != nil
      {}
    } catch {
      output.write()
      Output.err("shieldbridge: reading stdin failed: \(error)")
      return .ioError
    }
    output.write()
    return allGood ? .success : .dataError
  }
}

/// One input's answer on its way: held in `answer` until it is complete or
/// too long to hold, then appended to the output or written.
private struct StreamedLine<Stream: LinkStream> {
  var stream: Stream
  let source: LinkInput.Source
  /// Whether part of the answer was written already.
  private var streaming = false
  private(set) var isGood = true

  init(stream: Stream, source: LinkInput.Source) {
    self.stream = stream
    self.source = source
  }

  /// Answers the next piece of the input; after an error the rest is ignored.
  mutating func consume(
    _ piece: UnsafeBufferPointer<UInt8>, isFinal: Bool, output: inout LinkOutput, answer: inout LinkOutput
  ) {
    guard isGood else { return }
    do throws(DeepLinkError) {
      try stream.consume(piece, isFinal: isFinal, into: &answer)
    } catch {
      isGood = false
      answer.removeAll()
      if streaming {
        // What was written cannot be taken back: end its line, so that the
        // next answers keep theirs, and say so.
        output.append(0x0A)
        var error = error
        error.message += " (the answer's first part was already written; it ends there)"
        LinkInput.report(error, source, output: &output)
      } else {
        LinkInput.report(error, source, output: &output)
      }
      return
    }
    if isFinal {
      answer.append(0x0A)
      if streaming {
        answer.write()
      } else {
        answer.withBytes { output.append(bytes: $0) }
        answer.removeAll()
      }
    } else if streaming || answer.count >= LinkInput.heldAnswerLimit {
      if !streaming { output.write() }
      streaming = true
      answer.write()
    }
  }
}
