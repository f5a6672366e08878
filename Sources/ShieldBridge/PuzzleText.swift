/// The English texts of the puzzle, kept in one place so that they can be
/// swapped for the localized catalog (the English strings are its msgids).
///
/// The screen stays plain on purpose: no praise, no exclamation marks. It says
/// what was unlocked and that the way back is the user's own app switcher.
/// Every text has a variant for when the app's name is not known, so no empty
/// name or placeholder ever reaches the screen.
public enum PuzzleText {
  /// "A short task".
  public static let title = "A short task"

  /// "Answer:", the prompt before the user types.
  public static let prompt = "Answer:"

  /// Said after a wrong answer, before the next task. It gives no hint.
  public static let wrong = "That is not the answer. Here is a new task."

  /// "Solve this task to unlock 5 more minutes for Instagram."
  public static func intro(minutes: Int, app: String?) -> String {
    if let app = named(app) {
      return "Solve this task to unlock \(minutes) more \(unit(minutes)) for \(app)."
    }
    return "Solve this task to unlock \(minutes) more \(unit(minutes))."
  }

  /// "What is 47 + 38?"
  public static func question(_ task: String) -> String {
    "What is \(task)?"
  }

  /// "5 more minutes for Instagram are unlocked for today. Go back to it with your app switcher."
  public static func solved(minutes: Int, app: String?) -> String {
    let verb = minutes == 1 ? "is" : "are"
    if let app = named(app) {
      return "\(minutes) more \(unit(minutes)) for \(app) \(verb) unlocked for today. "
        + "Go back to it with your app switcher."
    }
    return
      "\(minutes) more \(unit(minutes)) \(verb) unlocked for today. Go back to it with your app switcher."
  }

  /// "Today's extra time for Instagram is used up. The limit resets at midnight."
  public static func usedUp(app: String?) -> String {
    if let app = named(app) {
      return "Today's extra time for \(app) is used up. The limit resets at midnight."
    }
    return "Today's extra time is used up. The limit resets at midnight."
  }

  private static func unit(_ minutes: Int) -> String {
    minutes == 1 ? "minute" : "minutes"
  }

  private static func named(_ app: String?) -> String? {
    guard let app, !app.isEmpty else { return nil }
    return app
  }
}
