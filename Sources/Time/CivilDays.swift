/// Days since 1970-01-01 and the proleptic Gregorian dates they are (Howard
/// Hinnant's `days_from_civil` and `civil_from_days`): the one copy of that
/// arithmetic, for the UTC fields of ``WallTime`` and the model's local days.
///
/// The years are counted in 400-year eras of 146,097 days that start on
/// March 1st, so that the leap day ends a year.
public enum CivilDays {
  /// Days from 1970-01-01 to `year`-`month`-`day` (month 1…12; a day past the
  /// month's end runs on into the next).
  public static func days(year: Int64, month: Int, day: Int) -> Int64 {
    let marchYear = month <= 2 ? year - 1 : year
    let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
    let yearOfEra = marchYear - era * 400
    let dayOfYear = Int64((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1)
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date `days` days after 1970-01-01.
  public static func date(days: Int64) -> (year: Int64, month: Int, day: Int) {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthFromMarch = (5 * dayOfYear + 2) / 153
    let day = Int(dayOfYear - (153 * monthFromMarch + 2) / 5 + 1)
    let month = Int(monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9)
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
