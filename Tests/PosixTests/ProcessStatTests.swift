import Glibc
import Posix
import Testing

@Suite("/proc/PID/stat: a process's parent and start time, and its ancestry")
struct ProcessStatTests {
  @Test("A command with spaces and parentheses does not shift the fields")
  func commandsWithParenthesesAreSkipped() {
    let fields = (5...52).map(String.init).joined(separator: " ")
    let line = Array("1234 (a) b (c)) S 77 \(fields)\n".utf8)
    let stat = ProcessStat(line: line)
    #expect(stat?.parentID == 77)
    // starttime is field 22: the 20th after the command; fields 4… are "77 5 6 …", so field 22 is "22".
    #expect(stat?.startTime == 22)
    #expect(ProcessStat(line: Array("1234 (cut".utf8)) == nil)
    #expect(ProcessStat(line: Array("1234 (a) S x 5 6".utf8)) == nil)
  }

  @Test("This process's parent and ancestry are the kernel's")
  func thisProcess() {
    #expect(ProcessStat(of: getpid())?.parentID == getppid())
    let ancestry = ProcessStat.ancestry(of: getpid(), generations: 3)
    #expect(ancestry.first == getppid())
    #expect((1...3).contains(ancestry.count))
    #expect(ProcessStat.ancestry(of: getpid(), generations: 0).isEmpty)
  }

  @Test("A process that does not exist has no line and no ancestry")
  func missingProcess() {
    #expect(ProcessStat(of: 0) == nil)
    #expect(ProcessStat(of: -1) == nil)
    #expect(ProcessStat(of: Int32.max) == nil)
    #expect(ProcessStat.ancestry(of: Int32.max, generations: 4).isEmpty)
  }
}
