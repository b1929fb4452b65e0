import Foundation
import MorningProofCore

/// Loop Habit Tracker's data as its backup (`.db`, tables `Habits` and `Repetitions`) or its CSV
/// export (`Habits.csv`, `NNN Name/Checkmarks.csv`) holds it, fields as stored (nil where absent).
public struct LoopBackup: Equatable, Sendable {
    /// A row of `Habits` or a line of `Habits.csv`.
    public struct Habit: Equatable, Sendable {
        public var id: Int64
        public var position: Int?
        public var name: String?
        public var question: String?
        public var description: String?
        public var numerator: Int?
        public var denominator: Int?
        public var archived: Bool
        /// Loop's `type`: 0 yes/no, 1 numerical.
        public var type: Int?
        /// Loop's `target_type`: 0 at least, 1 at most.
        public var targetType: Int?
        public var targetValue: Double?
        public var unit: String?
        public var reminderHour: Int?
        public var reminderMinute: Int?
        /// Where the row is, for warnings.
        public var origin: ImportWarning.Origin

        public init(
            id: Int64, position: Int? = nil, name: String?, question: String? = nil, description: String? = nil,
            numerator: Int?, denominator: Int?, archived: Bool = false, type: Int? = 0, targetType: Int? = 0,
            targetValue: Double? = 0, unit: String? = nil, reminderHour: Int? = nil, reminderMinute: Int? = nil,
            origin: ImportWarning.Origin
        ) {
            self.id = id
            self.position = position
            self.name = name
            self.question = question
            self.description = description
            self.numerator = numerator
            self.denominator = denominator
            self.archived = archived
            self.type = type
            self.targetType = targetType
            self.targetValue = targetValue
            self.unit = unit
            self.reminderHour = reminderHour
            self.reminderMinute = reminderMinute
            self.origin = origin
        }
    }

    /// A row of `Repetitions` or a line of a habit's `Checkmarks.csv`.
    public struct Repetition: Equatable, Sendable {
        public var habitID: Int64?
        /// Milliseconds since 1970 at midnight UTC of the day (Loop's `Timestamp`).
        public var timestamp: Int64?
        /// Loop's value: 2 YES_MANUAL, 1 YES_AUTO, 0 NO, 3 SKIP, -1 UNKNOWN; amount x 1000 for numerical habits.
        public var value: Int?
        public var notes: String?
        public var origin: ImportWarning.Origin

        public init(
            habitID: Int64?, timestamp: Int64?, value: Int?, notes: String? = nil, origin: ImportWarning.Origin
        ) {
            self.habitID = habitID
            self.timestamp = timestamp
            self.value = value
            self.notes = notes
            self.origin = origin
        }
    }

    public var habits: [Habit]
    public var repetitions: [Repetition]
    /// What reading the files already found wrong.
    public var warnings: [ImportWarning]

    public init(habits: [Habit], repetitions: [Repetition], warnings: [ImportWarning] = []) {
        self.habits = habits
        self.repetitions = repetitions
        self.warnings = warnings
    }
}

/// Loop's rules, as our schedules and entries.
public enum LoopRules {
    public static let skip = 3
    public static let yesManual = 2
    public static let yesAuto = 1
    public static let no = 0
    public static let unknown = -1

    /// Loop counts `numerator` repetitions in rolling windows of `denominator` days (a done day opens
    /// a window), so 1/1 is daily, 1/N every N days and K/N our `--times K --in N` (harsh's rule; 3/7
    /// is three in any seven days, not per calendar week). Nil for frequencies Loop never writes.
    public static func schedule(numerator: Int, denominator: Int) -> Schedule? {
        guard numerator >= 1, denominator >= 1, denominator <= 365 else { return nil }
        if numerator >= denominator { return .daily }
        return numerator == 1 ? .everyDays(denominator) : .timesInDays(times: numerator, days: denominator)
    }

    /// The day of a Loop timestamp (milliseconds at midnight UTC of the local date; a time of day is
    /// dropped, as Loop does). Nil before 1970 and after the supported days.
    public static func day(timestamp: Int64) -> LocalDay? {
        guard timestamp >= 0 else { return nil }
        let day = LocalDay(dayNumber: Int(timestamp / 86_400_000))
        return LocalDay.supported.contains(day) ? day : nil
    }

    /// Yes/no habits: YES_MANUAL is done, SKIP skipped, and NO, UNKNOWN and YES_AUTO (a day the
    /// schedule covers by itself) not done. Numerical habits store the amount times 1000; a day is done
    /// when its amount reaches an at-least target or, recorded, stays within an at-most one (Loop's
    /// streak rule); SKIP is skipped there too. Nil for a value Loop never writes.
    public static func outcome(value: Int, numerical: Bool, atMost: Bool, target: Double) -> DayOutcome? {
        if value == skip { return .skipped }
        guard numerical else {
            switch value {
            case yesManual: return .done(value: nil)
            case yesAuto, no, unknown: return .notDone
            default: return nil
            }
        }
        if value == unknown { return .notDone }
        guard value >= 0 else { return nil }
        let amount = Double(value) / 1000
        return (atMost ? amount <= target : amount >= target) ? .done(value: amount) : .notDone
    }

    /// The reminder as minutes after midnight; nil without one (or with an impossible time).
    public static func reminder(hour: Int?, minute: Int?) -> Int? {
        guard let hour, let minute, (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        return hour * 60 + minute
    }

    /// A numerical habit counted in a health metric's unit (`steps`) becomes a metric goal, which
    /// `check` then completes from health files; other units have no metric to read.
    public static func goal(unit: String, atMost: Bool, target: Double) -> MetricGoal? {
        guard let metric = HealthMetric(name: unit), MetricUnits.factor(from: unit, to: metric) == 1 else {
            return nil
        }
        return MetricGoal(metric: metric.rawValue, comparison: atMost ? .atMost : .atLeast, target: target)
    }
}
