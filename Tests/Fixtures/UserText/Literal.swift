// A command file with new English text written to the user: scripts/lint-user-text refuses each marked line.
// Not compiled: the lint's test runs the script on it (Tests/LocalizationTests/UserTextLintTests.swift).

func runToday(date: String, name: String) throws(CommandFailure) -> Ending {
  Output.say(CommandMessage(.today, ["date": date]))
  Output.out("Have a calm day")  // refused: line 6
  Output.out(date)  // refused, no allow-list comment: line 7
  guard !date.isEmpty else {
    throw .usage(
      "give a date")  // refused: the call on line 9
  }
  guard date.count > 2 else { throw CommandFailure("the date is too short", exitCode: .usage) }  // line 12
  return Ending(status: .usage, error: "\(name): no such day")  // refused: line 13
}

func check(name: String) throws(CommandFailure) {
  guard name.count < 9 else { throw CommandFailure(name + " is too long", exitCode: .usage) }  // line 17
}
