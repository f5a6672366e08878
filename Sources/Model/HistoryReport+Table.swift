extension HistoryReport {
  /// A report's figures kept flat: per day and rule seven numbers and the
  /// seconds of each of the rule's apps, all in one array of numbers, the
  /// names once.
  ///
  /// What ``HistoryReport`` shows, without one value per rule and day: a
  /// year of 100 rules is 36,600 rule-days, which `report --json` writes
  /// straight from here (``HistoryStore/reportTable(ledger:rules:from:to:rule:)``
  /// reads the history's lines into it). ``HistoryReport/init(_:)`` makes the
  /// days from it; every figure of a report is worked out here, once.
  public struct Table: Hashable, Sendable {
    /// One rule on one day (its apps apart: ``appSeconds(day:rule:app:)``).
    public struct Figures: Hashable, Sendable {
      public var usedSeconds: Int
      public var limitSeconds: Int
      public var grants: Int
      public var shieldsShown: Int
      public var tasksAsked: Int
      public var tasksSolved: Int
      public var backedOut: Int

      public init(
        usedSeconds: Int, limitSeconds: Int, grants: Int, shieldsShown: Int, tasksAsked: Int, tasksSolved: Int,
        backedOut: Int
      ) {
        self.usedSeconds = usedSeconds
        self.limitSeconds = limitSeconds
        self.grants = grants
        self.shieldsShown = shieldsShown
        self.tasksAsked = tasksAsked
        self.tasksSolved = tasksSolved
        self.backedOut = backedOut
      }
    }

    public let from: LocalDay
    public let to: LocalDay
    /// Every day from ``from`` to ``to``, oldest first.
    public let dates: [LocalDay]
    /// The rules of the report, in their order.
    public let names: [String]
    /// Per rule, its apps and sites in the order of `config.json`.
    public let appNames: [[String]]
    /// Per rule, in the order of the rules.
    public let summaries: [RuleSummary]
    /// The first day the history or the ledger holds anything for; `nil` when they hold nothing.
    ///
    /// Days before it were before ShieldBridge counted (before the install,
    /// or forgotten): they are no days of use, drawn without a limit, and no
    /// average counts them.
    public let firstRecorded: LocalDay?
    let layout: Layout
    /// Per day, ``Layout/width`` numbers: per rule the seven of ``Figures``, then its apps' seconds.
    let cells: [Int]

    /// All rules together: the total of every day in the range.
    public var totalSeconds: Int { summaries.reduce(0) { $0 + $1.totalSeconds } }
    /// The days of the range on or after ``firstRecorded``.
    public var recordedDays: Int { dates.count { isRecorded($0) } }
    /// All rules together, per recorded day (0 without one).
    public var averageSeconds: Int { recordedDays == 0 ? 0 : totalSeconds / recordedDays }
    /// All rules together, per recorded day of the period before; `nil` when it has none.
    public var previousAverageSeconds: Int? {
      guard summaries.allSatisfy({ $0.previousAverageSeconds != nil }), !summaries.isEmpty else { return nil }
      return summaries.reduce(0) { $0 + ($1.previousAverageSeconds ?? 0) }
    }

    /// Whether `day` is on or after the first recorded day (``firstRecorded``).
    public func isRecorded(_ day: LocalDay) -> Bool {
      guard let firstRecorded else { return false }
      return day >= firstRecorded
    }

    /// The figures of rule `rule` (its place in ``names``) on day `day` (its place in ``dates``).
    public func figures(day: Int, rule: Int) -> Figures {
      let start = day * layout.width + layout.offsets[rule]
      return Figures(
        usedSeconds: cells[start], limitSeconds: cells[start + 1], grants: cells[start + 2],
        shieldsShown: cells[start + 3], tasksAsked: cells[start + 4], tasksSolved: cells[start + 5],
        backedOut: cells[start + 6])
    }

    /// The seconds of app `app` (its place in the rule's ``appNames``) of rule `rule` on day `day`.
    public func appSeconds(day: Int, rule: Int, app: Int) -> Int {
      cells[day * layout.width + layout.offsets[rule] + Layout.fixed + app]
    }

    /// The seconds of each app of rule `rule` on day `day`, in the order of its ``appNames``.
    public func appSeconds(day: Int, rule: Int) -> ArraySlice<Int> {
      let start = day * layout.width + layout.offsets[rule] + Layout.fixed
      return cells[start..<start + appNames[rule].count]
    }

    /// The table of ``HistoryReport/init(history:ledger:rules:from:to:rule:)``.
    public init(history: History, ledger: Ledger, rules: RuleSet, from: LocalDay, to: LocalDay, rule: String? = nil) {
      self.init(
        rules: rules, rule: rule, from: from, to: to, forgottenBefore: history.forgottenBefore,
        firstStored: history.days.keys.min(), ledger: ledger
      ) { day, stored in
        if let entries = history.days[day] { stored.fill(entries) }
        return true
      }!
    }

    /// The table from the stored days `stored` puts into its second
    /// argument (cleared before each call), asked once for each day of the
    /// range and of the period before it; `nil` as soon as it answers `false`
    /// (a day that cannot be read).
    ///
    /// - Parameter firstStored: The first day the stored history holds, whether in the range or not.
    package init?(
      rules: RuleSet, rule: String?, from: LocalDay, to: LocalDay, forgottenBefore: LocalDay?,
      firstStored: LocalDay?, ledger: Ledger, stored: (LocalDay, inout StoredDay) -> Bool
    ) {
      self.from = from
      self.to = to
      // The ledger's days before the forgotten date count nothing, so they are no record either.
      let firstInLedger = ledger.allDays.first { day in forgottenBefore.map { day >= $0 } ?? true }
      let firstRecorded = [firstStored, firstInLedger].compactMap { $0 }.min()
      self.firstRecorded = firstRecorded
      func isRecorded(_ day: LocalDay) -> Bool { firstRecorded.map { day >= $0 } ?? false }
      var seen: Set<String> = []
      // The built-in rule meters nothing (it names no app): no history, nothing to report.
      let chosen =
        rules.isBuiltIn
        ? [] : rules.rules.filter { ($0.name == rule || rule == nil) && seen.insert($0.name).inserted }
      let layout = Layout(chosen)
      self.layout = layout
      names = chosen.map(\.name)
      appNames = chosen.map { $0.apps.map(\.name) }
      let count = max(1, from.days(to: to) + 1)
      dates = (0..<count).compactMap { from.adding(days: $0) }
      var row = StoredDay(layout)
      var cells = [Int](repeating: 0, count: dates.count * layout.width)
      // The ledger's figures of `day`: days before the history's forgotten date count nothing from it.
      func ledgerFigures(_ day: LocalDay) -> (
        seconds: [String: Int]?, grants: [String: Int]?, asked: [String: Int]?, backedOut: [String: Int]?
      ) {
        if let forgottenBefore, day < forgottenBefore { return (nil, nil, nil, nil) }
        return (
          ledger.usedSecondsByDay[day], ledger.days[day], ledger.tasksAskedByDay[day], ledger.backedOutByDay[day]
        )
      }
      for (index, day) in dates.enumerated() {
        row.clear()
        guard stored(day, &row) else { return nil }
        let fromLedger = ledgerFigures(day)
        let recorded = isRecorded(day)
        // By place, not by rule: a rule is copied (its names retained) only when the configuration's limit is needed.
        for place in chosen.indices {
          let start = layout.offsets[place]
          let present = row.present[place]
          var ledgerSeconds = 0
          var ledgerGrants = 0
          if let seconds = fromLedger.seconds { ledgerSeconds = seconds[names[place]] ?? 0 }
          if let grants = fromLedger.grants { ledgerGrants = grants[names[place]] ?? 0 }
          let grants = max(present ? row.cells[start + 2] : 0, chosen[place].countedGrants(ledgerGrants))
          let limit = present ? row.cells[start + 1] : StoredDay.noLimit
          let solved = present ? row.cells[start + 5] : 0
          // The tasks asked and the ways out are counted in the ledger as they happen (the history
          // takes them at the service's next save): the ledger's larger count is the current one.
          let asked = fromLedger.asked?[names[place]] ?? 0
          let backedOut = fromLedger.backedOut?[names[place]] ?? 0
          let target = index * layout.width + start
          cells[target] = max(present ? row.cells[start] : 0, ledgerSeconds)
          // A day before the first record was no day of the rule's: no limit was in force.
          cells[target + 1] =
            !recorded
            ? 0 : limit != StoredDay.noLimit ? limit : chosen[place].limitMinutes(grants: grants, on: day) * 60
          cells[target + 2] = grants
          cells[target + 3] = present ? row.cells[start + 3] : 0
          cells[target + 4] = max(present ? row.cells[start + 4] : 0, solved, asked)
          cells[target + 5] = solved
          cells[target + 6] = max(present ? row.cells[start + 6] : 0, backedOut)
          for app in 0..<appNames[place].count {
            cells[target + Layout.fixed + app] = present ? row.cells[start + Layout.fixed + app] : 0
          }
        }
      }
      // The period before, for the change: its seconds per rule, and its days on record.
      var before = [Int](repeating: 0, count: chosen.count)
      var recordedBefore = 0
      for offset in (1...count).reversed() {
        guard let day = from.adding(days: -offset) else { continue }
        if isRecorded(day) { recordedBefore += 1 }
        row.clear()
        guard stored(day, &row) else { return nil }
        let fromLedger = ledgerFigures(day)
        for place in chosen.indices {
          let stored = row.present[place] ? row.cells[layout.offsets[place]] : 0
          before[place] += max(stored, fromLedger.seconds?[names[place]] ?? 0)
        }
      }
      self.cells = cells
      let days = dates.count
      let recordedDays = dates.count(where: isRecorded)
      summaries = chosen.enumerated().map { place, rule in
        var total = 0
        var grants = 0
        var shields = 0
        var declined = 0
        var backedOut = 0
        // Per app of the rule, in its order; then per name (a name the rule gives twice adds up).
        var appTotals = [Int](repeating: 0, count: rule.apps.count)
        for day in 0..<days {
          let start = day * layout.width + layout.offsets[place]
          total += cells[start]
          grants += cells[start + 2]
          shields += cells[start + 3]
          declined += max(0, cells[start + 4] - cells[start + 5])
          backedOut += cells[start + 6]
          for app in appTotals.indices { appTotals[app] += cells[start + Layout.fixed + app] }
        }
        var apps: [String: Int] = [:]
        for (app, seconds) in zip(rule.apps, appTotals) { apps[app.name, default: 0] += seconds }
        // The first app of the rule wins a tie: the order the user wrote.
        var busiest: (name: String, seconds: Int)?
        for app in rule.apps where (apps[app.name] ?? 0) > (busiest?.seconds ?? 0) {
          busiest = (app.name, apps[app.name] ?? 0)
        }
        return RuleSummary(
          name: rule.name, totalSeconds: total, recordedDays: recordedDays,
          averageSeconds: recordedDays == 0 ? 0 : total / recordedDays,
          previousRecordedDays: recordedBefore,
          previousAverageSeconds: recordedBefore == 0 ? nil : before[place] / recordedBefore, busiestApp: busiest?.name,
          busiestAppSeconds: busiest?.seconds ?? 0, grants: grants, shieldsShown: shields, tasksDeclined: declined,
          backedOut: backedOut)
      }
    }
  }

  /// Where each rule's numbers are in a day of a ``Table`` (and of a ``StoredDay``).
  struct Layout: Hashable, Sendable {
    /// The numbers of ``Table/Figures``, before a rule's apps.
    static let fixed = 7
    let rules: [Rule]
    /// Per rule, where its numbers start.
    let offsets: [Int]
    /// The numbers of one day.
    let width: Int
    /// Per rule name, its place in ``rules``.
    let places: [String: Int]

    init(_ rules: [Rule]) {
      self.rules = rules
      var offsets: [Int] = []
      var width = 0
      for rule in rules {
        offsets.append(width)
        width += Layout.fixed + rule.apps.count
      }
      self.offsets = offsets
      self.width = width
      places = Dictionary(rules.enumerated().map { ($0.element.name, $0.offset) }) { first, _ in first }
    }
  }

  /// One day's stored figures of a report's rules, laid out as a day of a
  /// ``Table``: the usedSeconds, limitSeconds, grants, shieldsShown,
  /// tasksAsked, tasksSolved and backedOut of the ``HistoryEntry`` as stored
  /// (``noLimit`` for no limit), then the seconds of each of the rule's apps.
  package struct StoredDay {
    static let noLimit = Int.min
    let layout: Layout
    /// Per rule, whether the day holds an entry for it.
    var present: [Bool]
    var cells: [Int]

    init(_ layout: Layout) {
      self.layout = layout
      present = [Bool](repeating: false, count: layout.rules.count)
      cells = [Int](repeating: 0, count: layout.width)
    }

    mutating func clear() {
      for place in present.indices { present[place] = false }
    }

    /// Takes the entries of the report's rules from a day of the history.
    mutating func fill(_ entries: [String: HistoryEntry]) {
      for (place, rule) in layout.rules.enumerated() {
        guard let entry = entries[rule.name] else { continue }
        fill(place: place, entry) { entry.appParts.seconds(of: $0) }
      }
    }

    /// Takes `entry` as the figures of the rule at `place`, each of its apps'
    /// seconds from `seconds` (given the app's name).
    ///
    /// An entry's split is within its seconds (``HistoryEntry/clamp()``), so
    /// within the report's, which are at least as many: taken as it is.
    mutating func fill(place: Int, _ entry: HistoryEntry, seconds: (String) -> Int) {
      let start = layout.offsets[place]
      present[place] = true
      cells[start] = entry.usedSeconds
      cells[start + 1] = entry.limitSeconds ?? StoredDay.noLimit
      cells[start + 2] = entry.grants
      cells[start + 3] = entry.shieldsShown
      cells[start + 4] = entry.tasksAsked
      cells[start + 5] = entry.tasksSolved
      cells[start + 6] = entry.backedOut
      for (index, app) in layout.rules[place].apps.enumerated() {
        cells[start + Layout.fixed + index] = seconds(app.name)
      }
    }
  }
}
